package sourcecheck

import (
	"github.com/tablestress/tablestress/internal/testenv"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every function of the module's non-test Go code has a body of at most
// MaxBodyLines lines: a longer one is split where it does two things.
func TestFunctionsAreShort(t *testing.T) {
	root := testenv.ModuleRoot(t)
	files := 0
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		for _, long := range longFunctions(t, path) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s:%d: %s", filepath.ToSlash(rel), long.line, long.what)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("checked %d files: the walk did not find the module's code", files)
	}
}

// long is a function over the limit: where it starts and what it is.
type long struct {
	line int
	what string
}

// longFunctions parses path and returns its functions whose body is over
// MaxBodyLines lines.
func longFunctions(t *testing.T, path string) []long {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []long
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		name := "a function literal"
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body, name = fn.Body, fn.Name.Name
		case *ast.FuncLit:
			body = fn.Body
		}
		if body == nil {
			return true
		}
		lines := fset.Position(body.Rbrace).Line - fset.Position(body.Lbrace).Line - 1
		if lines > MaxBodyLines {
			out = append(out, long{fset.Position(body.Lbrace).Line, name + "'s body is " + itoa(lines) + " lines, over " + itoa(MaxBodyLines)})
		}
		return true
	})
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
