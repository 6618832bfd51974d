package main

import (
	"runtime/debug"
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
		{info("(devel)"), "devel", "devel, built without version control information (build it with go build or go install in a checkout), go1.26.8"},
	} {
		short, long := versionInfo(tc.read)
		if short != tc.short || long != tc.long {
			t.Errorf("got %q, %q; want %q, %q", short, long, tc.short, tc.long)
		}
	}
	version = "v9.9.9" // -ldflags -X main.version wins
	defer func() { version = "" }()
	if short, long := versionInfo(info("v1.2.3")); short != "v9.9.9" || long != "v9.9.9" {
		t.Errorf("-X version: %q %q", short, long)
	}
}
