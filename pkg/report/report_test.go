package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
)

func sampleReport() *Report {
	return &Report{
		Schema: SchemaReport, Scenario: "hot", Scheme: "constant",
		Target:    Target{Kind: "embedded", Endpoint: "http://127.0.0.1:1/devstoreaccount1"},
		Table:     "tshot00000000",
		StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), DurationS: 10,
		Run:  RunInfo{Mode: "open", Workers: 64, Rate: 6000, Seed: 1, Retry: "none", PartitionTarget: 2000},
		Seed: SeedInfo{Entities: 1000, Rows: 1000, Partitions: 1, DurationS: 0.5},
		Totals: Stats{Counts: metrics.Counts{Ops: 60000, Requests: 60000, Entities: 20000, AnsweredEntities: 20000, Throttled: 40000}, OpsPerSec: 6000, EntitiesPerSec: 2000,
			Status: map[string]int64{"201": 20000, "503 ServerBusy": 36000, "500 OperationTimedOut": 4000}, Latency: Latency{P50: 1, P99: 9.5, Max: 30}},
		Operations: map[string]Stats{"insert": {Counts: metrics.Counts{Ops: 60000, Requests: 60000, Throttled: 40000}, Latency: Latency{P99: 9.5}}},
		Partitions: []Partition{{PartitionKey: "Orders", Counts: metrics.Counts{Requests: 60000, Entities: 20000, Throttled: 40000}, EntitiesPerSec: 2000,
			PeakEntitiesPerSec: 2150, OverTarget: true}},
	}
}

func TestThresholds(t *testing.T) {
	r := sampleReport()
	ok, err := r.EvaluateThresholds([]string{"p99(insert) < 10ms", "throttle_rate < 1%", "max_partition_peak < 2000", "partitions_over_target == 1", "error_rate == 0%"})
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("thresholds passed but the partition was throttled")
	}
	want := []struct {
		ok  bool
		obs float64
	}{{true, 9.5}, {false, 100 * 40000.0 / 60000}, {false, 2150}, {true, 1}, {true, 0}}
	for i, w := range want {
		if r.Thresholds[i].OK != w.ok || r.Thresholds[i].Observed != w.obs {
			t.Errorf("%s: %+v, want ok=%v observed=%v", r.Thresholds[i].Expr, r.Thresholds[i], w.ok, w.obs)
		}
	}
}

func TestTextAndCSVAndJSON(t *testing.T) {
	r := sampleReport()
	r.EvaluateThresholds([]string{"throttle_rate < 1%"})
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"scheme constant", "open loop at 6,000 ops/s", "503 ServerBusy ×36,000", "OVER TARGET",
		"hot partition Orders at or over the 2,000 entities/s target", "66.67% of requests throttled", "FAIL throttle_rate < 1%"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	b.Reset()
	if err := WriteCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 2 || rows[1][1] != "Orders" || rows[1][6] != "2150" || rows[1][14] != "true" {
		t.Errorf("csv %v %v", rows, err)
	}
	b.Reset()
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	doc, err := Decode(b.Bytes())
	if err != nil || doc.Report == nil || doc.Report.Partitions[0].PeakEntitiesPerSec != 2150 || doc.Report.Totals.Status["503 ServerBusy"] != 36000 {
		t.Errorf("round trip: %+v %v", doc.Report, err)
	}
	if _, err := Decode([]byte(`{"schema":"other/v1"}`)); err == nil {
		t.Error("a foreign schema must be refused")
	}
}

// A threshold on nothing fails and says what was not observed: a run that
// measured nothing, an operation that never completed, a share of no
// requests, a peak of no partition.
func TestThresholdsFailOnNothingObserved(t *testing.T) {
	empty := &Report{Run: RunInfo{PartitionTarget: 2000}, Totals: Stats{Status: map[string]int64{}}}
	exprs := []string{"p99(point_read) < 250ms", "throttle_rate < 1%", "max_partition_peak < 2000", "dropped == 0", "partitions_over_target == 0"}
	if ok, err := empty.EvaluateThresholds(exprs); err != nil || ok {
		t.Fatalf("thresholds on an empty run: ok %v, %v", ok, err)
	}
	for _, th := range empty.Thresholds {
		if th.OK || th.Missing == "" {
			t.Errorf("%s: %+v, want a failure saying what is missing", th.Expr, th)
		}
	}
	r := sampleReport() // inserts into one partition, nothing else
	r.Partitions = append(r.Partitions, Partition{PartitionKey: "*", Counts: metrics.Counts{Requests: 5}})
	r.Operations["table_scan"] = Stats{Counts: metrics.Counts{Dropped: 3}}
	r.EvaluateThresholds([]string{"p99(point_read) < 250ms", "p99(table_scan) < 1s", "throttle_rate(table_scan) < 1%", "dropped(table_scan) < 5", "p99(insert) < 10ms"})
	for i, want := range []string{"no point_read operation ran", "no table_scan operation completed", "no table_scan request was sent", "", ""} {
		th := r.Thresholds[i]
		if !strings.Contains(th.Missing, want) || (want == "") != (th.Missing == "") || th.OK == (want != "") && want != "" {
			t.Errorf("%s: %+v, want missing %q", th.Expr, th, want)
		}
	}
	if !r.Thresholds[3].OK || !r.Thresholds[4].OK {
		t.Errorf("observed thresholds: %+v %+v", r.Thresholds[3], r.Thresholds[4])
	}
	var b bytes.Buffer
	WriteText(&b, empty)
	if !strings.Contains(b.String(), "FAIL p99(point_read) < 250ms  (nothing observed: the run measured nothing") {
		t.Errorf("text:\n%s", b.String())
	}
}

// A partition throttled at its target (served 1,950 entities in a second
// in which it was throttled, peak below the target) is over target in the
// JSON, the CSV and the text alike, and its average is not above its peak.
func TestOverTargetAgreesEverywhere(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	reg := metrics.NewRegistry(metrics.Options{Start: t0, End: t0.Add(3 * time.Second), PartitionTarget: 2000})
	rec := reg.NewRecorder()
	for s := 0; s < 3; s++ {
		at := t0.Add(time.Duration(s)*time.Second + 10*time.Millisecond)
		rec.Request(metrics.Request{Op: metrics.Batch, Partition: "Orders", Outcome: outcome.New(202, ""), Entities: 1950, At: at})
		rec.Request(metrics.Request{Op: metrics.Batch, Partition: "Orders", Outcome: outcome.New(503, "ServerBusy"), At: at})
	}
	// The drain: a transaction sent before the end, answered after it.
	rec.Request(metrics.Request{Op: metrics.Batch, Partition: "Orders", Outcome: outcome.New(202, ""), Entities: 50, At: t0.Add(3*time.Second + 2*time.Millisecond)})
	r := Build(Meta{Run: RunInfo{PartitionTarget: 2000}}, reg.Finish(t0.Add(3*time.Second)))
	p := r.Partitions[0]
	if !p.OverTarget || p.EntitiesPerSec > p.PeakEntitiesPerSec || len(r.Intervals) != 3 {
		t.Errorf("partition %+v: want over target, average <= peak, 3 intervals (got %d)", p, len(r.Intervals))
	}
	var js bytes.Buffer
	WriteJSON(&js, r)
	var text, csvOut bytes.Buffer
	WriteText(&text, r)
	WriteCSV(&csvOut, r)
	rows, _ := csv.NewReader(&csvOut).ReadAll()
	col := slices.Index(rows[0], "over_target")
	if !strings.Contains(js.String(), `"over_target": true`) || col < 0 || rows[1][col] != "true" || !strings.Contains(text.String(), "HOT: throttled at target") {
		t.Errorf("over_target disagrees: json %v, csv %v, text:\n%s", strings.Contains(js.String(), `"over_target": true`), rows[1], text.String())
	}
}

// A window shorter than a second (a run of --max-ops 100) has no whole
// second: a partition's peak is its average then, never below it.
func TestPeakNotBelowAverageInAShortWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	end := t0.Add(136 * time.Millisecond)
	reg := metrics.NewRegistry(metrics.Options{Start: t0, End: end, PartitionTarget: 2000})
	rec := reg.NewRecorder()
	for i := range 50 {
		rec.Request(metrics.Request{Op: metrics.PointRead, Partition: "dev-008", Outcome: outcome.New(200, ""), Entities: 1, At: t0.Add(time.Duration(i) * 2 * time.Millisecond)})
	}
	r := Build(Meta{Run: RunInfo{PartitionTarget: 2000}}, reg.Finish(end))
	p := r.Partitions[0]
	if p.EntitiesPerSec < 300 || p.PeakEntitiesPerSec < p.EntitiesPerSec {
		t.Errorf("partition %s: %.1f entities/s, peak %.1f: want the peak at least the average (about 368)", p.PartitionKey, p.EntitiesPerSec, p.PeakEntitiesPerSec)
	}
}
