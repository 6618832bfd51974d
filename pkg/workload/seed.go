package workload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// SeedConfig configures the seed phase: write entities [0, Entities) of the
// population under the scheme, in entity group transactions of up to 100
// same-partition rows, with Workers in parallel.
type SeedConfig struct {
	Plan     *Plan
	Main     Store
	Indexes  []Store
	Entities int64
	Workers  int
	// Retry for throttled seed requests; the zero value means
	// DefaultSeedRetry. Seeding is setup, so it retries patiently.
	Retry Retrier
	// Limits pace the requests (AzureSeedLimits against Azure Storage); the
	// zero value does not limit.
	Limits SeedLimits
	// Progress, when set, is called after every batch with rows written so far.
	Progress func(done, total int64)
	Clock    Clock
}

// DefaultSeedRetry is the seed phase's retry strategy.
var DefaultSeedRetry = NewRetrier(scenario.Retry{Kind: "exponential", Delay: 200 * time.Millisecond, Min: 100 * time.Millisecond, Max: 5 * time.Second, Retries: 30})

// SeedResult describes what the seed phase wrote.
type SeedResult struct {
	Entities   int64         // entities written
	Rows       int64         // rows written in the main table (entities × rows per entity, less collisions)
	Written    int64         // main-table rows acknowledged (Rows unless the phase stopped early)
	IndexRows  int64         // rows written in index tables
	Partitions int           // distinct PartitionKeys of the main table
	Collisions int64         // rows skipped because an earlier entity of the same batch had the same keys
	Requests   int64         // requests sent, retries included
	Throttled  int64         // of which throttled
	Duration   time.Duration // wall time of the phase
	// Reused is set when the run skipped the seed phase on a table seeded
	// before (Config.SkipSeed); nothing was written.
	Reused bool
}

// ErrSeed is returned when the seed phase could not write everything.
var ErrSeed = errors.New("workload: seed phase failed")

// seedChunk is how many consecutive entities are grouped by partition at once.
const seedChunk = 20_000

// batchBytes keeps a transaction under Azure's 4 MiB with room for the
// multipart envelope.
const batchBytes = 3 << 20

type seedJob struct {
	store   Store
	pk      string
	actions []table.Action
	rows    int64
	index   bool
}

// Seed writes the population. Rows are written with upserts (insert-or-
// replace), so a retried transaction that had in fact succeeded does no harm.
func Seed(ctx context.Context, c SeedConfig) (SeedResult, error) {
	if c.Retry.kind == "" {
		c.Retry = DefaultSeedRetry
	}
	if c.Clock == nil {
		c.Clock = RealClock{}
	}
	start := c.Clock.Now()
	var res SeedResult
	var done, requests, throttled atomic.Int64
	jobs := make(chan seedJob, 2*c.Workers)
	errs := make(chan error, c.Workers)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	totalRows := c.Entities * int64(c.Plan.Scheme.RowsPerEntity())
	if c.Plan.Member != nil {
		totalRows = int64(c.Plan.Targets.Len()) * int64(c.Plan.Scheme.RowsPerEntity())
	}
	var pacer *seedPacer
	if c.Limits != (SeedLimits{}) {
		pacer = newSeedPacer(c.Limits, c.Clock)
	}
	for w := 0; w < max(c.Workers, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			st := keygen.NewStream(c.Plan.Seed^0x5eed, uint64(w))
			for job := range jobs {
				sent := false // the pacer let the attempt go
				last := retry(ctx, nil, c.Clock, c.Retry, &st, func(ctx context.Context) table.Result {
					if sent = pacer.wait(ctx, job.store, job.pk, len(job.actions)); !sent {
						return table.Result{Outcome: outcome.Outcome{Class: outcome.Transport}, Err: ctx.Err()}
					}
					if len(job.actions) == 1 {
						return job.store.Upsert(ctx, job.actions[0].Entity, table.UpdateModeReplace)
					}
					return job.store.Submit(ctx, job.actions)
				}, func(res table.Result, _ int) {
					if !sent {
						return
					}
					requests.Add(1)
					if res.Outcome.Class == outcome.Throttled {
						throttled.Add(1)
					}
				})
				if last.Outcome.Class != outcome.OK {
					select {
					case errs <- fmt.Errorf("%w: a transaction of %d rows failed: %v", ErrSeed, len(job.actions), last.Err):
					default:
					}
					cancel()
					continue
				}
				if !job.index {
					d := done.Add(job.rows)
					if c.Progress != nil {
						c.Progress(d, totalRows)
					}
				}
			}
		}(w)
	}
	partitions := map[string]struct{}{}
	func() {
		defer close(jobs)
		for lo := int64(0); lo < c.Entities; lo += seedChunk {
			hi := min(lo+seedChunk, c.Entities)
			if !c.produce(ctx, lo, hi, jobs, partitions, &res) {
				return
			}
		}
	}()
	wg.Wait()
	res.Partitions = len(partitions)
	res.Requests, res.Throttled, res.Written = requests.Load(), throttled.Load(), done.Load()
	res.Duration = c.Clock.Now().Sub(start)
	select {
	case err := <-errs:
		return res, err
	default:
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("%w: %v", ErrSeed, err)
	}
	return res, nil
}

// produce groups entities [lo, hi) by partition and queues their transactions.
func (c *SeedConfig) produce(ctx context.Context, lo, hi int64, jobs chan<- seedJob, partitions map[string]struct{}, res *SeedResult) bool {
	p := c.Plan
	var ent keygen.Entity
	var keys keygen.Keys
	type group struct {
		actions []table.Action
		bytes   int
		seen    map[string]bool
	}
	mainGroups := map[string]*group{}
	var mainOrder []string
	indexGroups := make([]map[string]*group, len(p.Scheme.Indexes))
	indexOrder := make([][]string, len(p.Scheme.Indexes))
	for k := range indexGroups {
		indexGroups[k] = map[string]*group{}
	}
	send := func(store Store, pk string, g *group, index bool) bool {
		if len(g.actions) == 0 {
			return true
		}
		job := seedJob{store: store, pk: pk, actions: g.actions, rows: int64(len(g.actions)), index: index}
		select {
		case jobs <- job:
		case <-ctx.Done():
			return false
		}
		g.actions, g.bytes = nil, 0
		return true
	}
	add := func(groups map[string]*group, order *[]string, store Store, pk string, rk []byte, body []byte, index bool) (bool, bool) {
		g := groups[pk]
		if g == nil {
			g = &group{seen: map[string]bool{}}
			groups[pk] = g
			*order = append(*order, pk)
		}
		if g.seen[string(rk)] {
			return true, false // same keys as an earlier entity: a collision
		}
		if len(g.actions) == table.MaxTransactionActions || g.bytes+len(body) > batchBytes {
			if !send(store, pk, g, index) {
				return false, false
			}
		}
		g.seen[string(rk)] = true
		g.actions = append(g.actions, table.Action{Kind: table.ActionUpsertReplace, Entity: body})
		g.bytes += len(body)
		return true, true
	}
	for i := lo; i < hi; i++ {
		p.Pop.Entity(i, &ent)
		p.Scheme.Keys(&ent, &keys)
		if p.Member != nil && !p.Member(keys.PK) {
			continue // another shard's partition
		}
		res.Entities++
		pk := string(keys.PK)
		partitions[pk] = struct{}{}
		for r := 0; r < p.Scheme.RowsPerEntity(); r++ {
			rk := keys.RK
			if r > 0 {
				rk = keys.Rows[r-1]
			}
			body := p.Pop.AppendJSON(nil, &ent, keys.PK, rk, 0)
			alive, added := add(mainGroups, &mainOrder, c.Main, pk, rk, body, false)
			if !alive {
				return false
			}
			if added {
				res.Rows++
			} else {
				res.Collisions++
			}
		}
		for k := range p.Scheme.Indexes {
			ik := keys.Index[k]
			body := keygen.AppendIndexJSON(nil, &ent, ik.PK, ik.RK, keys.PK, keys.RK)
			alive, added := add(indexGroups[k], &indexOrder[k], c.Indexes[k], string(ik.PK), ik.RK, body, true)
			if !alive {
				return false
			}
			if added {
				res.IndexRows++
			}
		}
	}
	for _, pk := range mainOrder {
		if !send(c.Main, pk, mainGroups[pk], false) {
			return false
		}
	}
	for k := range indexGroups {
		for _, pk := range indexOrder[k] {
			if !send(c.Indexes[k], pk, indexGroups[k][pk], true) {
				return false
			}
		}
	}
	return true
}

// CountRows counts the rows of a table page by page, selecting only RowKey;
// throttled or failed pages are fetched again with the seed phase's
// strategy, waiting on clock.
func CountRows(ctx context.Context, s Store, clock Clock) (int64, error) {
	pager := s.Query(ctx, table.Query{Select: []string{"RowKey"}})
	var n int64
	st := keygen.NewStream(1, 1)
	for {
		var page table.Page
		more := false
		res := retry(ctx, nil, clock, DefaultSeedRetry, &st, func(ctx context.Context) table.Result {
			var r table.Result
			page, r, more = pager.Next(ctx)
			return r
		}, nil)
		if res.Outcome.Class != outcome.OK {
			return n, fmt.Errorf("counting rows: %v", res.Err)
		}
		n += int64(len(page.Entities))
		if !more {
			return n, nil
		}
	}
}
