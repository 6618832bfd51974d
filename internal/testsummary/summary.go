package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent, and the
// build-output events go test adds).
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Elapsed    float64
	Output     string
}

// result is a finished test: where, how long, and for a skip, why.
type result struct {
	pkg, test string
	elapsed   time.Duration
	reason    string
}

// summary follows the events of one or more `go test -json` runs: it
// prints what go test prints without -v (package lines, build errors, and
// the whole output of each test that failed) as the events come, and keeps
// what the end of the run reports: every skip and why, and the time of
// every top-level test. Not safe for concurrent use.
type summary struct {
	out     io.Writer
	trim    string                      // a prefix of package paths not to repeat in the summary (the module's path and "/")
	running map[string]*strings.Builder // output of each test still running, by package and name
	skipped []result
	timed   []result
	passed  int
	failed  int
	pkgFail int
}

func newSummary(out io.Writer) *summary {
	return &summary{out: out, running: map[string]*strings.Builder{}}
}

// line takes one line of go test's output; a line that is not a JSON event
// (go test's own messages on the same stream) is printed as it is.
func (s *summary) line(text string) {
	var e event
	if !strings.HasPrefix(text, "{") || json.Unmarshal([]byte(text), &e) != nil || e.Action == "" {
		fmt.Fprintln(s.out, text)
		return
	}
	s.event(e)
}

func (s *summary) event(e event) {
	key := e.Package + "\x00" + e.Test
	switch {
	case e.Action == "build-output":
		fmt.Fprint(s.out, e.Output)
	case e.Test == "":
		s.packageEvent(e)
	case e.Action == "output":
		b := s.running[key]
		if b == nil {
			b = &strings.Builder{}
			s.running[key] = b
		}
		b.WriteString(e.Output)
	case e.Action == "pass", e.Action == "fail", e.Action == "skip":
		out := ""
		if b := s.running[key]; b != nil {
			out = b.String()
		}
		delete(s.running, key)
		s.finish(e, out)
	}
}

// packageEvent prints a package's own lines ("ok  pkg 1.2s", "FAIL", a
// panic outside any test) as go test does without -v.
func (s *summary) packageEvent(e event) {
	switch e.Action {
	case "output":
		// "PASS" as without -v; the warning of a package none of whose
		// tests a pass's -run selects says no more than its "ok" line.
		if e.Output != "PASS\n" && e.Output != "testing: warning: no tests to run\n" {
			fmt.Fprint(s.out, e.Output)
		}
	case "fail":
		s.pkgFail++
		s.flush(e.Package) // a test cut short by the package's failure (a panic, the timeout)
	}
}

// finish records a test's end; a failed test's output is printed whole.
func (s *summary) finish(e event, out string) {
	r := result{pkg: e.Package, test: e.Test, elapsed: time.Duration(e.Elapsed * float64(time.Second))}
	switch e.Action {
	case "pass":
		s.passed++
	case "fail":
		s.failed++
		fmt.Fprint(s.out, dropMarks(out))
	case "skip":
		r.reason = skipReason(out)
		s.skipped = append(s.skipped, r)
	}
	if !strings.Contains(e.Test, "/") {
		s.timed = append(s.timed, r)
	}
}

// flush prints the output of pkg's tests that never finished.
func (s *summary) flush(pkg string) {
	var keys []string
	for k := range s.running {
		if strings.HasPrefix(k, pkg+"\x00") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprint(s.out, dropMarks(s.running[k].String()))
		delete(s.running, k)
	}
}

// dropMarks removes go test -v's "=== RUN", "=== PAUSE" and "=== CONT"
// lines from a test's output, as go test prints it without -v.
func dropMarks(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(l, "=== ") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// skipReason is what a skipped test printed, without go test's own
// "=== RUN" and "--- SKIP" lines.
func skipReason(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		keep = append(keep, t)
	}
	if len(keep) == 0 {
		return "(no reason given)"
	}
	return strings.Join(keep, " ")
}

// OptIn is how a skip that is not a missing tool begins (testenv.OptIn):
// a test that runs only when asked for (a long soak).
const OptIn = "opt-in:"

// report prints the end of the run: every skipped test and why, the
// slowest tests, and the counts; it returns the skips CI may not have
// (those that are not opt-in).
func (s *summary) report(slowest int) (forbidden []result) {
	sort.Slice(s.skipped, func(i, j int) bool { return s.skipped[i].pkg+s.skipped[i].test < s.skipped[j].pkg+s.skipped[j].test })
	fmt.Fprintf(s.out, "\nskipped tests (%d):\n", len(s.skipped))
	for _, r := range s.skipped {
		fmt.Fprintf(s.out, "  %s %s: %s\n", strings.TrimPrefix(r.pkg, s.trim), r.test, r.reason)
		if !strings.Contains(r.reason, OptIn) {
			forbidden = append(forbidden, r)
		}
	}
	sort.SliceStable(s.timed, func(i, j int) bool { return s.timed[i].elapsed > s.timed[j].elapsed })
	fmt.Fprintf(s.out, "\nslowest tests:\n")
	for _, r := range s.timed[:min(slowest, len(s.timed))] {
		fmt.Fprintf(s.out, "  %8.1fs  %s %s\n", r.elapsed.Seconds(), strings.TrimPrefix(r.pkg, s.trim), r.test)
	}
	fmt.Fprintf(s.out, "\ntests: %d passed, %d failed, %d skipped\n", s.passed, s.failed, len(s.skipped))
	return forbidden
}
