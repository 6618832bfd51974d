package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
)

var questionPlans = []QuestionPlan{
	{Name: "newest", Plan: "fan_out", Why: "4 partitions"},
	{Name: "order", Plan: "scan", Scope: "table", Why: "customer unknown"},
}

// askedRegistries records the same questions into one registry and, split
// by question number, into two shards' registries.
func askedRegistries(t0 time.Time) (whole *metrics.Registry, shards [2]*metrics.Registry) {
	opts := metrics.Options{Start: t0, Questions: []string{"newest", "order"}}
	whole = metrics.NewRegistry(opts)
	shards = [2]*metrics.Registry{metrics.NewRegistry(opts), metrics.NewRegistry(opts)}
	recs := []*metrics.Recorder{whole.NewRecorder(), shards[0].NewRecorder(), shards[1].NewRecorder()}
	ok, busy := outcome.New(200, ""), outcome.New(503, "ServerBusy")
	for i := 0; i < 200; i++ {
		k := i % 2
		at := t0.Add(time.Duration(i) * 10 * time.Millisecond)
		n := 4 - 3*k // newest asks 4 partitions, order 1
		scheduled := at.Add(-time.Duration(i) * time.Millisecond)
		for _, rec := range []*metrics.Recorder{recs[0], recs[1+i%3%2]} {
			for p := 0; p < n; p++ {
				o := ok
				if i%10 == 1 && p == 0 {
					o = busy
				}
				rec.Request(metrics.Request{Op: metrics.Question, Partition: fmt.Sprintf("p%d", p), Outcome: o, Entities: 5, Page: true, At: at, Start: scheduled, Question: k + 1,
					Charged: true, Charge: 2.5 / float64(n)})
			}
			rec.QuestionDone(k, metrics.CrossPartition, scheduled, at, i%10 != 1,
				metrics.QuestionFigures{Partitions: int64(n), Visited: int64(20 * n), VisitedByService: int64(n), Pages: int64(n), Returned: 5})
		}
	}
	return whole, shards
}

// A report carries each question's plan and figures, per question, in the
// JSON report's questions map; thresholds judge them by question:NAME.
func TestQuestionFiguresInTheReport(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	whole, _ := askedRegistries(t0)
	r := Build(Meta{Scenario: "s", Scheme: "k", Run: RunInfo{Seed: 1, PartitionTarget: 2000}, Questions: questionPlans}, whole.Finish(t0.Add(2*time.Second)))
	q := r.Questions["newest"]
	if q.Ops != 100 || q.Requests != 400 || q.RequestsPerQuestion != 4 || q.PartitionsPerQuestion != 4 || q.RowsVisitedPerQuestion != 80 ||
		q.RowsVisitedFrom != "service" || q.RowsReturnedPerQuestion != 5 || q.Plan != "fan_out" || q.RequestUnitsPerQuestion == nil || *q.RequestUnitsPerQuestion != 2.5 {
		t.Errorf("newest: %+v", q)
	}
	if o := r.Questions["order"]; o.Throttled != 20 || o.Failed != 20 || o.Label() != "scan (table)" {
		t.Errorf("order: %+v", o)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Questions map[string]map[string]any `json:"questions"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ops", "requests", "requests_per_question", "partitions_per_question", "rows_visited_per_question", "throttled", "latency_ms", "plan"} {
		if _, ok := doc.Questions["newest"][k]; !ok {
			t.Errorf("the JSON question has no %q: %v", k, doc.Questions["newest"])
		}
	}
	r.EvaluateThresholds([]string{"p99(question:newest) < 500ms", "p99(question:newest) < 50ms", "throttle_rate(question:order) < 1%", "p99(question:never) < 1s"})
	want := []bool{true, false, false, false}
	for i, th := range r.Thresholds {
		if th.OK != want[i] {
			t.Errorf("%s: ok %v (observed %v, %s), want %v", th.Expr, th.OK, th.Observed, th.Missing, want[i])
		}
	}
	if !strings.Contains(r.Thresholds[3].Missing, "question never") {
		t.Errorf("a question that never ran: %q", r.Thresholds[3].Missing)
	}
}

// Shards' reports merge to the report of the whole run, questions
// included.
func TestMergeQuestions(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	whole, shards := askedRegistries(t0)
	end := t0.Add(2 * time.Second)
	build := func(reg *metrics.Registry, shard string) *Report {
		return Build(Meta{Scenario: "s", Scheme: "k", Run: RunInfo{Seed: 1, PartitionTarget: 2000, Shard: shard}, Questions: questionPlans}, reg.Finish(end))
	}
	want := build(whole, "")
	got, err := Merge(shardsOf(build(shards[0], "0/2"), build(shards[1], "1/2")), false)
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range want.Questions {
		g := got.Questions[name]
		if g.Counts != w.Counts || g.Sums != w.Sums || g.Latency != w.Latency || g.RequestsPerQuestion != w.RequestsPerQuestion || g.Plan != w.Plan {
			t.Errorf("%s merged:\n%+v\nwant\n%+v", name, g, w)
		}
	}
}

// The text, CSV and HTML of a comparison put each question's figures side
// by side across schemes; the HTML draws their chart.
func TestQuestionsSideBySide(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var reps []*Report
	for _, scheme := range []string{"customer", "hash-buckets"} {
		whole, _ := askedRegistries(t0)
		reps = append(reps, Build(Meta{Scenario: "s", Scheme: scheme, Run: RunInfo{Seed: 1, PartitionTarget: 2000}, Questions: questionPlans}, whole.Finish(t0.Add(2*time.Second))))
	}
	var text bytes.Buffer
	if err := WriteCompare(&text, reps); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`QUESTION`, `newest\s+customer\s+fan_out\s+50\.0\s+4\.00\s+4\.00\s+80 `, `order\s+hash-buckets\s+scan \(table\)`, `RU/Q`} {
		if !regexp.MustCompile(w).MatchString(text.String()) {
			t.Errorf("the comparison lacks %q:\n%s", w, text.String())
		}
	}
	var csv bytes.Buffer
	if err := WriteQuestionsCSV(&csv, reps...); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(csv.String()), "\n"); len(lines) != 5 || !strings.HasPrefix(lines[1], "customer,newest,fan_out,,,100,") {
		t.Errorf("questions CSV:\n%s", csv.String())
	}
	browser := testenv.Chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "q.html")
	f, _ := os.Create(page)
	if err := WriteHTML(f, reps...); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dom, _ := headless(t, browser, dir, "--dump-dom", "file://"+page)
	body := regexp.MustCompile(`<body [^>]*>`).FindString(string(dom))
	if strings.Contains(body, "data-errors") || strings.Contains(body, "data-missing") {
		t.Fatalf("the page did not draw every chart: %s", body)
	}
	if !regexp.MustCompile(`id="compare-questions"[^>]*>.*?<canvas`).Match(dom) {
		t.Errorf("the questions chart has no canvas")
	}
}

// Where a question's rows visited come from, and whether the text marks
// them as the rows returned: a point plan's are exact on any service (a
// point read visits the row it reads), a question whose pages were all
// refused visited nothing, and only pages a service did not count are
// marked.
func TestRowsVisitedFrom(t *testing.T) {
	for _, tc := range []struct {
		plan   string
		f      metrics.QuestionFigures
		from   string
		marked bool
	}{
		{"point", metrics.QuestionFigures{Visited: 10, Returned: 10}, "point reads", false},
		{"scan", metrics.QuestionFigures{}, "", false},
		{"scan", metrics.QuestionFigures{Visited: 50, Returned: 50, Pages: 10}, "rows returned", true},
		{"scan", metrics.QuestionFigures{Visited: 500, VisitedByService: 10, Pages: 10, Returned: 50}, "service", false},
		{"index", metrics.QuestionFigures{Visited: 500, VisitedByService: 4, Pages: 10, Returned: 50}, "both", true},
	} {
		q := Question{QuestionPlan: QuestionPlan{Name: "q", Plan: tc.plan}, Sums: tc.f}
		q.Ops = 10
		q.derive()
		cells := questionCells("q", "s", q)
		marked := false
		for _, c := range cells {
			marked = marked || strings.HasSuffix(c.Text, "*")
		}
		if q.RowsVisitedFrom != tc.from || marked != tc.marked {
			t.Errorf("%s %+v: from %q, marked %v; want %q, %v", tc.plan, tc.f, q.RowsVisitedFrom, marked, tc.from, tc.marked)
		}
	}
}
