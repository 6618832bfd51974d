package promexport

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// A run charged in request units serves them per operation and for the
// busiest partitions; one charged nothing serves no request units series.
func TestRequestUnitsServed(t *testing.T) {
	charged := &metrics.Summary{
		Ops: map[metrics.Op]metrics.Stats{
			metrics.Insert:    {Counts: metrics.Counts{Ops: 2, Requests: 2, Charged: 2, RequestUnits: 9.9}},
			metrics.PointRead: {Counts: metrics.Counts{Ops: 1, Requests: 1}},
		},
		Partitions: []metrics.PartitionStats{{Key: "p", Counts: metrics.Counts{Requests: 2, Charged: 2, RequestUnits: 9.9}, PeakUnits: 9.9}},
	}
	got := gather(t, charged)
	if got["tablestress_request_units_total"] != 9.9 || got["tablestress_partition_request_units_total"] != 9.9 ||
		got["tablestress_partition_peak_request_units_per_second"] != 9.9 {
		t.Errorf("served %v", got)
	}
	plain := &metrics.Summary{Ops: map[metrics.Op]metrics.Stats{metrics.Insert: {Counts: metrics.Counts{Ops: 1, Requests: 1}}},
		Partitions: []metrics.PartitionStats{{Key: "p", Counts: metrics.Counts{Requests: 1}}}}
	for name := range gather(t, plain) {
		if name == "tablestress_request_units_total" || name == "tablestress_partition_request_units_total" {
			t.Errorf("a run charged nothing serves %s", name)
		}
	}
}

// gather scrapes an exporter over sum and returns the sum of each
// family's values.
func gather(t *testing.T, sum *metrics.Summary) map[string]float64 {
	t.Helper()
	e := New()
	e.Set("s", "k", "cosmos", func() *metrics.Summary { return sum })
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			out[mf.GetName()] += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return out
}
