package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=..." (make
// build does, from git describe, and the Dockerfile); otherwise it comes
// from the build info (versionInfo).
var version = ""

// versionInfo says which build this is: the -X version, the module version
// (go install ...@v1.2.3), or the VCS revision and commit time that go build
// records in a checkout ("3e65e92c1a2b, 2026-11-23T13:00:00Z, modified").
// short is what the User-Agent carries.
func versionInfo(read func() (*debug.BuildInfo, bool)) (short, long string) {
	bi, ok := read()
	if version != "" {
		if ok {
			return version, version + ", " + bi.GoVersion
		}
		return version, version
	}
	if !ok {
		return "devel", "devel (no build information)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v, v + ", " + bi.GoVersion
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" {
		return "devel", "devel, built without version control information (make build records the commit; go build and go install do in a checkout unless GOFLAGS has -buildvcs=false), " + bi.GoVersion
	}
	rev = rev[:min(len(rev), 12)]
	parts := []string{rev}
	if t := vcs["vcs.time"]; t != "" {
		parts = append(parts, t)
	}
	if vcs["vcs.modified"] == "true" {
		parts = append(parts, "modified")
		rev += "-modified"
	}
	return rev, "devel " + strings.Join(parts, ", ") + ", " + bi.GoVersion
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version: the release, or the commit it was built from",
		Long: `version prints the build's version: the release version when installed with
go install ...@VERSION or built with -ldflags "-X main.version=VERSION", or the
commit, its time and whether the checkout had changes when built with go build
in a checkout.`,
		Example: `  tablestress version`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, long := versionInfo(debug.ReadBuildInfo)
			fmt.Fprintln(e.stdout, "tablestress", long)
			return nil
		},
	}
}

// shortVersion is the version for the User-Agent.
func shortVersion() string {
	s, _ := versionInfo(debug.ReadBuildInfo)
	return s
}
