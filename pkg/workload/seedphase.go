package workload

import (
	"context"
	"fmt"

	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// seedPhase prepares the main table for the run: it seeds the population
// and counts the rows written, or with SkipSeed checks the table seeded
// before (checkSeeded). It records what it did in res. An interruption is
// ErrInterrupted with the rows written so far.
func (c *Config) seedPhase(ctx context.Context, res *Result, plan *plan.Plan, main Store, indexes []Store) error {
	if c.SkipSeed {
		c.enter(PhaseCountSeed)
		n, err := checkSeeded(ctx, plan, main, c.Entities, res.Table, c.Clock)
		res.SeedCounted, res.Seed.Reused = n, true
		return err
	}
	if c.Entities <= 0 {
		return nil
	}
	c.enter(PhaseSeed)
	seedRes, err := Seed(ctx, SeedConfig{Plan: plan, Main: main, Indexes: indexes, Entities: c.Entities,
		Workers: min(max(c.Workers, 8), 64), Limits: c.SeedLimits, Progress: c.Events.SeedProgress, Clock: c.Clock,
		Explain: func(r table.Result) string { return explain(c.Hard, c.Service, r, "insert", c.mainTable) }})
	res.Seed = seedRes
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w during the seed phase, with %s of %s rows written", ErrInterrupted, textfit.Int(seedRes.Written),
			textfit.Int(c.Entities*int64(plan.Scheme.RowsPerEntity())))
	}
	if err != nil {
		return err
	}
	c.enter(PhaseCountSeed)
	n, err := CountRows(ctx, main, c.Clock)
	if err != nil {
		return err
	}
	res.SeedCounted = n
	if c.Shards <= 1 && !c.Reuse && n < res.Seed.Rows-res.Seed.Collisions && n != res.Seed.Rows {
		return fmt.Errorf("%w: wrote %d rows but the table holds %d", ErrSeed, res.Seed.Rows, n)
	}
	return nil
}
