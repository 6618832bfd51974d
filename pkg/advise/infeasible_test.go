package advise

import (
	"math"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// A question no scheme answers within the bound makes the load
// infeasible, named with the cheapest plan there is; nothing is
// recommended.
func TestInfeasibleQuestionBound(t *testing.T) {
	opts := Defaults()
	opts.MaxQuestionRequests = 0.5
	a := adviseWith(t, "iot-telemetry", opts)
	if a.Infeasible == nil || len(a.Infeasible.Questions) != 2 || a.Recommended != nil {
		t.Fatalf("infeasible %+v, recommended %+v", a.Infeasible, a.Recommended)
	}
	if q := a.Infeasible.Questions[0]; !strings.Contains(q, "newest-by-device") || !strings.Contains(q, "1 request a question") {
		t.Errorf("%q", q)
	}
}

// Under Cosmos DB a table provisioned below what the workload is charged
// is infeasible at that throughput: it says the request units to
// provision (what the cheapest scheme is charged, over the headroom,
// rounded up to 100 RU/s) and advises at them.
func TestInfeasibleRequestUnits(t *testing.T) {
	opts := Defaults()
	var err error
	if opts.Model, err = model.Parse("cosmos,ru=400"); err != nil {
		t.Fatal(err)
	}
	a := adviseWith(t, "iot-telemetry", opts)
	inf := a.Infeasible
	if inf == nil || a.Split == nil || a.Recommended == nil {
		t.Fatalf("infeasible %+v, split %v", inf, a.Split != nil)
	}
	least := math.Inf(1)
	for _, c := range a.Ranked {
		least = math.Min(least, c.Prediction.Cosmos.TotalPerSec)
	}
	if want := math.Ceil(least/0.7/100) * 100; inf.RequestUnits != want || a.Split.Input.Opts.Model.Cosmos.RU != want {
		t.Errorf("request units needed %v (advised at %v), want %v", inf.RequestUnits, a.Split.Input.Opts.Model.Cosmos.RU, want)
	}
	if a.Split.Infeasible != nil {
		t.Errorf("at %v RU/s still infeasible: %+v", inf.RequestUnits, a.Split.Infeasible)
	}
	// The proof runs at the throughput advised.
	_, src := load(t, "iot-telemetry")
	out, err := ProofScenario(src, a, a.mustPlan(t, ProofOptions{RecommendedOnly: true}))
	if err != nil {
		t.Fatal(err)
	}
	sc, errs := scenario.Parse("proof.yaml", out)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if m, err := model.Parse(sc.Embedded.Model); err != nil || m.Cosmos.RU != inf.RequestUnits {
		t.Errorf("the proof runs under %q, want %v RU/s", sc.Embedded.Model, inf.RequestUnits)
	}
}
