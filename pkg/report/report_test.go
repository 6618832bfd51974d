package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
)

func sampleReport() *Report {
	return &Report{
		Schema: SchemaReport, Scenario: "hot", Scheme: "constant",
		Target:    Target{Kind: "embedded", Endpoint: "http://127.0.0.1:1/devstoreaccount1"},
		Table:     "tshot00000000",
		StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), DurationS: 10,
		Run:  RunInfo{Mode: "open", Workers: 64, Rate: 6000, Seed: 1, Retry: "none", PartitionTarget: 2000},
		Seed: SeedInfo{Entities: 1000, Rows: 1000, Partitions: 1, DurationS: 0.5},
		Totals: Stats{Ops: 60000, Requests: 60000, Entities: 20000, OpsPerSec: 6000, EntitiesPerSec: 2000, Throttled: 40000, Errors: 0,
			Status: map[string]int64{"201": 20000, "503 ServerBusy": 36000, "500 OperationTimedOut": 4000}, Latency: Latency{P50: 1, P99: 9.5, Max: 30}},
		Operations: map[string]Stats{"insert": {Ops: 60000, Requests: 60000, Throttled: 40000, Errors: 0, Latency: Latency{P99: 9.5}}},
		Partitions: []Partition{{PartitionKey: "Orders", Requests: 60000, Entities: 20000, EntitiesPerSec: 2000, PeakEntitiesPerSec: 2150, Throttled: 40000, Errors: 0, OverTarget: true}},
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
