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
		t.Errorf("a client: %+v %v, want GOGC 400 at least and a limit of 12 GiB (half of 24)", p, ok)
	}
	if p, ok := gcFor(none, true, 24*gib); !ok || p.Percent != 100 || p.Limit != 12*gib || p.Headroom != serviceHeadroom {
		t.Errorf("hosting the embedded service: %+v %v, want GOGC 100 at least, a headroom of 256 MiB and a limit of 12 GiB", p, ok)
	}
	if p, _ := gcFor(none, false, 24*gib); p.Headroom != clientHeadroom || clientHeadroom <= serviceHeadroom {
		t.Errorf("a client: headroom %d, want %d (more than a service's %d: a client's heap holds no entities)", p.Headroom, clientHeadroom, serviceHeadroom)
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

// TestGCPercentFor checks the percent that lets the live heap grow by the
// headroom: raised for a small heap, never under the least nor over the
// bound, the least when the heap is unknown or there is no headroom.
func TestGCPercentFor(t *testing.T) {
	const mib = int64(1) << 20
	for _, c := range []struct{ live, least, headroom, want int64 }{
		{live: 4 * mib, least: 100, headroom: 64 * mib, want: 1600},  // 4 MiB may grow by 64
		{live: 3 * mib, least: 100, headroom: 64 * mib, want: 2000},  // 2,134 bounded
		{live: 48 * mib, least: 100, headroom: 64 * mib, want: 134},  // rounded up: at least 64 MiB
		{live: 64 * mib, least: 100, headroom: 64 * mib, want: 100},  // the least
		{live: 512 * mib, least: 100, headroom: 64 * mib, want: 100}, // a large table: the least
		{live: 4 * mib, least: 400, headroom: 0, want: 400},          // no headroom
		{live: 0, least: 100, headroom: 64 * mib, want: 100},         // live heap unknown
		{live: 1, least: 3000, headroom: 64 * mib, want: 3000},       // a least above the bound stands
	} {
		if got := gcPercentFor(c.live, c.least, c.headroom); got != c.want {
			t.Errorf("gcPercentFor(%d MiB, %d, %d MiB) = %d, want %d", c.live/mib, c.least, c.headroom/mib, got, c.want)
		}
		// The heap the percent allows is the live heap and the headroom.
		if c.headroom > 0 && c.live > 0 {
			got := gcPercentFor(c.live, c.least, c.headroom)
			if growth := c.live * got / 100; got < maxGCPercent && growth < c.headroom {
				t.Errorf("live %d: GOGC %d lets the heap grow by %d bytes, under the headroom %d", c.live, got, growth, c.headroom)
			}
		}
	}
}
