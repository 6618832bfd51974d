package judge

import (
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// fillBatches is how many transactions batchFill assembles.
const fillBatches = 256

// batches measures the fill of every batch entry of the mix.
func (j *judging) batches() error {
	for k, o := range j.in.Mix {
		if o.Kind != metrics.Batch {
			continue
		}
		f, err := batchFill(j.in, j.scheme, o.Spec)
		if err != nil {
			return err
		}
		j.fill[k] = f
		j.p.BatchFill, j.p.BatchSize = f, o.Spec.Size
	}
	return nil
}

// batchFill is the mean entities per entity group transaction a batch
// operation gets under scheme: the run's own planner assembles
// fillBatches of them from the stream of new entities (a transaction
// needs one PartitionKey, so it holds only the new entities that share
// one; pkg/workload's batcher). Each worker of a run assembles its own
// from every worker's share of the stream, which has the same law.
func batchFill(in *Input, scheme *keygen.Scheme, op scenario.Operation) (float64, error) {
	sc := *in.Scenario
	sc.Workload.Mix = []scenario.Operation{op}
	plan, err := plan.NewPlan(&sc, in.Pop, scheme, in.Seeded, in.Scenario.Seed)
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

// newEntities is the new entities written a second under the scheme (a
// batch entry at the fill it gets).
func (j *judging) newEntities() (entities float64) {
	for k, o := range j.in.Mix {
		switch o.Kind {
		case metrics.Insert:
			entities += o.Rate
		case metrics.Batch:
			entities += o.Rate * j.fill[k]
		}
	}
	return entities
}
