package workload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// SeedConfig configures the seed phase: write entities [0, Entities) of the
// population under the scheme, in entity group transactions of up to 100
// same-partition rows, with Workers in parallel.
type SeedConfig struct {
	Plan     *plan.Plan
	Main     Store
	Indexes  []Store
	Entities int64
	Workers  int
	// Retry for throttled seed requests; the zero value means
	// DefaultSeedRetry. Seeding is setup, so it retries patiently.
	Retry plan.Retrier
	// Limits pace the requests (AzureSeedLimits against Azure Storage); the
	// zero value does not limit.
	Limits SeedLimits
	// Progress, when set, is called after every batch with rows written so far.
	Progress func(done, total int64)
	Clock    Clock
	// Explain, when set, words a failed transaction's refusal (see
	// Explainer); by default its error is shown.
	Explain func(res table.Result) string
}

// DefaultSeedRetry is the seed phase's retry strategy.
var DefaultSeedRetry = plan.NewRetrier(scenario.Retry{Kind: "exponential", Delay: 200 * time.Millisecond, Min: 100 * time.Millisecond, Max: 5 * time.Second, Retries: 30})

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
	// Status counts the requests by their outcome's key, as the run's
	// status counts do ("202", "503 ServerBusy", "500", "transport"):
	// every attempt, the ones retried included.
	Status map[string]int64
}

// ErrSeed is returned when the seed phase could not write everything.
var ErrSeed = errors.New("workload: seed phase failed")

// seedChunk is how many consecutive entities are grouped by partition at once.
const seedChunk = 20_000

// batchBytes keeps a transaction under Azure's 4 MiB with room for the
// multipart envelope.
const batchBytes = 3 << 20

// seedJob is one transaction of the seed phase: rows of one partition of
// a table, as JSON bodies.
type seedJob struct {
	store  Store
	pk     string
	bodies [][]byte
	index  bool
}

// send writes the job's rows with upserts: directly to a Loader, else as
// an entity group transaction (one Upsert for a single row).
func (job seedJob) send(ctx context.Context) table.Result {
	if l, ok := job.store.(Loader); ok {
		return l.Load(ctx, job.bodies)
	}
	if len(job.bodies) == 1 {
		return job.store.Upsert(ctx, job.bodies[0], table.UpdateModeReplace)
	}
	actions := make([]table.Action, len(job.bodies))
	for i, b := range job.bodies {
		actions[i] = table.Action{Kind: table.ActionUpsertReplace, Entity: b}
	}
	return job.store.Submit(ctx, actions)
}

// Seed writes the population. Rows are written with upserts (insert-or-
// replace), so a retried transaction that had in fact succeeded does no harm.
func Seed(ctx context.Context, c SeedConfig) (SeedResult, error) {
	if c.Retry.IsZero() {
		c.Retry = DefaultSeedRetry
	}
	if c.Clock == nil {
		c.Clock = clock.Wall{}
	}
	start := c.Clock.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sd := newSeeder(c, cancel)
	jobs := clock.NewQueue[seedJob](c.Clock, 2*c.Workers)
	workers := clock.NewGroup(c.Clock)
	for w := 0; w < max(c.Workers, 1); w++ {
		workers.Go(func() { sd.worker(ctx, w, jobs) })
	}
	res := c.produceAll(ctx, jobs)
	jobs.Close()
	workers.Wait()
	res.Requests, res.Throttled, res.Written = sd.requests.Load(), sd.throttled.Load(), sd.done.Load()
	res.Status = sd.status.counts()
	res.Duration = c.Clock.Now().Sub(start)
	select {
	case err := <-sd.errs:
		return res, err
	default:
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("%w: %v", ErrSeed, err)
	}
	return res, nil
}

// produceAll groups the population's chunks into transactions and queues
// them, on as many goroutines at once as the process has CPUs, each chunk
// on one (a chunk is grouped alone: its collisions are its own, and the
// transactions it makes are the same whichever goroutine makes them);
// it returns what they produced, with the main table's partitions
// counted.
func (c *SeedConfig) produceAll(ctx context.Context, jobs clock.Queue[seedJob]) SeedResult {
	chunks := (c.Entities + seedChunk - 1) / seedChunk
	producers := int(max(min(int64(cpus(c.Clock)), chunks), 1))
	results := make([]SeedResult, producers)
	parts := make([]map[string]struct{}, producers)
	var next atomic.Int64
	wg := clock.NewGroup(c.Clock)
	for k := range producers {
		parts[k] = map[string]struct{}{}
		wg.Go(func() {
			for {
				lo := (next.Add(1) - 1) * seedChunk
				if lo >= c.Entities || !c.produce(ctx, lo, min(lo+seedChunk, c.Entities), jobs, parts[k], &results[k]) {
					return
				}
			}
		})
	}
	wg.Wait()
	res := results[0]
	for k := 1; k < producers; k++ {
		r := results[k]
		res.Entities, res.Rows, res.IndexRows, res.Collisions = res.Entities+r.Entities, res.Rows+r.Rows, res.IndexRows+r.IndexRows, res.Collisions+r.Collisions
		for pk := range parts[k] {
			parts[0][pk] = struct{}{}
		}
		parts[k] = nil
	}
	res.Partitions = len(parts[0])
	return res
}

// seeder is the seed phase's workers' shared state: the counts of what
// they wrote and sent, and the first failure, which cancels the phase.
type seeder struct {
	c                         SeedConfig
	cancel                    context.CancelFunc
	pacer                     *seedPacer // nil: not paced
	totalRows                 int64
	done, requests, throttled atomic.Int64
	status                    *statusCounts
	errs                      chan error // the first failure
}

func newSeeder(c SeedConfig, cancel context.CancelFunc) *seeder {
	sd := &seeder{c: c, cancel: cancel, status: newStatusCounts(), errs: make(chan error, c.Workers),
		totalRows: c.Entities * int64(c.Plan.Scheme.RowsPerEntity())}
	if c.Plan.Member != nil {
		sd.totalRows = int64(c.Plan.Targets.Len()) * int64(c.Plan.Scheme.RowsPerEntity())
	}
	if c.Limits != (SeedLimits{}) {
		sd.pacer = newSeedPacer(c.Limits, c.Clock)
	}
	return sd
}

// worker is seed worker w: it sends the jobs it receives until jobs is
// closed; after a failure it sends nothing more.
func (sd *seeder) worker(ctx context.Context, w int, jobs clock.Queue[seedJob]) {
	st := keygen.NewStream(sd.c.Plan.Seed^0x5eed, uint64(w))
	for {
		job, ok := jobs.Recv()
		if !ok {
			return
		}
		if last := sd.send(ctx, &st, job); last.Outcome.Class != outcome.OK {
			sd.fail(job, last)
			continue
		}
		if !job.index {
			d := sd.done.Add(int64(len(job.bodies)))
			if sd.c.Progress != nil {
				sd.c.Progress(d, sd.totalRows)
			}
		}
	}
}

// send sends job, paced and retried, counting every attempt the pacer let
// go; it returns the last attempt's result.
func (sd *seeder) send(ctx context.Context, st *keygen.Stream, job seedJob) table.Result {
	sent := false // the pacer let the attempt go
	return retry(ctx, nil, sd.c.Clock, sd.c.Retry, st, func(ctx context.Context) table.Result {
		if sent = sd.pacer.wait(ctx, job.store, job.pk, len(job.bodies)); !sent {
			return table.Result{Outcome: outcome.Outcome{Class: outcome.Transport}, Err: ctx.Err()}
		}
		return job.send(ctx)
	}, func(res table.Result, _ int) {
		if !sent {
			return
		}
		sd.requests.Add(1)
		sd.status.add(res.Outcome.Key())
		if res.Outcome.Class == outcome.Throttled {
			sd.throttled.Add(1)
		}
	})
}

// fail records the failure of job (its last result last), worded by
// Explain when it is a refusal, and cancels the phase.
func (sd *seeder) fail(job seedJob, last table.Result) {
	why := fmt.Sprint(last.Err)
	if sd.c.Explain != nil && last.AccessDenied() {
		why = sd.c.Explain(last)
	}
	select {
	case sd.errs <- fmt.Errorf("%w: a transaction of %d rows failed: %s", ErrSeed, len(job.bodies), why):
	default:
	}
	sd.cancel()
}

// statusCounts counts requests by outcome key; safe for concurrent use.
type statusCounts struct {
	mu sync.Mutex
	m  map[string]int64
}

func newStatusCounts() *statusCounts { return &statusCounts{m: map[string]int64{}} }

func (s *statusCounts) add(key string) {
	s.mu.Lock()
	s.m[key]++
	s.mu.Unlock()
}

// counts returns the counts (nil when there are none).
func (s *statusCounts) counts() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) == 0 {
		return nil
	}
	return s.m
}

// CountRows counts the rows of a table page by page, selecting only RowKey;
// throttled or failed pages are fetched again with the seed phase's
// strategy, waiting on clock. A Loader counts its own rows.
func CountRows(ctx context.Context, s Store, clock Clock) (int64, error) {
	if l, ok := s.(Loader); ok {
		n, res := l.Rows()
		if res.Outcome.Class != outcome.OK {
			return 0, fmt.Errorf("counting rows: %v", res.Err)
		}
		return n, nil
	}
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
