package workload

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/report"
)

// A search step fails on drops as a share of the operations offered (run
// or dropped): never over 100%, and a step that could start nothing fails
// too.
func TestStopRuleJudgesDropsOfWhatWasOffered(t *testing.T) {
	for _, tc := range []struct {
		ops, dropped int64
		why          string // "" passes
	}{
		{100, 1, ""}, // 0.99% of 101
		{99, 1, ""},  // exactly 1%
		{100, 2, "1.96% of the operations offered were dropped: the client could not offer this rate (raise --workers)"},
		{50, 500, "90.9% of the operations offered were dropped: the client could not offer this rate (raise --workers)"},
		{0, 500, "100% of the operations offered were dropped: the client could not offer this rate (raise --workers)"},
	} {
		rep := &report.Report{Totals: report.Stats{Counts: metrics.Counts{Ops: tc.ops, Requests: tc.ops, Dropped: tc.dropped}}}
		if got := (StopRule{}).judge(rep); got != tc.why {
			t.Errorf("%d run, %d dropped: %q, want %q", tc.ops, tc.dropped, got, tc.why)
		}
	}
}
