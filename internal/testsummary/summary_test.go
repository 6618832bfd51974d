package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The events of real `go test -json` runs (testdata/sample.jsonl: a pass, a
// failed subtest, two skips of which one opt-in, a line that is not JSON,
// a build failure, a package that timed out with a test running, a quiet
// package, one with no test to run) come out as go test prints them without -v, and the end lists
// the skips with their reasons, the slowest tests and the counts.
func TestSummary(t *testing.T) {
	f, err := os.Open("testdata/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	s := newSummary(&out)
	s.trim = "jsamp/" // no package is under it: the paths are left whole
	in := bufio.NewScanner(f)
	for in.Scan() {
		s.line(in.Text())
	}
	forbidden := s.report(2)
	got := out.String()
	for _, want := range []string{
		"    a_test.go:4: broken here\n--- FAIL: TestFail/sub (0.00s)\n--- FAIL: TestFail (0.00s)\n",
		"FAIL\tjsamp\t0.003s\n",
		"not json: go: downloading example.com/x v1.0.0\n",
		"# jsamp2 [jsamp2.test]\n./b.go:2:12: undefined: undefined\nFAIL\tjsamp2 [build failed]\n",
		"FAIL\tjsamp3\t1.012s\npanic: test timed out after 1s\n",
		"ok  \tjsamp4\t0.5s\n",
		"ok  \tjsamp5\t0.002s [no tests to run]\n",
		"\nskipped tests (2):\n  jsamp TestSkip: a_test.go:5: Chromium is missing: install it\n  jsamp TestSkipSub/azurite: a_test.go:6: opt-in: set X\n",
		"\nslowest tests:\n      12.5s  jsamp3 TestSlow\n       0.0s  jsamp TestPass\n",
		"\ntests: 3 passed, 2 failed, 2 skipped\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, never := range []string{"a_test.go:3: fine", "=== RUN", "PASS\n", "--- PASS", "warning: no tests to run"} {
		if strings.Contains(got, never) {
			t.Errorf("output has %q, which go test prints only with -v:\n%s", never, got)
		}
	}
	if len(forbidden) != 1 || forbidden[0].test != "TestSkip" {
		t.Errorf("skips CI may not have: %+v, want TestSkip alone (the other is opt-in)", forbidden)
	}
	if s.pkgFail != 3 {
		t.Errorf("%d packages failed, want 3", s.pkgFail)
	}
}
