package workload

import (
	"context"
	"errors"
	"fmt"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// ErrNotSeeded is returned when a run told to skip the seed phase finds a
// table that does not hold what the seed phase would have written.
var ErrNotSeeded = errors.New("workload: the table is not seeded for this run")

// reuseSamples is how many entities checkSeeded reads back.
const reuseSamples = 16

// checkSeeded verifies, for a run that skips its seed phase (SkipSeed), that
// the main table holds the entities the seed phase would have written: it
// counts the rows, and reads back the main row of reuseSamples entities
// spread over the population (the first, the last and evenly between), all
// of which must be there. A table seeded with another scenario, seed or
// --entities fails the read-back. It returns the rows counted.
func checkSeeded(ctx context.Context, plan *plan.Plan, main Store, entities int64, name string, clock Clock) (int64, error) {
	n, err := CountRows(ctx, main, clock)
	if err != nil {
		return n, err
	}
	if n == 0 {
		return 0, fmt.Errorf("%w: table %q is empty; seed it first (tablestress seed with --table %s --keep-table) or run without --skip-seed", ErrNotSeeded, name, name)
	}
	var sample []int64
	if plan.Targets != nil { // a shard or target partitions: their own entities
		sample = plan.Targets.Spread(reuseSamples)
	} else {
		for k := int64(0); k < reuseSamples && k < entities; k++ {
			sample = append(sample, k*(entities-1)/max(min(reuseSamples, entities)-1, 1))
		}
	}
	var ent keygen.Entity
	var keys keygen.Keys
	st := keygen.NewStream(plan.Seed^0x5eed, 0)
	for _, i := range sample {
		plan.Pop.Entity(i, &ent)
		plan.Scheme.Keys(&ent, &keys)
		pk, rk := string(keys.PK), string(keys.RK)
		res := retry(ctx, nil, clock, DefaultSeedRetry, &st, func(ctx context.Context) table.Result {
			return main.Get(ctx, pk, rk, []string{"RowKey"})
		}, nil)
		switch {
		case res.Outcome.Class == outcome.OK && res.Entities > 0:
		case res.Outcome.Status == 404 || res.Outcome.Class == outcome.OK:
			return n, fmt.Errorf("%w: table %q holds %s rows but not entity %s of this scenario (PartitionKey %q, RowKey %q): it was seeded with another scenario, seed or --entities; seed it again or run without --skip-seed",
				ErrNotSeeded, name, textfit.Int(n), textfit.Int(i), pk, rk)
		default:
			return n, fmt.Errorf("reading back entity %s of the seeded table: %v", textfit.Int(i), res.Err)
		}
	}
	return n, nil
}
