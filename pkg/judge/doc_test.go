package judge

import (
	"errors"
	"go/build"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// forbidden are the packages a judge that talks to no server must not
// depend on, directly or through another package: the runner, the one
// package that talks to a Table endpoint, the reports' renderers and the
// Azure SDK (every package under github.com/Azure/).
var forbidden = []string{
	"github.com/tablestress/tablestress/pkg/workload",
	"github.com/tablestress/tablestress/pkg/table",
	"github.com/tablestress/tablestress/pkg/report",
	"github.com/Azure/",
}

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
	return strings.Fields(string(out))
}

// The judge and the plan it reads decide without a server: neither
// depends on the runner, the Table client, the reports or the Azure SDK,
// so the package graph shows the judge and the runner side by side above
// the plan.
func TestImportsNoRunner(t *testing.T) {
	for _, pattern := range []string{"github.com/tablestress/tablestress/pkg/judge", "github.com/tablestress/tablestress/pkg/plan"} {
		list := deps(t, pattern)
		if len(list) < 2 {
			t.Fatalf("go list -deps %s named %d packages, want the package and its dependencies", pattern, len(list))
		}
		for _, p := range list {
			for _, f := range forbidden {
				if p == f || strings.HasSuffix(f, "/") && strings.HasPrefix(p, f) {
					t.Errorf("%s depends on %s", pattern, p)
				}
			}
		}
	}
}
