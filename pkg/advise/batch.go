package advise

import (
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/workload"
)

// fillBatches is how many transactions batchFill assembles.
const fillBatches = 256

// batchFill is the mean entities per entity group transaction a batch
// operation gets under scheme: the run's own planner assembles
// fillBatches of them from the stream of new entities (a transaction
// needs one PartitionKey, so it holds only the new entities that share
// one; pkg/workload's batcher). Each worker of a run assembles its own
// from every worker's share of the stream, which has the same law.
func batchFill(in *Input, scheme *keygen.Scheme, op scenario.Operation) (float64, error) {
	sc := *in.Scenario
	sc.Workload.Mix = []scenario.Operation{op}
	plan, err := workload.NewPlan(&sc, in.Pop, scheme, in.Seeded, in.Scenario.Seed)
	if err != nil {
		return 0, err
	}
	pl := plan.NewPlanner(0)
	got := 0
	for k := 0; k < fillBatches; k++ {
		got += len(pl.Next().Batch)
	}
	return float64(got) / fillBatches, nil
}
