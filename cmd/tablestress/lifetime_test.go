package main

import (
	"math"
	"testing"
)

// The judge's law of keys with a lifetime holds at the proof's depth: at
// 1,000,000 entities (ten lives of the orders) the proof of advise's
// recommendation measures each question's requests and rows visited
// within its tolerance of the prediction, an event's order's events
// about 6 (a retired order's 5 and the event), an open order's about 2.5.
func TestProofHoldsTheLifetimeLaw(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 1,000,000 entities")
	}
	code, doc, errs := adviseJSON(t, "testdata/advise-lifetime.yaml", "--proof-schemes", "recommended", "--proof-warmup", "1s", "--proof-duration", "10s")
	p := doc.Proof
	if code != exitOK || doc.Recommended == nil || doc.Recommended.PartitionKey != "{order}" || p == nil || !p.Run || !p.OK || p.Entities != 1_000_000 {
		t.Fatalf("exit %d, recommended %+v, proof %+v\n%s", code, doc.Recommended, p, errs)
	}
	want := map[string][2]float64{"events": {5.5, 6.5}, "open": {2.2, 2.8}, "recent": {0.5, 3}}
	for _, q := range p.Schemes[0].Questions {
		if !q.Checked || q.Asked < 100 {
			t.Errorf("%s was not checked: %+v", q.Name, q)
			continue
		}
		if off := math.Abs(q.RowsVisited/q.PredictedRowsVisited - 1); off > q.Tolerance {
			t.Errorf("%s: measured %v rows visited, predicted %v (within %v)", q.Name, q.RowsVisited, q.PredictedRowsVisited, q.Tolerance)
		}
		if w := want[q.Name]; q.PredictedRowsVisited < w[0] || q.PredictedRowsVisited > w[1] {
			t.Errorf("%s: predicted %v rows visited at 1,000,000 entities; want within %v", q.Name, q.PredictedRowsVisited, w)
		}
		t.Logf("%s: %d asked, %.2f rows visited, predicted %.2f (within %.3f)", q.Name, q.Asked, q.RowsVisited, q.PredictedRowsVisited, q.Tolerance)
	}
}
