package report

import (
	"encoding/xml"
	"io"
	"strings"
	"time"
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
// read-back of --verify when it ran, one test case per threshold in the
// report, whatever its metric, named by its expression: a failure gives
// the observed value and the bound, or what the run did not observe; and
// one per operation and question the run offered ("question NAME
// answered"), a failure when none was answered. A search's suite has one test case, its result, with every step
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
