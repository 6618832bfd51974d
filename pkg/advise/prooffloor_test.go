package advise

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/report"
)

// A question of a row or two is held to within a row, not to 15%: 1.51
// rows visited against 2 predicted agrees (24.5% off, half a row); 3.1
// against 2 does not (a row and more).
func TestProofFloorOfARow(t *testing.T) {
	for _, c := range []struct {
		visited float64
		ok      bool
	}{{1.51, true}, {2.9, true}, {3.1, false}, {0.9, false}} {
		r := &report.Report{Partitions: []report.Partition{{PartitionKey: "a", EntitiesPerSec: 1000}}, Questions: map[string]report.Question{}}
		r.Totals.Requests, r.Totals.Ops = 1000, 1000
		q := report.Question{RequestsPerQuestion: 1, RowsVisitedPerQuestion: c.visited, RowsVisitedFrom: "service"}
		q.Ops = 50
		r.Questions["history"] = q
		p := &Proof{Rate: 100, Entities: 1_000_000, Tolerance: MaxOff, Schemes: []ProofRun{{Scheme: "rec", Role: "recommended",
			Predicted: ProofFigures{BusiestEntitiesPerSec: 1000},
			Questions: []ProofQuestion{{Name: "history", PredictedRequests: 1, PredictedRowsVisited: 2, Tolerance: MaxOff, Checked: true}}}}}
		p.Judge(map[string]*report.Report{"rec": r})
		if p.OK != c.ok || (!c.ok && !strings.Contains(strings.Join(p.Failures, ";"), "a row or more")) {
			t.Errorf("%v rows against 2: ok %v, failures %q; want ok %v", c.visited, p.OK, p.Failures, c.ok)
		}
	}
}
