package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/report"
)

// junitScenario has two schemes and a threshold no run can pass (a p99
// under a microsecond), one every run passes, and one about an operation
// the mix never runs (nothing observed).
const junitScenario = `name: junitsmall
population:
  entities: 300
  fields:
    device: {kind: id, count: 10, prefix: dev-, width: 3}
schemes:
  - builtin: device
  - builtin: device-date
workload:
  duration: 1s
  warmup: 0s
  workers: 16
  rate: 50/s
  mix:
    - {op: point_read, weight: 3}
    - {op: insert, weight: 1}
thresholds:
  - p99(point_read) < 1us
  - requests > 0
  - p99(delete) < 1s
`

// junitDoc is what the tests read of a JUnit file.
type junitDoc struct {
	Suites []struct {
		Name     string `xml:"name,attr"`
		Package  string `xml:"package,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
		} `xml:"testcase"`
		Out string `xml:"system-out"`
	} `xml:"testsuite"`
}

// readJUnit reads a JUnit file the command wrote and checks it against
// the JUnit schemas.
func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("--junit wrote nothing: %v", err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s does not parse: %v\n%s", path, err, data)
	}
	if err := testenv.ValidateJUnit(t, path); err != nil {
		t.Error(err)
	}
	return doc
}

func junitScenarioFile(t *testing.T) (dir, path string) {
	dir = t.TempDir()
	path = filepath.Join(dir, "junit.yaml")
	if err := os.WriteFile(path, []byte(junitScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

var observedUnder = regexp.MustCompile(`^observed [0-9.]+ms, bound < 1us$`)

// run --junit: each threshold a test case, the failed one with what was
// observed and the bound, the exit code still 99; report --junit writes
// the same document from the saved report.
func TestJUnitOfRun(t *testing.T) {
	dir, scen := junitScenarioFile(t)
	xmlPath, out := filepath.Join(dir, "run.xml"), filepath.Join(dir, "run.json")
	code, _, errs := runCLI(t, "run", scen, "--quiet", "--out", out, "--junit", xmlPath)
	if code != exitThreshold {
		t.Fatalf("exit %d, want 99: %s", code, errs)
	}
	doc := readJUnit(t, xmlPath)
	if len(doc.Suites) != 1 {
		t.Fatalf("%d suites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	// The run, three thresholds, and its two operations, answered.
	if s.Name != "device" || s.Package != "junitsmall" || s.Tests != 6 || s.Failures != 2 || s.Errors != 0 {
		t.Errorf("suite %q of %q: %d tests, %d failures, %d errors; want device of junitsmall, 6, 2, 0", s.Name, s.Package, s.Tests, s.Failures, s.Errors)
	}
	byName := map[string]int{}
	for i, c := range s.Cases {
		byName[c.Name] = i
	}
	for _, name := range []string{report.JUnitRunCase, "p99(point_read) < 1us", "requests > 0", "p99(delete) < 1s", "operation point_read answered", "operation insert answered"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("no test case %q in %+v", name, s.Cases)
		}
	}
	if c := s.Cases[byName["p99(point_read) < 1us"]]; c.Failure == nil || !observedUnder.MatchString(c.Failure.Message) {
		t.Errorf("the failed threshold: %+v", c.Failure)
	}
	if c := s.Cases[byName["p99(delete) < 1s"]]; c.Failure == nil || !strings.HasPrefix(c.Failure.Message, "nothing observed: no delete operation") {
		t.Errorf("the threshold with nothing observed: %+v", c.Failure)
	}
	if c := s.Cases[byName["requests > 0"]]; c.Failure != nil || s.Cases[byName[report.JUnitRunCase]].Error != nil {
		t.Errorf("a passing threshold or the completed run failed: %+v", s.Cases)
	}
	again := filepath.Join(dir, "again.xml")
	if code, _, errs := runCLI(t, "report", out, "--junit", again); code != exitOK {
		t.Fatalf("report --junit: exit %d: %s", code, errs)
	}
	host := regexp.MustCompile(`hostname="[^"]*"`)
	first, _ := os.ReadFile(xmlPath)
	second := readJUnitBytes(t, again)
	if host.ReplaceAllString(string(first), "") != host.ReplaceAllString(second, "") {
		t.Errorf("report --junit differs from run --junit:\n%s\n---\n%s", first, second)
	}
}

func readJUnitBytes(t *testing.T, path string) string {
	t.Helper()
	readJUnit(t, path)
	b, _ := os.ReadFile(path)
	return string(b)
}

// compare --junit: each scheme a suite, each with its thresholds; exit 99.
func TestJUnitOfCompare(t *testing.T) {
	dir, scen := junitScenarioFile(t)
	xmlPath := filepath.Join(dir, "compare.xml")
	code, _, errs := runCLI(t, "compare", scen, "--quiet", "--junit", xmlPath)
	if code != exitThreshold {
		t.Fatalf("exit %d, want 99: %s", code, errs)
	}
	doc := readJUnit(t, xmlPath)
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "device" || doc.Suites[1].Name != "device-date" {
		t.Fatalf("suites: %+v", doc.Suites)
	}
	for _, s := range doc.Suites {
		if s.Tests != 6 || s.Failures != 2 || !strings.Contains(s.Out, "scheme "+s.Name) {
			t.Errorf("suite %s: %d tests, %d failures, want 6 and 2; output:\n%s", s.Name, s.Tests, s.Failures, s.Out)
		}
	}
}

// find --junit: each scheme a suite whose one case is the search's
// result, passing, with its steps in the properties; exit 0.
func TestJUnitOfFind(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "find.yaml")
	os.WriteFile(scen, []byte(findScenario), 0o644)
	xmlPath := filepath.Join(dir, "find.xml")
	code, _, errs := runCLI(t, "find", scen, "--rate", "100", "--max-rate", "100", "--quiet", "--junit", xmlPath)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc := readJUnit(t, xmlPath)
	if len(doc.Suites) != 1 || doc.Suites[0].Tests != 1 || doc.Suites[0].Cases[0].Name != report.JUnitFindCase ||
		doc.Suites[0].Failures+doc.Suites[0].Errors != 0 {
		t.Fatalf("suites: %+v", doc.Suites)
	}
	props := map[string]string{}
	for _, p := range doc.Suites[0].Props {
		props[p.Name] = p.Value
	}
	if !strings.HasPrefix(props["find.step.1"], "100 ops/s offered") || !strings.Contains(props["find.result"], "sustains at least") {
		t.Errorf("the search's properties: %v", props)
	}
}

// A run that fails, and a command that fails before any run, write
// --junit with the error; the exit codes stay 1 and 2.
func TestJUnitOfFailures(t *testing.T) {
	dir, scen := junitScenarioFile(t)
	cases := []struct {
		args []string
		code int
		msg  string // the error's message starts so
	}{
		{[]string{"run", scen, "--quiet", "--yes", "--down-after", "1s", "--target", "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:1/devstoreaccount1;"},
			exitFailure, "creating table \"tsjunitsmall"},
		{[]string{"run", scen, "--quiet", "--rate", "fast"}, exitUsage, "--rate: "},
		{[]string{"compare", filepath.Join(dir, "missing.yaml"), "--quiet"}, exitUsage, filepath.Join(dir, "missing.yaml") + ": file not found"},
		{[]string{"find", "testdata/three-mistakes.yaml", "--quiet"}, exitUsage, "exit 2: testdata/three-mistakes.yaml:"},
	}
	for i, c := range cases {
		xmlPath := filepath.Join(dir, c.args[0]+string(rune('a'+i))+".xml")
		code, _, errs := runCLI(t, append(c.args, "--junit", xmlPath)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.code, errs)
			continue
		}
		doc := readJUnit(t, xmlPath)
		errors := 0
		var msg string
		for _, s := range doc.Suites {
			errors += s.Errors
			for _, tc := range s.Cases {
				if tc.Error != nil {
					msg = tc.Error.Message
				}
			}
		}
		if errors != 1 || !strings.HasPrefix(msg, c.msg) || msg == "" {
			t.Errorf("%v: %d errors, message %q; want 1 starting %q", c.args, errors, msg, c.msg)
		}
	}
}
