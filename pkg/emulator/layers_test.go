package emulator

import (
	"encoding/json"
	"errors"
	"go/build"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the import path of this module, which layers names packages
// under.
const module = "github.com/tablestress/tablestress/"

// layers says which of the module's packages each package of the embedded
// service may import, so that imports run one way: from the REST service
// (this package) down to what it is built of, never up. The lower
// packages import nothing of the service above them: the store no HTTP,
// model or fault injection, the filter no store, the JSON and Edm forms
// nothing at all. tests lists what a package's tests may import besides.
var layers = map[string]struct{ imports, tests []string }{
	"internal/jsontext":         {},
	"internal/keyorder":         {},
	"pkg/azure":                 {tests: []string{"internal/testenv"}},
	"pkg/outcome":               {},
	"pkg/textfit":               {},
	"pkg/percent":               {},
	"pkg/clock":                 {},
	"pkg/emulator/internal/edm": {},
	// httpfront serves its in-process front's odd requests over
	// in-memory connections.
	"pkg/emulator/internal/httpfront": {imports: []string{"internal/pipenet"}},
	"pkg/emulator/filter":             {imports: []string{"internal/keyorder", "pkg/emulator/internal/edm"}},
	"pkg/emulator/internal/store": {imports: []string{"internal/jsontext", "internal/keyorder", "pkg/emulator/internal/edm",
		"pkg/emulator/filter"}},
	// journal writes the store down: it knows the store, nothing above.
	"pkg/emulator/internal/journal": {imports: []string{"pkg/emulator/internal/store"}},
	// The model reads Azure's figures and writes them in its usage text.
	"pkg/emulator/model":  {imports: []string{"pkg/azure", "pkg/percent", "pkg/textfit"}},
	"pkg/emulator/faults": {imports: []string{"pkg/percent", "pkg/outcome"}, tests: []string{"pkg/emulator/model"}},
	// entra knows bearer tokens and the authority's documents, nothing of
	// the service; its tests sign tokens with a local authority over TLS.
	"pkg/emulator/entra": {tests: []string{"internal/devcert", "pkg/tokenauthority"}},
	// The service waits on a virtual clock when it is given one.
	"pkg/emulator": {imports: []string{"pkg/clock", "internal/jsontext", "internal/keyorder", "pkg/azure", "pkg/outcome", "pkg/emulator/internal/edm",
		"pkg/emulator/internal/httpfront", "pkg/emulator/filter", "pkg/emulator/internal/store", "pkg/emulator/internal/journal",
		"pkg/emulator/model", "pkg/emulator/faults", "pkg/emulator/entra"},
		tests: []string{"internal/devcert", "internal/testenv", "pkg/table", "pkg/tokenauthority"}},
}

// listed is what go list says of a package.
type listed struct {
	ImportPath, Doc                    string
	Imports, TestImports, XTestImports []string
}

// goList runs go list -json on the patterns.
func goList(t *testing.T, patterns ...string) []listed {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		gobin = filepath.Join(build.Default.GOROOT, "bin", "go")
	}
	out, err := exec.Command(gobin, append([]string{"list", "-json"}, patterns...)...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}

// TestImportsRunOneWay holds every package of the embedded service (and
// the packages it shares) to layers: a package, or its tests, importing a
// package of the module it is not allowed to (a lower package reaching
// up) fails, and so does a new package the table does not place. Each
// package has a package comment, which says what it owns and what it
// must not import.
func TestImportsRunOneWay(t *testing.T) {
	pkgs := goList(t, module+"pkg/emulator/...", module+"internal/jsontext", module+"internal/keyorder", module+"pkg/azure", module+"pkg/outcome", module+"pkg/percent", module+"pkg/textfit", module+"pkg/clock")
	seen := map[string]bool{}
	for _, p := range pkgs {
		name := strings.TrimPrefix(p.ImportPath, module)
		seen[name] = true
		l, ok := layers[name]
		if !ok {
			t.Errorf("%s is in no layer: add it to layers, with the packages it may import", name)
			continue
		}
		if p.Doc == "" {
			t.Errorf("%s has no package comment", name)
		}
		check := func(what string, imports, allowed []string) {
			for _, imp := range imports {
				dep, ok := strings.CutPrefix(imp, module)
				if ok && dep != name && !slices.Contains(allowed, dep) {
					t.Errorf("%s %s %s, which it may not (it may: %s)", name, what, dep, strings.Join(allowed, ", "))
				}
			}
		}
		check("imports", p.Imports, l.imports)
		check("has tests that import", append(p.TestImports, p.XTestImports...), append(slices.Clone(l.imports), l.tests...))
	}
	for name := range layers {
		if !seen[name] {
			t.Errorf("layers names %s, which go list did not find", name)
		}
	}
}
