package session

import (
	"errors"
	"go/build"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// deps returns every package pattern depends on, itself included, as
// go list -deps names them.
func deps(t *testing.T, pattern string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		gobin = filepath.Join(build.Default.GOROOT, "bin", "go")
	}
	out, err := exec.Command(gobin, "list", "-deps", pattern).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps %s: %v\n%s", pattern, err, ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v", pattern, err)
	}
	list := strings.Fields(string(out))
	if len(list) < 2 {
		t.Fatalf("go list -deps %s named %d packages, want the package and its dependencies", pattern, len(list))
	}
	return list
}

const module = "github.com/tablestress/tablestress/"

// A run is a library call: this package depends on no command-line
// library and nothing of the commands; and it stands above the runner,
// beside nothing that decides without a server: the judge, the plan and
// the advisor depend neither on it, the runner, the Table client nor the
// Azure SDK (pkg/judge's TestImportsNoRunner holds the judge and the plan
// to the same, and to no reports).
func TestImportsNoCommandLine(t *testing.T) {
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		{module + "pkg/session", []string{"github.com/spf13/", module + "cmd/"}},
		{module + "pkg/advise", []string{module + "pkg/session", module + "pkg/workload", module + "pkg/table", "github.com/Azure/", "github.com/spf13/"}},
		{module + "pkg/judge", []string{module + "pkg/session", "github.com/spf13/"}},
	}
	for _, r := range rules {
		for _, p := range deps(t, r.pkg) {
			for _, f := range r.forbidden {
				if p == f || strings.HasSuffix(f, "/") && strings.HasPrefix(p, f) {
					t.Errorf("%s depends on %s", r.pkg, p)
				}
			}
		}
	}
}
