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

// unfollowable are citations a reader of the repository cannot follow:
// numbered design notes and a style guide that are not in it. A comment
// or a document cites the public source instead: Azure's documentation
// page and section, the design guide's pattern name, an issue's URL.
var unfollowable = regexp.MustCompile(`(?i)\bseeds? 0{2}[0-9]|\bSTYLE\.md\b`)

// Every citation in the module's Go code, documents, scenarios and
// scripts can be followed by a reader of the repository.
func TestCitationsCanBeFollowed(t *testing.T) {
	root := testenv.ModuleRoot(t)
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") && n != ".ci" && n != ".github" || n == "node_modules" || n == "testdata" || n == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".sh", ".py":
		default:
			if filepath.Base(path) != "Makefile" && filepath.Base(path) != "run" {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for n, line := range strings.Split(string(b), "\n") {
			if unfollowable.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: %s", filepath.ToSlash(rel), n+1, strings.TrimSpace(line))
			}
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
