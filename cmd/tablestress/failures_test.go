package main

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/tablestress/tablestress/pkg/report"
)

// lineWith is the first line of text holding every one of parts.
func lineWith(text string, parts ...string) string {
	for _, l := range strings.Split(text, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return l
		}
	}
	return ""
}

// A question whose every request is throttled (the embedded service
// refuses the index partitions it reads, after the retries) is shown as
// failed by compare: in the text at 100 columns, the JSON, the questions
// CSV and JUnit, with no latency of its own, never as a slow, partly
// throttled success; the point reads beside it are answered. On the
// bubble's fake clock, so the run does not depend on this machine.
func TestCompareShowsAQuestionThatAlwaysFails(t *testing.T) {
	dir := t.TempDir()
	out, qcsv, junit := filepath.Join(dir, "c.json"), filepath.Join(dir, "q.csv"), filepath.Join(dir, "c.xml")
	var code int
	var text, errs string
	synctest.Test(t, func(t *testing.T) {
		code, text, errs = runBubbledEnv(t, map[string]string{"COLUMNS": "100"}, "compare", "testdata/question-refused.yaml",
			"--out", out, "--questions-csv", qcsv, "--junit", junit)
	})
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, text, errs)
	}
	doc, err := report.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	reps := doc.Reports()
	idx, other := reps[0].Questions["kind-hour"], reps[1].Questions["kind-hour"]
	if idx.Plan != "index" || idx.Ops == 0 || idx.Failed != idx.Ops || idx.Throttled != idx.Requests || idx.Latency != (report.Latency{}) {
		t.Fatalf("user-idx's kind-hour: %s, %d asked, %d failed, %d of %d requests throttled, latency %+v; want every one failed and no latency",
			idx.Label(), idx.Ops, idx.Failed, idx.Throttled, idx.Requests, idx.Latency)
	}
	if other.Failed != 0 || other.Latency.P99 == 0 {
		t.Errorf("user-only's kind-hour was answered: %+v", other)
	}
	if pr := reps[0].Operations["point_read"]; pr.Failed != 0 || pr.Ops == 0 {
		t.Errorf("the point reads beside it are answered: %+v", pr.Counts)
	}
	row := lineWith(text, "kind-hour", "user-idx", "index ByKindHour")
	if f := strings.Fields(row); len(f) < 2 || f[len(f)-2] != "100.00%" || f[len(f)-1] != "-" || len(row) > 100 {
		t.Errorf("the question's row does not end FAILED 100.00%%, P99 -, within 100 columns: %q\n%s", row, text)
	}
	if !strings.Contains(text, fmt.Sprintf("question kind-hour under user-idx was never answered: all %d asked failed after their retries", idx.Ops)) {
		t.Errorf("no line says the question was never answered:\n%s", text)
	}
	if l := lineWith(text, "question", "all failed"); l == "" {
		t.Errorf("the latency by operation gives user-idx's questions a latency:\n%s", text)
	}
	for _, rec := range readCSV(t, qcsv)[1:] {
		if rec[0] == "user-idx" && rec[1] == "kind-hour" && (rec[14] != fmt.Sprint(idx.Ops) || rec[17] != "") {
			t.Errorf("the questions CSV row %q: want failed %d and no p50", rec, idx.Ops)
		}
	}
	failed := junitFailures(t, junit)
	if !failed["user-idx/question kind-hour answered"] || failed["user-only/question kind-hour answered"] || failed["user-idx/operation point_read answered"] {
		t.Errorf("the JUnit cases: %v", failed)
	}
}

// A client out of workers (one worker, each read held 50 ms, 200 reads/s
// offered) drops most of what is due: the report gives the drops as a
// share of the operations offered, run or dropped, never over 100%, in
// the text, the JSON and the search's figures alike.
func TestRunOutOfWorkersDropsAShareOfWhatWasOffered(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var code int
	var text, errs string
	synctest.Test(t, func(t *testing.T) {
		code, text, errs = runBubbledEnv(t, map[string]string{"COLUMNS": "100"}, "run", "testdata/out-of-workers.yaml", "--out", out)
	})
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, text, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	tot := r.Totals
	// 20 reads a second start, of 200 due: 9 in 10 are dropped.
	if tot.Dropped <= tot.Ops || tot.Offered() < 550 || tot.Offered() > 610 {
		t.Fatalf("%d ran and %d dropped of %d offered: want most of about 600 dropped", tot.Ops, tot.Dropped, tot.Offered())
	}
	share := 100 * float64(tot.Dropped) / float64(tot.Offered())
	want := fmt.Sprintf("dropped: %.2f%% of the operations offered (%d of %d)", share, tot.Dropped, tot.Offered())
	if !strings.Contains(strings.Join(strings.Fields(text), " "), want) || share > 100 || share < 85 {
		t.Errorf("the text lacks %q:\n%s", want, text)
	}
	for _, l := range strings.Split(text, "\n") {
		if len(l) > 100 {
			t.Errorf("a line is wider than 100 columns: %q", l)
		}
	}
}

// readCSV reads the CSV file at path.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// junitFailures reads the JUnit XML at path: whether each test case, by
// "suite/case", failed.
func junitFailures(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			failed[s.Name+"/"+c.Name] = c.Failure != nil
		}
	}
	return failed
}
