package report

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/metrics"
)

var junitOpts = JUnitOptions{Hostname: "ci-runner", Now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}

// junitOf writes reps as JUnit and reads the document back.
func junitOf(t *testing.T, reps ...*Report) (junitSuites, string) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJUnit(&b, reps, junitOpts); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("the document does not parse: %v\n%s", err, b.String())
	}
	return doc, b.String()
}

func findCase(t *testing.T, s junitSuite, name string) junitCase {
	t.Helper()
	for _, c := range s.Cases {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("suite %q has no test case %q: %+v", s.Name, name, s.Cases)
	return junitCase{}
}

// Each threshold is a test case named by its expression, whatever its
// metric (one the threshold package does not know included); a failure
// gives the observed value to the thousandth and the bound as written, or
// what was not observed. The counts are those of the cases.
func TestJUnitThresholdCases(t *testing.T) {
	r := sampleReport()
	r.EvaluateThresholds([]string{"p99(insert) < 10ms", "throttle_rate < 1%", "p99(point_read) < 5ms"})
	r.Thresholds = append(r.Thresholds,
		Threshold{Expr: "p99(question:newest-for-device) <  50ms", OK: false, Observed: 50.25, Unit: "ms"},
		Threshold{Expr: "p99(question:tenant-day) < 80ms", OK: true, Observed: 12, Unit: "ms"})
	doc, _ := junitOf(t, r)
	if len(doc.Suites) != 1 {
		t.Fatalf("%d suites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Name != "constant" || s.Package != "hot" || s.Hostname != "ci-runner" || s.Timestamp != "2026-01-02T03:04:05" || s.Time != "10.000" {
		t.Errorf("suite attributes: %+v", s)
	}
	// The run, five thresholds and its one operation, insert, answered.
	if s.Tests != 7 || s.Failures != 3 || s.Errors != 0 {
		t.Errorf("tests %d failures %d errors %d, want 7, 3, 0", s.Tests, s.Failures, s.Errors)
	}
	if c := findCase(t, s, "operation insert answered"); c.Failure != nil {
		t.Errorf("insert was answered: %+v", c)
	}
	if c := findCase(t, s, JUnitRunCase); c.Failure != nil || c.Error != nil || c.Time != "10.000" {
		t.Errorf("the completed run: %+v", c)
	}
	if c := findCase(t, s, "p99(insert) < 10ms"); c.Failure != nil || c.Classname != "hot.constant" {
		t.Errorf("a passing threshold: %+v", c)
	}
	want := map[string]string{
		"throttle_rate < 1%":                     "observed 66.667%, bound < 1%",
		"p99(point_read) < 5ms":                  "nothing observed: no point_read operation ran in the measured 10.0 s",
		"p99(question:newest-for-device) < 50ms": "observed 50.25ms, bound < 50ms",
	}
	for name, msg := range want {
		c := findCase(t, s, name)
		if c.Failure == nil || c.Failure.Type != "threshold" || c.Failure.Message != msg {
			t.Errorf("%s: %+v, want the failure %q", name, c.Failure, msg)
			continue
		}
		if !strings.Contains(c.Failure.Text, msg) || !strings.Contains(c.Failure.Text, "scheme constant on embedded") {
			t.Errorf("%s: the failure's text %q lacks the message or the run", name, c.Failure.Text)
		}
	}
	if c := findCase(t, s, "p99(question:tenant-day) < 80ms"); c.Failure != nil {
		t.Errorf("a passing threshold of another metric: %+v", c)
	}
	if !strings.Contains(s.SystemOut.Text, "thresholds:") || !strings.Contains(s.SystemOut.Text, "FAIL throttle_rate < 1%") {
		t.Errorf("the suite's output is not the text report:\n%s", s.SystemOut.Text)
	}
}

// An operation or a question of which nothing was answered (every one
// that ran failed after its retries, or none could start) is a failed
// test case; one that failed only at times is counted in the properties.
func TestJUnitNeverAnswered(t *testing.T) {
	r := sampleReport()
	ins := r.Operations["insert"]
	ins.Failed = 1
	r.Operations["insert"] = ins
	r.Operations["point_read"] = Stats{Counts: metrics.Counts{Dropped: 7}}
	r.Totals.Failed = 3
	never := Question{QuestionPlan: QuestionPlan{Plan: "index", Index: "ByKindHour"}}
	never.Ops, never.Failed, never.Requests, never.Throttled = 2, 2, 8, 8
	never.Status = map[string]int64{"503 ServerBusy": 8}
	r.Questions = map[string]Question{"kind-hour": never}
	doc, _ := junitOf(t, r)
	s := doc.Suites[0]
	if c := findCase(t, s, "question kind-hour answered"); c.Failure == nil || c.Failure.Type != "failed" ||
		c.Failure.Message != "none answered: all 2 that ran failed after their retries (503 ServerBusy ×8)" {
		t.Errorf("the question never answered: %+v", c.Failure)
	}
	if c := findCase(t, s, "operation point_read answered"); c.Failure == nil || !strings.Contains(c.Failure.Message, "7 dropped") {
		t.Errorf("the operation never started: %+v", c.Failure)
	}
	if c := findCase(t, s, "operation insert answered"); c.Failure != nil {
		t.Errorf("insert failed once of 60,000, and was answered: %+v", c.Failure)
	}
	if s.Failures != 2 {
		t.Errorf("%d failures, want the 2 never answered", s.Failures)
	}
	props := map[string]string{}
	for _, p := range s.Properties.List {
		props[p.Name] = p.Value
	}
	if props["failed"] != "3" || props["question.kind-hour.failed"] != "2 of 2" {
		t.Errorf("the properties do not count the failures: %v", props)
	}
	if !strings.Contains(s.SystemOut.Text, "question kind-hour was never answered") {
		t.Errorf("the text report does not say the question was never answered:\n%s", s.SystemOut.Text)
	}
}

// A run that failed, was interrupted, was stopped by abort_on_fail or whose
// writes did not read back says so in its cases; a command that failed
// before any report is one suite with one error.
func TestJUnitRuntimeProblems(t *testing.T) {
	failed := sampleReport()
	failed.Failure = "the target stopped answering for 5s: dial tcp 127.0.0.1:1: connect: connection refused"
	interrupted := sampleReport()
	interrupted.Scheme, interrupted.Interrupted = "interrupted", true
	aborted := sampleReport()
	aborted.Scheme, aborted.Aborted = "aborted", `threshold "throttle_rate < 1%" failed during the run (observed 66.667%)`
	verified := sampleReport()
	verified.Scheme = "verified"
	verified.Verify = &Verify{Checked: 100, Missing: 2, Examples: []string{"Orders/0001: missing"}}
	early := &Report{Scenario: "hot", Failure: "--target: unknown target \"azurit\"\n\nstandard error:\nwarning: a line"}
	doc, _ := junitOf(t, failed, interrupted, aborted, verified, early)
	if len(doc.Suites) != 5 {
		t.Fatalf("%d suites, want 5", len(doc.Suites))
	}
	for i, s := range doc.Suites {
		if s.ID != i {
			t.Errorf("suite %d has id %d", i, s.ID)
		}
	}
	run := func(i int) junitCase { return findCase(t, doc.Suites[i], JUnitRunCase) }
	if c := run(0); c.Error == nil || c.Error.Message != failed.Failure || doc.Suites[0].Errors != 1 {
		t.Errorf("the failed run: %+v", c)
	}
	if c := run(1); c.Error == nil || !strings.Contains(c.Error.Message, "interrupted") {
		t.Errorf("the interrupted run: %+v", c)
	}
	if c := run(2); c.Failure == nil || c.Failure.Type != "aborted" || c.Failure.Message != aborted.Aborted || doc.Suites[2].Failures != 1 {
		t.Errorf("the aborted run: %+v", c)
	}
	if c := findCase(t, doc.Suites[3], JUnitVerifyCase); c.Failure == nil || !strings.Contains(c.Failure.Message, "2 missing") ||
		!strings.Contains(c.Failure.Text, "Orders/0001: missing") {
		t.Errorf("the failed read-back: %+v", c)
	}
	e := doc.Suites[4]
	if e.Name != "hot" || e.Tests != 1 || e.Errors != 1 || e.Timestamp != "2026-03-04T05:06:07" || e.SystemOut.Text != "" ||
		run(4).Error == nil || run(4).Error.Message != `--target: unknown target "azurit"` || !strings.HasSuffix(run(4).Error.Text, "standard error:\nwarning: a line") {
		t.Errorf("the command that failed before measuring: %+v", e)
	}
}

// A comparison under several models names each suite by scheme and
// model; a search is one case per scheme, passing, with its steps in the
// properties, however many of them failed.
func TestJUnitCompareAndFind(t *testing.T) {
	a, b := richReport("constant", true), richReport("constant", false)
	a.Model, b.Model = "azure", "cosmos,ru=10000"
	doc, _ := junitOf(t, a, b)
	if doc.Suites[0].Name != "constant under azure" || doc.Suites[1].Name != "constant under cosmos,ru=10000" {
		t.Errorf("suite names %q, %q", doc.Suites[0].Name, doc.Suites[1].Name)
	}
	b.Model = "azure"
	if doc, _ = junitOf(t, a, b); doc.Suites[1].Name != "constant" {
		t.Errorf("one model: suite name %q", doc.Suites[1].Name)
	}
	found := richReport("constant", true) // its Find has two failed steps
	doc, _ = junitOf(t, found)
	s := doc.Suites[0]
	if s.Tests != 1 || s.Failures != 0 || s.Errors != 0 || s.Cases[0].Name != JUnitFindCase {
		t.Errorf("the search's suite: %+v", s)
	}
	props := map[string]string{}
	for _, p := range s.Properties.List {
		props[p.Name] = p.Value
	}
	if props["find.limit_ops_per_sec"] != "39.375" || !strings.Contains(props["find.step.3"], "FAIL: 1.6% of requests throttled") ||
		!strings.HasPrefix(props["find.result"], "constant sustains 1,967 entities/s") {
		t.Errorf("the search's properties: %v", props)
	}
}

// Names are XML Schema tokens and the text holds no character XML 1.0
// forbids, whatever the scenario and the errors say.
func TestJUnitNamesAreTokens(t *testing.T) {
	r := sampleReport()
	r.Scenario = "  two\twords \n"
	r.Failure = "bad byte \x01 and \x1b[31mcolour"
	r.Thresholds = []Threshold{{Expr: "p99 <\n 5ms", OK: false, Observed: 7, Unit: "ms"}}
	doc, text := junitOf(t, r)
	s := doc.Suites[0]
	if s.Package != "two words" || s.Cases[1].Name != "p99 < 5ms" || s.Cases[1].Classname != "two words.constant" {
		t.Errorf("names: package %q, case %q, class %q", s.Package, s.Cases[1].Name, s.Cases[1].Classname)
	}
	if strings.ContainsAny(text, "\x01\x1b") {
		t.Error("the document holds control characters")
	}
}

// The documents validate against the JUnit schemas CI reporters read (Ant's
// and Jenkins'), and a document that breaks them does not.
func TestJUnitValidatesAgainstTheSchemas(t *testing.T) {
	dir := t.TempDir()
	failed := sampleReport()
	failed.Failure = "it broke"
	verified := sampleReport()
	verified.Verify = &Verify{Checked: 1}
	never := sampleReport() // an operation never answered: a failed case
	never.Operations["point_read"] = Stats{Counts: metrics.Counts{Ops: 2, Failed: 2, Requests: 2}, Status: map[string]int64{"503 ServerBusy": 2}}
	docs := map[string][]*Report{
		"run.xml":     {richReport("hash-buckets", false), never},
		"compare.xml": {richReport("constant", true), richReport("hash-buckets", false), failed, verified},
		"error.xml":   {{Scenario: "hot", Failure: "--rate: want a number"}},
	}
	first := ""
	for name, reps := range docs {
		var b bytes.Buffer
		if err := WriteJUnit(&b, reps, junitOpts); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := testenv.ValidateJUnit(t, path); err != nil {
			t.Error(err)
		}
		if name == "compare.xml" {
			first = b.String()
		}
	}
	broken := map[string]string{
		"no-hostname.xml":   strings.Replace(first, `hostname="ci-runner" `, "", 1),
		"both.xml":          strings.Replace(first, `<error message="it broke"`, `<failure message="x" type="y"></failure><error message="it broke"`, 1),
		"suites-attr.xml":   strings.Replace(first, "<testsuites>", `<testsuites tests="3">`, 1),
		"bad-time.xml":      strings.Replace(first, `time="19.400"`, `time="19.4s"`, 1),
		"zoned-stamp.xml":   strings.Replace(first, `timestamp="2026-01-02T03:04:05"`, `timestamp="2026-01-02T03:04:05Z"`, 1),
		"no-properties.xml": strings.Replace(strings.Replace(first, "<properties>", "", 1), "</properties>", "", 1),
	}
	for name, text := range broken {
		if text == first {
			t.Fatalf("%s: the mutation did not apply", name)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if testenv.ValidateJUnit(t, path) == nil {
			t.Errorf("%s validates, but breaks the schema", name)
		}
	}
}
