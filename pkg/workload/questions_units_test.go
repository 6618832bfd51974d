package workload

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// A question's request units are its requests' charges, counted once: on
// the embedded service under Cosmos DB's model every request of every
// question carries a charge, the questions' request units add up to the
// question operation's and, with nothing else in the mix, to the totals',
// and a point read of a small entity costs the 1 RU Cosmos DB publishes.
func TestQuestionRequestUnitsCountOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a ready scenario's population")
	}
	synctest.Test(t, func(t *testing.T) {
		mc, err := model.Parse("cosmos,ru=100000")
		if err != nil {
			t.Fatal(err)
		}
		rs := askOn(t, "iot-telemetry.yaml", 2000, 10, 2*time.Second, mc, "reading", "newest-by-device")
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
		for scheme, r := range rs {
			if len(r.Questions) != 2 {
				t.Errorf("%s: questions %v", scheme, r.Questions)
			}
			sum := 0.0
			for name, q := range r.Questions {
				if q.Requests == 0 || q.Charged != q.Requests || q.RequestUnitsPerQuestion == nil {
					t.Errorf("%s %s: %d of %d requests charged", scheme, name, q.Charged, q.Requests)
					continue
				}
				if !near(*q.RequestUnitsPerQuestion*float64(q.Ops), q.RequestUnits) {
					t.Errorf("%s %s: %v RU per question over %d questions, %v RU in all", scheme, name, *q.RequestUnitsPerQuestion, q.Ops, q.RequestUnits)
				}
				sum += q.RequestUnits
			}
			op := r.Operations["question"]
			if !near(op.RequestUnits, sum) || !near(r.Totals.RequestUnits, sum) || op.Charged != r.Totals.Charged || r.Totals.Charged != r.Totals.Requests {
				t.Errorf("%s: questions %v RU, the question operation %v (%d charged), totals %v (%d of %d charged)",
					scheme, sum, op.RequestUnits, op.Charged, r.Totals.RequestUnits, r.Totals.Charged, r.Totals.Requests)
			}
			if q := answered(t, rs, scheme, "reading"); q.Plan == "point" && (q.RequestUnitsPerQuestion == nil || *q.RequestUnitsPerQuestion != 1) {
				t.Errorf("%s: a point read cost %v RU, want 1", scheme, q.RequestUnitsPerQuestion)
			}
		}
	})
}
