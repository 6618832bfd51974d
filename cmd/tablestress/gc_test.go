package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGCPolicy(t *testing.T) {
	none := func(string) string { return "" }
	const gib = int64(1) << 30
	if p, ok := gcFor(none, false, 24*gib); !ok || p.Percent != 400 || p.Limit != 12*gib {
		t.Errorf("a client: %+v %v, want GOGC 400 and a limit of 12 GiB (half of 24)", p, ok)
	}
	if p, ok := gcFor(none, true, 24*gib); !ok || p.Percent != 100 || p.Limit != 12*gib {
		t.Errorf("hosting the embedded service: %+v %v, want GOGC 100 and a limit of 12 GiB", p, ok)
	}
	if p, ok := gcFor(none, false, 0); !ok || p.Limit != 0 {
		t.Errorf("memory unknown: %+v %v, want no limit", p, ok)
	}
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		env := func(k string) string {
			if k == name {
				return "200"
			}
			return ""
		}
		if _, ok := gcFor(env, false, 24*gib); ok {
			t.Errorf("%s set: the policy overrides the user's setting", name)
		}
	}
}

func TestReadMemTotal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	os.WriteFile(p, []byte("MemFree:   100 kB\nMemTotal:       24576000 kB\n"), 0o644)
	if got := readMemTotal(p); got != 24576000<<10 {
		t.Errorf("MemTotal: %d, want %d", got, int64(24576000)<<10)
	}
	if got := readMemTotal(filepath.Join(t.TempDir(), "none")); got != 0 {
		t.Errorf("no file: %d, want 0", got)
	}
}
