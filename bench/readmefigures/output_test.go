package main

import (
	"regexp"
	"strings"
	"testing"
)

// machineRE matches what run prints of the machine it runs on: the Go
// version and load average of the first line, the load warning and the
// load average after the count.
var machineRE = regexp.MustCompile(`(?m)(; go[^\n]*|^warning: the 1-minute load average[^\n]*\n|, load average [0-9.]+)`)

// pathRE matches the temporary page's path.
var pathRE = regexp.MustCompile(`/[^ ,]*/measured\.md`)

// run's whole output, on stdout and stderr, for a page of three rows on
// another CPU with two commands failing (a failed command's time is
// judged, and fails, on any CPU): the header, the table of figures
// with what each command printed, its ratio and verdict, the count and
// the failed rows; stderr names each row as it runs and why one failed.
func TestRunOutputWhole(t *testing.T) {
	readme := readmeForRun + "| floor ratio | 33 µs, 1.10× per floor | `bench-c` | Test CPU (family 1, model 1) |\n" +
		"| a write | 5 µs | `bench-d` | Test CPU (family 1, model 1) |\n"
	outputs := map[string]string{
		"bench-a": "BenchmarkA-2 3000 62000 ns/op 0 allocs/op\n",
		"bench-c": "BenchmarkC-2 1 90000 ns/op 1.9 ×/floor\n",
	}
	code, out, errs := runWith(t, readme, fakeRunner(outputs, map[string]bool{"bench-b": true, "bench-d": true}), "-cpu", "Other CPU (family 9, model 9)")
	out = pathRE.ReplaceAllString(machineRE.ReplaceAllString(out, ""), "measured.md")
	wantOut := `readme-figures: measured.md, 4 of 4 rows, each command run 1 time(s)
cpu: Other CPU (family 9, model 9)
a time or a ratio fails over 1.5× its figure; a size or an allocation count fails off it by more than 25%;
an absolute time is judged only on the cpu it was measured on (a ratio measured in one run, a size or a count on any)

ROW   WHAT                                          PAGE                      NOW                       RATIO   RESULT
1     a read                                        19 µs                     62.0 µs                   -       other CPU: not judged (measured on Test CPU (family 1, model 1))
1     a read                                        0 allocations             0 allocations             -       ok
2     memory                                        1,122 bytes per entity    -                         -       FAIL: the command failed (exit status 2)
3     floor ratio                                   33 µs                     90.0 µs                   -       other CPU: not judged (measured on Test CPU (family 1, model 1))
3     floor ratio                                   1.10× per floor           1.90 × per floor          1.73    FAIL: over 1.5×
4     a write                                       5 µs                      -                         -       FAIL: the command failed (exit status 2)

1 of 4 figures ok, 2 not judged (absolute times measured on another CPU)
FAIL: rows 2, 3, 4
`
	if code != 1 || out != wantOut {
		t.Errorf("exit %d, want 1; stdout:\n%s\nwant:\n%s", code, out, wantOut)
	}
	for _, want := range []string{"row 1 (", "measured.md:5): bench-a\n", "row 2: the command failed (exit status 2); its output ends:\npanic: boom", "row 3 (", "row 4: the command failed"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}
