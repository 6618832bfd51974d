package plan

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// PeakRate reads a workload's rate as a run offers it: each row a workload
// and its peak.
func TestPeakRateIsTheRunsHighestRate(t *testing.T) {
	st := func(rates ...float64) []scenario.Stage {
		var out []scenario.Stage
		for _, r := range rates {
			out = append(out, scenario.Stage{Rate: scenario.Rate(r)})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		w    scenario.Workload
		want float64
	}{
		{"closed loop", scenario.Workload{}, 0},
		{"constant", scenario.Workload{Rate: 2500}, 2500},
		{"stages up then down", scenario.Workload{Stages: st(100, 3000, 500)}, 3000},
		{"stages from a higher start", scenario.Workload{Rate: 4000, Stages: st(100, 200)}, 4000},
	} {
		if got := PeakRate(tc.w); got != tc.want {
			t.Errorf("%s: PeakRate = %v; want %v", tc.name, got, tc.want)
		}
	}
}
