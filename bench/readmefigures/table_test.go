package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

const sample = "# x\n\n## Measured\n\nSome prose.\n\n" +
	"| what | figure | command | cpu |\n" +
	"|---|---|---|---|\n" +
	"| a point read | 19 µs | `go test -bench '^BenchmarkA$' ./a` | AMD EPYC (family 26, model 2) |\n" +
	"| keys, one entity | 273 ns, 0 allocations | `go test -bench 'B\\|C' ./b` | Intel Xeon |\n" +
	"\n## Next\n| what | figure | command |\n|---|---|---|\n| other | 1 ns | `x` |\n"

func TestParseTable(t *testing.T) {
	rows, err := ParseTable("R.md", sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want the 2 of the Measured table only", len(rows))
	}
	if r := rows[0]; r.Line != 9 || r.What != "a point read" || r.Command != "go test -bench '^BenchmarkA$' ./a" || len(r.Figures) != 1 || r.CPU != "AMD EPYC (family 26, model 2)" {
		t.Errorf("row 1 = %+v", r)
	}
	if r := rows[1]; r.Command != "go test -bench 'B|C' ./b" || len(r.Figures) != 2 {
		t.Errorf("row 2 = %+v (an escaped pipe belongs to its cell)", r)
	}
}

func TestParseTableColumnsByName(t *testing.T) {
	rows, err := ParseTable("R.md", "## Measured\n| cpu | command | what | figure |\n|-|-|-|-|\n| X1 | `go x` | it | 5 ms |\n")
	if err != nil || len(rows) != 1 || rows[0].Command != "go x" || rows[0].Figures[0].Value != 5e6 || rows[0].CPU != "X1" {
		t.Fatalf("rows %+v, %v", rows, err)
	}
}

func TestParseTableRefuses(t *testing.T) {
	tests := []struct{ readme, says string }{
		{"# x\n| what | figure | command | cpu |\n", `no "## Measured" section`},
		{"## Measured\ntext\n## Other\n| a |\n", "R.md:3: the \"## Measured\" section has no table"},
		{"## Measured\n| what | number | command | cpu |\n|-|-|-|-|\n| a | 1 ns | `x` | X |\n", `no "figure" column`},
		{"## Measured\n| what | figure | command |\n|-|-|-|\n| a | 1 ns | `x` |\n", `no "cpu" column`},
		{"## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n| a | 1 ns | `x` |  |\n", "R.md:4: the cpu cell is empty"},
		{"## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n| a | 1 ns | go test | X |\n", "R.md:4: the command cell"},
		{"## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n| a | fast | `x` | X |\n| b | 2 parsecs | `y` | X |\n", "R.md:4: figure \"fast\""},
		{"## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n| a | fast | `x` | X |\n| b | 2 parsecs | `y` | X |\n", "R.md:5: figure \"2 parsecs\""}, // every bad row is reported
		{"## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n| a | 1 ns |\n", "R.md:4: 2 cells, want at least 4"},
		{"## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n\nafter\n", "has no rows"},
	}
	for _, tt := range tests {
		_, err := ParseTable("R.md", tt.readme)
		if err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("ParseTable(%q) = %v, want an error saying %q", tt.readme, err, tt.says)
		}
	}
}

// The manual's Measured table (docs/architecture.md): every row parses,
// with units the benchmarks print, and each command names one benchmark
// exactly.
// benchScriptRE is a command running one of bench/'s scripts, which print
// their figures in `go test -bench` form, settings first.
var benchScriptRE = regexp.MustCompile(`^(?:[A-Z_]+=\S+ )*bench/[a-z0-9-]+\.sh(?: |$)`)

func TestRepositoryMeasuredTable(t *testing.T) {
	text, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseTable("docs/architecture.md", string(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if !strings.Contains(r.Command, "-bench '^Benchmark") && !benchScriptRE.MatchString(r.Command) {
			t.Errorf("docs/architecture.md:%d: the command %q neither anchors a -bench pattern to one benchmark ('^BenchmarkName$') nor runs a script of bench/ (VAR=value ... bench/name.sh)", r.Line, r.Command)
		}
	}
}
