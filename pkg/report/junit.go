package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/threshold"
)

// JUnit XML is the test-result format CI systems read (GitHub's test
// reporter actions, Azure Pipelines' PublishTestResults, GitLab, Jenkins).
// WriteJUnit writes the form Apache Ant's JUnit task defines, which its
// schema fixes (JUnit.xsd, Windy Road's schema of the Ant format) and
// Jenkins' junit-4.xsd accepts too: a <testsuites> root without attributes
// holding one <testsuite> per report, each with package, id, timestamp
// (UTC, no zone), hostname, the counts and time, its <properties> (never
// empty), its test cases, then <system-out> and <system-err>. Names are
// XML tokens: runs of white space become one space.

// JUnitOptions is what a JUnit document says beyond its reports.
type JUnitOptions struct {
	// Hostname is the host the runs ran on; "localhost" when empty, as the
	// Ant format asks when it is not known.
	Hostname string
	// Now stamps a suite whose report has no start time (a run that
	// failed before it measured anything).
	Now time.Time
}

// JUnit test case names that are not thresholds.
const (
	JUnitRunCase    = "run completes"
	JUnitVerifyCase = "acknowledged writes read back"
	JUnitFindCase   = "highest sustainable rate found"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Package    string          `xml:"package,attr"`
	ID         int             `xml:"id,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Hostname   string          `xml:"hostname,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Properties junitProperties `xml:"properties"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  cdata           `xml:"system-out"`
	SystemErr  cdata           `xml:"system-err"`
}

// cdata is an element's text written as CDATA, its lines as they are.
type cdata struct {
	Text string `xml:",cdata"`
}

type junitProperties struct {
	List []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitCase holds at most one of Failure (a condition the run was judged
// by did not hold) and Error (the run itself failed).
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// WriteJUnit writes reps as a JUnit XML document, one suite per report:
// the run of a scheme (of a scheme under a model, when the reports' models
// differ), or a scheme's search (tablestress find). A run's suite has the
// test case "run completes" (an error when the run failed or was
// interrupted, a failure when an abort_on_fail threshold stopped it), the
// read-back of --verify when it ran, and one test case per threshold in
// the report, whatever its metric, named by its expression: a failure
// gives the observed value and the bound, or what the run did not
// observe. A search's suite has one test case, its result, with every step
// in the properties: a step that failed is what a search looks for, not a
// failure. Each suite's standard output is the text report. A report with
// no start time stands for a command that failed before it measured
// anything: its Failure is the error. An error's message is the first line
// of its Failure, its text all of it.
func WriteJUnit(w io.Writer, reps []*Report, o JUnitOptions) error {
	doc := junitSuites{}
	models := map[string]bool{}
	for _, r := range reps {
		models[r.Model] = true
	}
	for i, r := range reps {
		s, err := newJUnitSuite(r, i, len(models) > 1, o)
		if err != nil {
			return err
		}
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// newJUnitSuite is report r as suite id.
func newJUnitSuite(r *Report, id int, byModel bool, o JUnitOptions) (junitSuite, error) {
	name := r.Scheme
	if name == "" {
		name = r.Scenario
	}
	if byModel && r.Model != "" {
		name += " under " + r.Model
	}
	at := r.StartedAt
	if at.IsZero() {
		at = o.Now
	}
	s := junitSuite{Name: xmlToken(name, "tablestress"), Package: xmlToken(r.Scenario, "tablestress"), ID: id,
		Timestamp: at.UTC().Format("2006-01-02T15:04:05"), Hostname: xmlToken(o.Hostname, "localhost"),
		Time: seconds(r.DurationS), Properties: junitProperties{List: junitProps(r)}}
	class := s.Package + "." + s.Name
	if r.Find != nil {
		s.Cases = []junitCase{{Name: JUnitFindCase, Classname: class, Time: seconds(r.DurationS)}}
	} else {
		s.Cases = runCases(r, class)
	}
	for _, c := range s.Cases {
		if c.Failure != nil {
			s.Failures++
			c.Failure.Text = xmlText(c.Failure.Text)
		}
		if c.Error != nil {
			s.Errors++
			c.Error.Text = xmlText(c.Error.Text)
		}
	}
	s.Tests = len(s.Cases)
	if !r.StartedAt.IsZero() {
		var b strings.Builder
		if err := WriteText(&b, r); err != nil {
			return s, err
		}
		s.SystemOut.Text = xmlText(b.String())
	}
	return s, nil
}

// runCases are the test cases of a run: that it completed, its read-back,
// its thresholds.
func runCases(r *Report, class string) []junitCase {
	where := fmt.Sprintf("scheme %s on %s (%s), measured %s", r.Scheme, r.Target.Kind, r.Target.Endpoint, secondsText(r.DurationS))
	run := junitCase{Name: JUnitRunCase, Classname: class, Time: seconds(r.DurationS)}
	switch {
	case r.Failure != "" || r.Interrupted:
		msg := r.Failure
		if msg == "" {
			msg = "interrupted before the end of the run"
		}
		text := "the run did not complete: " + msg + "\n" + where
		if r.StartedAt.IsZero() {
			text = "the command failed before it measured anything: " + msg
		}
		first, _, _ := strings.Cut(msg, "\n")
		run.Error = &junitProblem{Type: "run", Message: first, Text: text}
	case r.Aborted != "":
		run.Failure = &junitProblem{Type: "aborted", Message: r.Aborted, Text: "the run was stopped early: " + r.Aborted + "\n" + where}
	}
	cases := []junitCase{run}
	if v := r.Verify; v != nil {
		c := junitCase{Name: JUnitVerifyCase, Classname: class, Time: "0"}
		if !v.OK() {
			msg := fmt.Sprintf("of %s acknowledged writes, %s missing, %s with another version, %s deleted but present, %s unreadable",
				num(v.Checked), num(v.Missing), num(v.Mismatched), num(v.Resurrected), num(v.Unreadable))
			c.Failure = &junitProblem{Type: "verify", Message: msg, Text: msg + "\n" + strings.Join(v.Examples, "\n")}
		}
		cases = append(cases, c)
	}
	for _, t := range r.Thresholds {
		c := junitCase{Name: xmlToken(t.Expr, "threshold"), Classname: class, Time: "0"}
		if !t.OK {
			msg := thresholdFailure(t)
			c.Failure = &junitProblem{Type: "threshold", Message: msg, Text: t.Expr + ": " + msg + "\n" + where}
		}
		cases = append(cases, c)
	}
	return cases
}

// thresholdFailure says why threshold t failed: "observed 312.4ms, bound
// < 250ms", or what the run did not observe.
func thresholdFailure(t Threshold) string {
	if t.Missing != "" {
		return "nothing observed: " + t.Missing
	}
	observed := "observed " + exact(t.Observed) + t.Unit
	if _, cmp, bound, ok := threshold.Split(t.Expr); ok {
		return observed + ", bound " + cmp + " " + bound
	}
	return observed + ", threshold " + t.Expr
}

// junitProps are a suite's properties: what ran where and how, its figures,
// and a search's result and steps.
func junitProps(r *Report) []junitProperty {
	var ps []junitProperty
	add := func(name, value string) {
		if value != "" {
			ps = append(ps, junitProperty{Name: name, Value: value})
		}
	}
	add("scenario", xmlToken(r.Scenario, "(unnamed)")) // the schemas want at least one property
	add("scheme", r.Scheme)
	add("model", r.Model)
	add("target.kind", r.Target.Kind)
	add("target.endpoint", r.Target.Endpoint)
	add("table", r.Table)
	add("run.id", r.Run.ID)
	add("run.shard", r.Run.Shard)
	add("failure", r.Failure)
	if r.StartedAt.IsZero() {
		return ps
	}
	add("started_at", r.StartedAt.UTC().Format(time.RFC3339))
	add("duration_s", exact(r.DurationS))
	add("load", LoadShape(r.Run))
	add("retry", r.Run.Retry)
	add("seed", strconv.FormatUint(r.Run.Seed, 10))
	add("ops_per_sec", exact(r.Totals.OpsPerSec))
	add("entities_per_sec", exact(r.Totals.EntitiesPerSec))
	add("throttled", strconv.FormatInt(r.Totals.Throttled, 10))
	add("errors", strconv.FormatInt(r.Totals.Errors, 10))
	add("dropped", strconv.FormatInt(r.Totals.Dropped, 10))
	add("p99_ms", exact(r.Totals.Latency.P99))
	add("verdict", Verdict(r))
	if f := r.Find; f != nil {
		add("find.result", r.Scheme+" "+f.Sentence())
		add("find.rule", f.Rule)
		add("find.limit_ops_per_sec", exact(f.LimitOpsPerSec))
		add("find.limit_entities_per_sec", exact(f.LimitEntitiesPerSec))
		add("find.limited_by", f.LimitedBy)
		for i, st := range f.Steps {
			res := "ok"
			if !st.OK {
				res = "FAIL: " + st.Why
			}
			add(fmt.Sprintf("find.step.%d", i+1), fmt.Sprintf("%s ops/s offered: %s ops/s, %s entities/s, %s%% throttled, %s%% dropped, p99 %s ms: %s",
				exact(st.Rate), exact(st.OpsPerSec), exact(st.EntitiesPerSec), exact(st.ThrottledPct), exact(st.DroppedPct), exact(st.P99), res))
		}
	}
	return ps
}

// xmlToken is s as an XML Schema token (no leading, trailing or repeated
// white space, no tabs or line breaks), or fallback when nothing is left.
func xmlToken(s, fallback string) string {
	if t := strings.Join(strings.Fields(s), " "); t != "" {
		return t
	}
	return fallback
}

// xmlText is s without the characters XML 1.0 does not allow (control
// characters but tab, line feed and carriage return; surrogates; U+FFFE
// and U+FFFF), each replaced by U+FFFD as encoding/xml does in text it
// escapes: CDATA sections are written as they are.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// seconds is a duration in seconds as an XML Schema decimal.
func seconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return "0"
	}
	return strconv.FormatFloat(s, 'f', 3, 64)
}

// exact writes a figure to the thousandth, without the rounding to three
// significant digits the text uses: a failure says 250.4, not 250.
func exact(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
