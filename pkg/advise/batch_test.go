package advise

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Batch fill is what the run's own planner assembles: transactions of 20
// under the tenants' partitions (the biggest takes 44% of the writes, so
// its partition fills a transaction at once), about one entity each when
// every entity has a PartitionKey of its own (no two new entities share
// one), and the new entities written a second follow the fill.
func TestBatchFill(t *testing.T) {
	sc, _ := load(t, "multi-tenant")
	in, err := Prepare(sc, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	tenant := judgeSpec(t, in, keygen.SchemeSpec{Name: "tenant", PartitionKey: "{tenant}", RowKey: "{inverted_ticks}"})
	if tenant.BatchSize != 20 || tenant.BatchFill < 19 {
		t.Errorf("tenant: transactions hold %v of %d", tenant.BatchFill, tenant.BatchSize)
	}
	guid := judgeSpec(t, in, keygen.SchemeSpec{Name: "guid", PartitionKey: "{guid}", RowKey: "0"})
	if guid.BatchFill > 1.01 {
		t.Errorf("a partition per entity: transactions hold %v", guid.BatchFill)
	}
	if c := (&Candidate{Prediction: guid}); !hasProblem(in, &Candidate{Problems: in.problems(c)}, "entity group transactions hold 1 of the 20") {
		t.Errorf("a partition per entity: problems %v", in.problems(c))
	}
	rate := in.Mix[0].Rate // the batches'
	if got := guid.WriteEntitiesPerSec; got > 1.01*rate || got < rate {
		t.Errorf("a partition per entity writes %v entities/s at %v transactions/s", got, rate)
	}
	if got, want := tenant.WriteEntitiesPerSec, rate*tenant.BatchFill; got != want {
		t.Errorf("tenant writes %v entities/s, want %v", got, want)
	}
}
