package sourcecheck

import (
	"github.com/tablestress/tablestress/internal/testenv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The passes of scripts/test.sh, by the flags that select their tests:
// make test runs the race pass and the fake-clock pass less the long
// tests, make test-long the long tests in the same two passes. Together
// they select every test once: a test is long or not, and runs under
// -race or not.
var splitPasses = []string{
	`-skip "$NORACE_TESTS|$LONG_TESTS"`,
	`-run "$NORACE_TESTS" -skip "$LONG_TESTS"`,
	`-run "$LONG_TESTS" -skip "$NORACE_TESTS"`,
	`-run "$LONG_NORACE_TESTS"`,
}

// Every test name scripts/test.sh lists (LONG, the long tests of make
// test-long; NORACE_TESTS, those run without -race) is a top-level test
// of the module, so that the lists say where each test runs, and the
// script's passes select the tests as splitPasses says.
func TestSplitListsNameTests(t *testing.T) {
	root := testenv.ModuleRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	script := string(b)
	for _, p := range splitPasses {
		if !strings.Contains(script, p) {
			t.Errorf("scripts/test.sh has no pass %s", p)
		}
	}
	long := regexp.MustCompile(`(?s)\nLONG=\(([^)]*)\)`).FindStringSubmatch(script)
	norace := regexp.MustCompile(`\nNORACE_TESTS='\^\(([^)]*)\)\$'`).FindStringSubmatch(script)
	if long == nil || norace == nil {
		t.Fatal("scripts/test.sh: no LONG=(...) or NORACE_TESTS='^(...)$'")
	}
	tests := moduleTests(t, root)
	names := append(strings.Fields(long[1]), strings.Split(norace[1], "|")...)
	if len(strings.Fields(long[1])) < 10 {
		t.Fatalf("LONG names %d tests: the list was not read", len(strings.Fields(long[1])))
	}
	for _, n := range names {
		if !tests[n] {
			t.Errorf("scripts/test.sh names %s, which is no test of the module", n)
		}
	}
}

// moduleTests are the names of the module's top-level tests.
func moduleTests(t *testing.T, root string) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]*)\(t \*testing\.T\)`)
	out := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
