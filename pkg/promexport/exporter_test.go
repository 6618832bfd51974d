package promexport

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// TestLatencyServedBeforeFirstCompletion scrapes a run whose point reads
// have had a request answered but no operation completed: the latency
// histogram is served, empty, with every bucket, beside the request
// counter; after an 8 ms operation its buckets from 10 ms on count it.
func TestLatencyServedBeforeFirstCompletion(t *testing.T) {
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	sum := &metrics.Summary{Ops: map[metrics.Op]metrics.Stats{
		metrics.PointRead: {Status: map[string]int64{"200": 1}, Latency: h},
	}}
	e := New()
	e.Set("s", "k", "embedded", func() *metrics.Summary { return sum })
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e)
	check := func(when string, n uint64) {
		t.Helper()
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		var found bool
		for _, mf := range mfs {
			if mf.GetName() != "tablestress_operation_latency_seconds" {
				continue
			}
			found = true
			hist := mf.GetMetric()[0].GetHistogram()
			if hist.GetSampleCount() != n {
				t.Errorf("%s: count %d, want %d", when, hist.GetSampleCount(), n)
			}
			if len(hist.GetBucket()) != len(latencyBuckets) {
				t.Errorf("%s: %d buckets, want %d", when, len(hist.GetBucket()), len(latencyBuckets))
			}
			for _, b := range hist.GetBucket() {
				want := uint64(0)
				if b.GetUpperBound() >= 0.01 {
					want = n
				}
				if b.GetCumulativeCount() != want {
					t.Errorf("%s: bucket le=%g holds %d, want %d", when, b.GetUpperBound(), b.GetCumulativeCount(), want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no latency histogram served", when)
		}
	}
	check("before any completion", 0)
	if err := h.RecordValue(8000); err != nil { // µs
		t.Fatal(err)
	}
	check("after one 8 ms operation", 1)
}
