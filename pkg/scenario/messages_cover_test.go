package scenario

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// unreachable are the message formats of the packages a scenario's
// messages come from that no scenario file can produce, and why.
var unreachable = map[string]string{
	"no scheme %q in %s":  "the --scheme flag's, not the file's",
	" (did you mean %s?)": "the --scheme flag's, not the file's",
	"entities %d and %d both have PartitionKey %q and RowKey %q":                                "the example of a warning, not an error",
	"a few popular entities take most picks (Zipf, exponent %s), scattered over the population": "what keys explains of a distribution",
	"the newest entities most often (Zipf over recency, exponent %s)":                           "what keys explains of a distribution",
	"%s of picks go to the first %s of the entities (the oldest), the rest to the others":       "what keys explains of a distribution",
	"%v %q: distribution %s":                                                  "the decoder reports a field's bad distribution first, at its field",
	"template %q at offset %d: %s":                                            "a scenario reports a template's message at its column, not this form",
	"the main table needs a %s scan (%s); index %s: %s%s":                     "why a plan was chosen, not an error",
	" (on the secondary row %s)":                                              "why a plan was chosen, not an error",
	"%d partitions (hash buckets of %s) per question, merged":                 "why a plan was chosen, not an error",
	"cannot decode into %s":                                                   "every type the scenario's structs use is decoded",
	"%w %q: declared twice":                                                   "the decoder reports a field declared twice first",
	"%q is picked twice: keep one":                                            "the decoder reports a field picked twice first",
	"%w: payload size %d is outside 0..%d bytes (an entity is at most 1 MiB)": "Validate reports the payload first, at its field",
	"%w: interval %v must not be negative":                                    "a scenario's durations are never negative",
	"invalid UTF-8 at byte %d":                                                "YAML refuses a file that is not UTF-8",
	"%s:%d:%d: %s: %d of %d sampled entities repeat an earlier (PartitionKey, RowKey): %s; their inserts will fail with 409 EntityAlreadyExists":                                                                                    "a warning, not an error",
	"%s:%d:%d: %s.anchor: the window ends at the picked entity's event time, a moment in the past as the request distribution picks it: an application asking of the present (a dashboard's last minutes) asks of now, the default": "a warning, not an error (TestAnchorPickedWarns)",
}

// Every message format in the sources of the scenario, keygen and question
// packages is produced by a case (or is a wrapper of other messages, or
// listed as unreachable): a message added without a case fails here.
func TestMessageCasesCoverEveryFormat(t *testing.T) {
	var all []string
	for _, c := range messageCases {
		_, errs := Parse("m.yaml", []byte(c.src))
		for _, e := range errs {
			all = append(all, e.Error())
		}
	}
	text := strings.Join(all, "\n")
	for _, f := range messageFormats(t, ".", "../keygen", "../question", "../threshold") {
		if _, ok := unreachable[f.format]; ok || wrapper(f.format) {
			continue
		}
		if !formatRE(f.format).MatchString(text) {
			t.Errorf("%s: no case produces %q", f.pos, f.format)
		}
	}
}

// messageFormat is a format string a message is made from, and where.
type messageFormat struct {
	pos, format string
}

// messageFunctions are the calls whose first string argument with a space
// is a message's format.
var messageFunctions = map[string]bool{"errAt": true, "errorf": true, "numberError": true, "bad": true, "badMember": true, "Errorf": true, "New": true, "Sprintf": true}

// messageFormats are the message formats of the non-test Go files in dirs:
// those passed to messageFunctions inside functions, and the string
// fields of the error types' literals.
func messageFormats(t *testing.T, dirs ...string) []messageFormat {
	t.Helper()
	var out []messageFormat
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					out = append(out, formatsIn(fset, fd.Body)...)
				}
			}
		}
	}
	return out
}

// formatsIn lists the message formats in a function's body.
func formatsIn(fset *token.FileSet, body ast.Node) []messageFormat {
	var out []messageFormat
	add := func(args []ast.Expr) {
		for _, a := range args {
			if kv, ok := a.(*ast.KeyValueExpr); ok {
				a = kv.Value
			}
			lit, ok := a.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && strings.Contains(s, " ") {
				out = append(out, messageFormat{fset.Position(lit.Pos()).String(), s})
				return
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			name := ""
			switch fn := x.Fun.(type) {
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			case *ast.Ident:
				name = fn.Name
			}
			if messageFunctions[name] {
				add(x.Args)
			}
		case *ast.CompositeLit:
			if id, ok := x.Type.(*ast.Ident); ok && strings.HasSuffix(id.Name, "Error") {
				add(x.Elts)
			}
		}
		return true
	})
	return out
}

var verbRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

// wrapper reports whether a format only joins other messages: what is left
// without its verbs has no word of its own.
func wrapper(format string) bool {
	return !regexp.MustCompile(`[a-z]{2,}`).MatchString(verbRE.ReplaceAllString(format, ""))
}

// formatRE matches what format writes, whatever its arguments.
func formatRE(format string) *regexp.Regexp {
	parts := verbRE.Split(strings.ReplaceAll(format, "%%", "\x00"), -1)
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(regexp.QuoteMeta(p), "\x00", "%")
	}
	return regexp.MustCompile(strings.Join(parts, "(?s:.*?)"))
}
