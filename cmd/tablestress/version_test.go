package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFromBuildInfo(t *testing.T) {
	info := func(version string, settings ...string) func() (*debug.BuildInfo, bool) {
		bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/tablestress/tablestress", Version: version}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return func() (*debug.BuildInfo, bool) { return bi, true }
	}
	for _, tc := range []struct {
		read        func() (*debug.BuildInfo, bool)
		short, long string
	}{
		{info("v1.2.3"), "v1.2.3", "v1.2.3, go1.26.8"},
		{info("(devel)", "vcs.revision", "3e65e92c1a2b3c4d5e6f", "vcs.time", "2026-11-23T13:00:00Z", "vcs.modified", "false"),
			"3e65e92c1a2b", "devel 3e65e92c1a2b, 2026-11-23T13:00:00Z, go1.26.8"},
		{info("(devel)", "vcs.revision", "3e65e92c1a2b3c4d5e6f", "vcs.modified", "true"), "3e65e92c1a2b-modified", "devel 3e65e92c1a2b, modified, go1.26.8"},
		{info("(devel)"), "devel", "devel, built without version control information (make build records the commit; go build and go install do in a checkout unless GOFLAGS has -buildvcs=false), go1.26.8"},
	} {
		short, long := versionInfo(tc.read)
		if short != tc.short || long != tc.long {
			t.Errorf("got %q, %q; want %q, %q", short, long, tc.short, tc.long)
		}
	}
	version = "v9.9.9" // -ldflags -X main.version wins
	defer func() { version = "" }()
	if short, long := versionInfo(info("v1.2.3")); short != "v9.9.9" || long != "v9.9.9, go1.26.8" {
		t.Errorf("-X version: %q %q", short, long)
	}
}

// make build names the commit it built even when GOFLAGS turns off what
// go build records of version control (-buildvcs=false): tablestress
// version then says the commit git describe gives, not "devel".
func TestMakeBuildSaysItsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "tablestress")
	mk := exec.Command("make", "-s", "-C", "../..", "build", "BIN="+bin)
	mk.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); !strings.HasPrefix(got, "tablestress "+strings.TrimSpace(string(head))) {
		t.Errorf("tablestress version after make build: %q, want the commit %s", got, head)
	}
}
