package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// failingQuestionReport is a run of scheme whose question kind-hour
// (index ByKindHour) was asked twice and failed both times, each of its
// four requests throttled, 437 ms after it was due, while question
// newest was answered 40 times, 5 ms each.
func failingQuestionReport(scheme string) *Report {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reg := metrics.NewRegistry(metrics.Options{Start: t0, Questions: []string{"kind-hour", "newest"}})
	rec := reg.NewRecorder()
	ok, busy := outcome.New(200, ""), outcome.New(503, "ServerBusy")
	for i := 0; i < 2; i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		for a := 0; a < 4; a++ {
			rec.Request(metrics.Request{Op: metrics.Question, Partition: "ByKindHour/k", Outcome: busy, Retry: a > 0, At: at, Start: at, Question: 1})
		}
		rec.QuestionDone(0, "ByKindHour/k", at, at.Add(437*time.Millisecond), false, metrics.QuestionFigures{Partitions: 1})
	}
	for i := 0; i < 40; i++ {
		at := t0.Add(time.Duration(i) * 50 * time.Millisecond)
		rec.Request(metrics.Request{Op: metrics.Question, Partition: "p", Outcome: ok, Entities: 10, Page: true, At: at, Start: at, Question: 2})
		rec.QuestionDone(1, "p", at, at.Add(5*time.Millisecond), true, metrics.QuestionFigures{Partitions: 1, Visited: 10, Pages: 1, Returned: 10})
	}
	plans := []QuestionPlan{{Name: "kind-hour", Plan: "index", Index: "ByKindHour"}, {Name: "newest", Plan: "range"}}
	return Build(Meta{Scenario: "notify", Scheme: scheme, Run: RunInfo{Seed: 1, PartitionTarget: 2000, Mode: "open", Workers: 8}, Questions: plans},
		reg.Finish(t0.Add(2*time.Second)))
}

// rowOf is the line of text that starts with prefix (after spaces).
func rowOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return l
		}
	}
	return ""
}

// A question that failed every time it was asked is shown as failed in the
// text (at 100 columns too), the comparison, the JSON, the CSV and the
// HTML: its FAILED share is 100%, and it has no latency (its 437 ms are
// nobody's percentile), never a slow, partly throttled success.
func TestQuestionThatAlwaysFailsIsShownAsFailed(t *testing.T) {
	r := failingQuestionReport("kind-hour")
	q := r.Questions["kind-hour"]
	if q.Ops != 2 || q.Failed != 2 || q.Latency.P99 != 0 || q.Throttled != 8 {
		t.Fatalf("kind-hour: %d asked, %d failed, %d throttled, p99 %v ms; want 2, 2, 8 and no latency", q.Ops, q.Failed, q.Throttled, q.Latency.P99)
	}
	for _, st := range []textfit.Style{{}, {Width: 100}} {
		var b bytes.Buffer
		if err := WriteTextStyle(&b, r, st); err != nil {
			t.Fatal(err)
		}
		row := strings.Fields(rowOf(b.String(), "kind-hour"))
		if len(row) < 8 || !contains(row, "100.00%") || contains(row, "437") || row[len(row)-2] != "-" {
			t.Errorf("width %d: the question's row %q does not show it failed, without latency:\n%s", st.Width, row, b.String())
		}
		if !strings.Contains(b.String(), "question kind-hour was never answered: all 2 asked failed after their retries (503 ServerBusy ×8)") {
			t.Errorf("width %d: no line says kind-hour was never answered:\n%s", st.Width, b.String())
		}
		if !strings.Contains(b.String(), "question kind-hour never answered") {
			t.Errorf("width %d: the verdict does not say it:\n%s", st.Width, b.String())
		}
	}
	var cmp bytes.Buffer
	if err := WriteCompareStyle(&cmp, []*Report{r, failingQuestionReport("other")}, textfit.Style{Width: 100}); err != nil {
		t.Fatal(err)
	}
	if row := rowOf(cmp.String(), "kind-hour  other"); !strings.Contains(row, "100.00%") || strings.Contains(row, "437") {
		t.Errorf("the comparison's row %q does not show the question failed:\n%s", row, cmp.String())
	}
	checkFailedJSON(t, r)
	checkFailedCSV(t, r)
	// A bound on its latency fails: it has none, not 0 ms.
	if _, err := r.EvaluateThresholds([]string{"p99(question:kind-hour) < 50ms", "p99(question:newest) < 50ms"}); err != nil {
		t.Fatal(err)
	}
	if th := r.Thresholds[0]; th.OK || th.Missing != "no question kind-hour operation was answered in the measured 2.0 s: all 2 that completed failed" {
		t.Errorf("a latency bound on a question that always failed: %+v", th)
	}
	if th := r.Thresholds[1]; !th.OK || th.Observed < 5 || th.Observed > 5.01 {
		t.Errorf("a latency bound on an answered question: %+v", th)
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), `<td class="bad">100.00%</td><td>-</td><td>-</td>`) {
		t.Errorf("the HTML's questions table does not show kind-hour failed without latency")
	}
}

// checkFailedJSON checks that r's JSON counts kind-hour's two questions
// as failed, with no latency.
func checkFailedJSON(t *testing.T, r *Report) {
	t.Helper()
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Questions map[string]struct {
			Ops, Failed int64
			Latency     Latency `json:"latency_ms"`
		} `json:"questions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if jq := doc.Questions["kind-hour"]; jq.Ops != 2 || jq.Failed != 2 || jq.Latency != (Latency{}) {
		t.Errorf("the JSON question: %+v", jq)
	}
}

// checkFailedCSV checks that r's questions CSV counts kind-hour's two
// questions as failed, with no p99.
func checkFailedCSV(t *testing.T, r *Report) {
	t.Helper()
	var c bytes.Buffer
	if err := WriteQuestionsCSV(&c, r); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		for i, h := range QuestionsCSVHeader {
			if h == name {
				return i
			}
		}
		t.Fatalf("no CSV column %s", name)
		return 0
	}
	for _, rec := range recs[1:] {
		if rec[1] == "kind-hour" && (rec[col("failed")] != "2" || rec[col("p99_ms")] != "") {
			t.Errorf("the CSV row %q: want failed 2 and no p99", rec)
		}
	}
}

// peakReport has twelve partitions: eleven steady ones, the busiest by
// entities, and burst, the fewest entities but the highest peak (538
// entities/s against the others' 436 at most), judged by
// max_partition_peak.
func peakReport(bound string) *Report {
	r := sampleReport()
	r.Partitions = nil
	for p := 0; p < 11; p++ {
		r.Partitions = append(r.Partitions, Partition{PartitionKey: fmt.Sprintf("steady-%02d", p), Counts: metrics.Counts{Ops: 4000, Requests: 4000, Entities: int64(4000 - p)},
			EntitiesPerSec: 400, PeakEntitiesPerSec: float64(436 - p)})
	}
	r.Partitions = append(r.Partitions, Partition{PartitionKey: "burst", Counts: metrics.Counts{Ops: 600, Requests: 600, Entities: 600},
		EntitiesPerSec: 60, PeakEntitiesPerSec: 538})
	if _, err := r.EvaluateThresholds([]string{"max_partition_peak < " + bound}); err != nil {
		panic(err)
	}
	return r
}

// A threshold on the highest partition peak names the partition, and the
// busiest-partitions table beside it shows that partition even when it is
// not among the busiest by entities, in the text, the HTML and JUnit; so
// does a partition over its target.
func TestPeakThresholdShowsItsPartition(t *testing.T) {
	r := peakReport("2000")
	r.Partitions[10].OverTarget = true // steady-10, the eleventh by entities
	if th := r.Thresholds[0]; !th.OK || th.Observed != 538 || th.Partition != "burst" {
		t.Fatalf("the threshold: %+v", th)
	}
	var b bytes.Buffer
	if err := WriteTextStyle(&b, r, textfit.Style{Width: 100}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if row := rowOf(text, "burst"); !strings.Contains(row, "538") {
		t.Errorf("the partitions table lacks burst, the partition the threshold judges:\n%s", text)
	}
	if row := rowOf(text, "steady-10"); !strings.Contains(row, "HOT") {
		t.Errorf("the partitions table lacks steady-10, over its target:\n%s", text)
	}
	for _, want := range []string{"max_partition_peak < 2000 (observed 538 in partition burst)",
		"below the busiest by entities: burst, whose figure max_partition_peak < 2000 judges; steady-10, over its target"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) { // wrapped at 100 columns
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), "<tr><td>burst</td><td>600</td><td>60.0</td><td>538</td>") || !strings.Contains(h.String(), "538 in partition burst") {
		t.Errorf("the HTML's partitions table or thresholds lack burst")
	}
	failed := peakReport("500")
	doc, _ := junitOf(t, failed)
	if c := findCase(t, doc.Suites[0], "max_partition_peak < 500"); c.Failure == nil || c.Failure.Message != "observed 538 in partition burst, bound < 500" {
		t.Errorf("the JUnit failure does not name the partition: %+v", c.Failure)
	}
}
