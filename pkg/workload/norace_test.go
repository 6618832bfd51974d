package workload

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestBubbleTestsRunWithoutRace holds the contract of bubble_test.go: every
// top-level test of this package, and of cmd/tablestress (whose advise
// proofs run compare on the fake clock), that runs a synctest bubble
// (directly or through a helper of the package's test files) is named in
// scripts/test.sh's NORACE_TESTS, so make test runs it in the pass without
// -race.
func TestBubbleTestsRunWithoutRace(t *testing.T) {
	listed := noRaceList(t)
	for _, dir := range []string{".", filepath.Join("..", "..", "cmd", "tablestress")} {
		bubbles := bubbleTests(t, dir)
		for _, name := range bubbles {
			if !listed.MatchString(name) {
				t.Errorf("%s (%s) runs a synctest bubble but scripts/test.sh's NORACE_TESTS does not name it: add it there", name, dir)
			}
		}
		if len(bubbles) == 0 {
			t.Fatalf("no test of %s runs a synctest bubble: the parse below is broken", dir)
		}
	}
}

// noRaceList reads the NORACE_TESTS pattern from scripts/test.sh.
func noRaceList(t *testing.T) *regexp.Regexp {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^NORACE_TESTS='([^']+)'$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("scripts/test.sh has no NORACE_TESTS='...' line")
	}
	re, err := regexp.Compile(string(m[1]))
	if err != nil {
		t.Fatalf("NORACE_TESTS is not a pattern: %v", err)
	}
	return re
}

// bubbleTests returns the top-level tests of the test files in dir that
// reach synctest.Test through calls among the files' own functions.
func bubbleTests(t *testing.T, dir string) (bubbles []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var tests []string
	calls := map[string][]string{} // function -> the package functions it calls
	direct := map[string]bool{}    // function -> calls synctest.Test itself
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil {
				continue
			}
			name := fd.Name.Name
			if strings.HasPrefix(name, "Test") {
				tests = append(tests, name)
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				ce, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch fn := ce.Fun.(type) {
				case *ast.SelectorExpr:
					if id, ok := fn.X.(*ast.Ident); ok && id.Name == "synctest" && fn.Sel.Name == "Test" {
						direct[name] = true
					}
				case *ast.Ident:
					calls[name] = append(calls[name], fn.Name)
				}
				return true
			})
		}
	}
	reaches := map[string]bool{}
	var visit func(string, map[string]bool) bool
	visit = func(fn string, seen map[string]bool) bool {
		if r, ok := reaches[fn]; ok {
			return r
		}
		if seen[fn] {
			return false
		}
		seen[fn] = true
		r := direct[fn]
		for _, c := range calls[fn] {
			if !r && visit(c, seen) {
				r = true
			}
		}
		reaches[fn] = r
		return r
	}
	for _, name := range tests {
		if visit(name, map[string]bool{}) {
			bubbles = append(bubbles, name)
		}
	}
	slices.Sort(bubbles)
	return bubbles
}
