package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const readmeForRun = "## Measured\n\n| what | figure | command | cpu |\n|---|---|---|---|\n" +
	"| a read | 19 µs, 0 allocations | `bench-a` | Test CPU (family 1, model 1) |\n" +
	"| memory | 1,122 bytes per entity | `bench-b` | Test CPU (family 1, model 1) |\n"

// fakeRunner answers each command with canned output.
func fakeRunner(outputs map[string]string, failing map[string]bool) Runner {
	return func(_ context.Context, _, command string) (string, error) {
		if failing[command] {
			return "panic: boom\n", errors.New("exit status 2")
		}
		return outputs[command], nil
	}
}

func runWith(t *testing.T, readme string, r Runner, args ...string) (int, string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "measured.md")
	if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run(append([]string{"-page", path, "-cpu", "Test CPU (family 1, model 1)"}, args...), &out, &errs, r)
	return code, out.String(), errs.String()
}

func TestRunPasses(t *testing.T) {
	code, out, _ := runWith(t, readmeForRun, fakeRunner(map[string]string{
		"bench-a": "BenchmarkA-2 3000 21000 ns/op 4272 B/op 0 allocs/op\n",
		"bench-b": "BenchmarkB-2 1 5 ns/op 1131.4 bytes/entity\n",
	}, nil))
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{"21.0 µs", "1.11", "1,131 bytes per entity", "3 of 3 figures ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunFails(t *testing.T) {
	tests := []struct {
		name    string
		outputs map[string]string
		failing map[string]bool
		says    string
	}{
		{"slower", map[string]string{
			"bench-a": "BenchmarkA-2 3000 62000 ns/op 0 allocs/op\n", // 3.3× the figure
			"bench-b": "BenchmarkB-2 1 5 ns/op 1122 bytes/entity\n",
		}, nil, "FAIL: over 1.5×"},
		{"bigger", map[string]string{
			"bench-a": "BenchmarkA-2 3000 19000 ns/op 0 allocs/op\n",
			"bench-b": "BenchmarkB-2 1 5 ns/op 1500 bytes/entity\n", // +34%
		}, nil, "FAIL: off by over 25%"},
		{"allocates", map[string]string{
			"bench-a": "BenchmarkA-2 3000 19000 ns/op 3 allocs/op\n",
			"bench-b": "BenchmarkB-2 1 5 ns/op 1122 bytes/entity\n",
		}, nil, "FAIL: off by over 25%"},
		{"command fails", map[string]string{
			"bench-b": "BenchmarkB-2 1 5 ns/op 1122 bytes/entity\n",
		}, map[string]bool{"bench-a": true}, "FAIL: the command failed (exit status 2)"},
		{"metric missing", map[string]string{
			"bench-a": "BenchmarkA-2 3000 19000 ns/op 0 allocs/op\n",
			"bench-b": "BenchmarkB-2 1 5 ns/op 1122 B/op\n",
		}, nil, "printed no bytes/entity"},
	}
	for _, tt := range tests {
		code, out, _ := runWith(t, readmeForRun, fakeRunner(tt.outputs, tt.failing))
		if code != 1 || !strings.Contains(out, tt.says) || !strings.Contains(out, "FAIL: rows") {
			t.Errorf("%s: exit %d, want 1 and %q in:\n%s", tt.name, code, tt.says, out)
		}
	}
}

// On another CPU an absolute time is printed and not judged, however far
// off; a ratio measured in one run, a size and an allocation count are
// judged as everywhere.
func TestRunOtherCPU(t *testing.T) {
	readme := readmeForRun + "| floor ratio | 33 µs, 1.10× per floor | `bench-c` | Test CPU (family 1, model 1) |\n"
	outputs := map[string]string{
		"bench-a": "BenchmarkA-2 3000 62000 ns/op 0 allocs/op\n", // 3.3× the figure
		"bench-b": "BenchmarkB-2 1 5 ns/op 1122 bytes/entity\n",
		"bench-c": "BenchmarkC-2 1 90000 ns/op 1.2 ×/floor\n",
	}
	code, out, _ := runWith(t, readme, fakeRunner(outputs, nil), "-cpu", "Other CPU (family 9, model 9)")
	if code != 0 || strings.Count(out, "other CPU: not judged (measured on Test CPU (family 1, model 1))") != 2 ||
		!strings.Contains(out, "3 of 3 figures ok, 2 not judged") {
		t.Errorf("on another CPU: exit %d, want 0 with the two times not judged:\n%s", code, out)
	}
	outputs["bench-c"] = "BenchmarkC-2 1 30000 ns/op 1.9 ×/floor\n" // the ratio is off: judged anywhere
	if code, out, _ := runWith(t, readme, fakeRunner(outputs, nil), "-cpu", "Other CPU (family 9, model 9)"); code != 1 || !strings.Contains(out, "FAIL: rows 3") {
		t.Errorf("a ratio 1.7× its figure on another CPU: exit %d, want 1 failing row 3:\n%s", code, out)
	}
	if code, out, _ := runWith(t, readme, fakeRunner(outputs, nil)); code != 1 || !strings.Contains(out, "FAIL: rows 1, 3") {
		t.Errorf("on the CPU of the figures: exit %d, want 1 failing rows 1 and 3:\n%s", code, out)
	}
}

// cpuOf names the first processor of /proc/cpuinfo with its family and
// model, which tell apart processors sold under one name.
func TestCPUOf(t *testing.T) {
	info := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n"
	if got := cpuOf(info); got != "AMD EPYC (family 26, model 2)" {
		t.Errorf("cpuOf = %q", got)
	}
	if got := cpuOf("model name\t: Some ARM\n"); got != "Some ARM" {
		t.Errorf("without family and model: %q", got)
	}
}

func TestRunRowsAndRuns(t *testing.T) {
	calls := map[string]int{}
	r := func(_ context.Context, _, command string) (string, error) {
		calls[command]++
		return map[string]string{
			"bench-a": "BenchmarkA-2 3000 19000 ns/op 0 allocs/op\n",
		}[command], nil
	}
	code, out, _ := runWith(t, readmeForRun, r, "-rows", "1", "-runs", "3")
	if code != 0 || calls["bench-a"] != 3 || calls["bench-b"] != 0 {
		t.Fatalf("exit %d, calls %v; want 0 and bench-a alone, 3 times:\n%s", code, calls, out)
	}
}

func TestRunRefuses(t *testing.T) {
	none := fakeRunner(nil, nil)
	if code, _, errs := runWith(t, "## Measured\n| what | figure | command | cpu |\n|-|-|-|-|\n| a | fast | `x` | X |\n", none); code != 2 || !strings.Contains(errs, `measured.md:4: figure "fast"`) {
		t.Errorf("a bad figure: exit %d, stderr %q; want 2 naming the line", code, errs)
	}
	if code, _, errs := runWith(t, readmeForRun, none, "-rows", "3"); code != 2 || !strings.Contains(errs, `"3" is not a row number from 1 to 2`) {
		t.Errorf("-rows 3: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runWith(t, readmeForRun, none, "-runs", "0"); code != 2 {
		t.Errorf("-runs 0: exit %d, want 2", code)
	}
	if code, out, _ := runWith(t, readmeForRun, none, "-list"); code != 0 || !strings.Contains(out, "bench-b") {
		t.Errorf("-list: exit %d:\n%s", code, out)
	}
}

// The Measured table's commands run from the repository's top directory,
// not from docs/ where the page is.
func TestTopDir(t *testing.T) {
	want, _ := filepath.Abs("../..")
	if got := topDir("../../docs/architecture.md"); got != want {
		t.Errorf("topDir = %s, want %s", got, want)
	}
	dir := t.TempDir()
	if got := topDir(filepath.Join(dir, "page.md")); got != dir {
		t.Errorf("topDir of a page outside a module = %s, want its directory %s", got, dir)
	}
}
