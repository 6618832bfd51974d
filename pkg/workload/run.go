package workload

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
)

// Config is one run of one key scheme of a Spec: create the tables, seed
// them, drive the workload, clean up.
type Config struct {
	*plan.Spec
	// Scheme is the index in Spec.Schemes of the scheme to run.
	Scheme  int
	Service Service

	// Table is the main table's name; "" means a fresh unique name. Index
	// tables are named Table + index name.
	Table string
	// Reuse allows writing into tables that already exist (--reuse-table).
	Reuse bool
	// Keep leaves the tables in place after the run (--keep-table).
	Keep bool
	// SeedOnly stops after the seed phase (tablestress seed).
	SeedOnly bool
	// SkipSeed starts the run phase on a table that is already seeded
	// (tablestress seed --keep-table): it counts the rows and reads back a
	// sample of the entities the seed phase would write instead of writing
	// them. It requires Table (see CheckTable) and implies Reuse.
	SkipSeed bool
	// Verify reads back every acknowledged write after the run.
	Verify bool
	// DownAfter is how long the target may go without answering (or answer
	// nothing but refusals that retrying cannot cure) before the run stops
	// (default 5s).
	DownAfter time.Duration
	// Reconnect keeps the run going while the target is down, counting
	// every failed request, and records the outage instead of stopping.
	Reconnect bool
	// Grace is how long in-flight operations may finish after the run stops
	// (the deadline, or Ctrl-C) before they are canceled (default: the
	// request timeout).
	Grace time.Duration
	// PartitionTarget is the entities/s a partition is judged against
	// (default PartitionTarget, Azure's).
	PartitionTarget float64
	// PartitionUnits is the request units per second a partition is judged
	// against when the target charges them (a Cosmos DB physical
	// partition's share of the provisioned throughput); 0: not known.
	PartitionUnits float64
	// SeedLimits pace the seed phase (AzureSeedLimits for Azure Storage
	// accounts); the zero value does not limit.
	SeedLimits SeedLimits

	// OnRegistry, when set, receives the run phase's metrics registry as the
	// phase starts (for live exporters such as Prometheus).
	OnRegistry func(*metrics.Registry)

	// Hard, when done, cancels in-flight operations at once (a second Ctrl-C).
	Hard context.Context
	// Events receives progress; any field may be nil.
	Events Events
	Clock  Clock

	measuring bool   // the service measures (see enter)
	mainTable string // the main table's name, once Run knows it
}

// Events are the run's progress callbacks, called from the run's goroutines
// one at a time.
type Events struct {
	Phase        func(Phase)
	SeedProgress func(done, total int64)
	Interval     func(iv metrics.Interval, live metrics.Live)
}

// Result is what a run produced, also when it stopped early.
type Result struct {
	Table       string
	Tables      []string // every table the run used
	Seed        SeedResult
	SeedCounted int64 // rows counted in the main table after seeding (-1 if not counted)
	Summary     *metrics.Summary
	Start       time.Time
	// Interrupted is set when the run stopped before its end (Ctrl-C, a
	// failure of the target); Summary then covers what was done.
	Interrupted bool
	// Failure states why the run failed, if it did.
	Failure string
	// Aborted is the reason the run was stopped early by Config.Abort.
	Aborted string
	// Verify is what reading back the acknowledged writes found (Config.Verify).
	Verify *VerifyResult
	// Outages are the periods the target was down (with Reconnect).
	Outages []Outage
	// Cleanup is the error of deleting the tables, if any.
	Cleanup error
	// CPU is the CPU used over the measured window (zero when the run
	// phase did not start).
	CPU CPUUse
	// Workers is how many workers the run phase started: the pool's in a
	// closed loop, as many as its operations needed in an open one.
	Workers int
}

// Run executes the configuration. ctx ending stops new work (the soft stop);
// Config.Hard ending cancels in-flight requests too. Run always returns a
// Result describing what happened, with an error when it could not
// complete; the Result's Failure then says why (the error's text, or how
// the target failed the run).
func Run(ctx context.Context, c Config) (*Result, error) {
	c.setDefaults()
	res := &Result{Table: c.Table, SeedCounted: -1}
	err := c.run(ctx, res)
	if err != nil && res.Failure == "" {
		res.Failure = err.Error()
	}
	return res, err
}

// setDefaults fills in the clock, the hard stop, the partition target and
// the grace the configuration leaves unset.
func (c *Config) setDefaults() {
	if c.Clock == nil {
		c.Clock = clock.Wall{}
	}
	if c.Hard == nil {
		c.Hard = context.Background()
	}
	if !(c.PartitionTarget > 0) {
		c.PartitionTarget = azure.PartitionEntitiesPerSec
	}
	if c.Grace <= 0 {
		c.Grace = c.Timeout
	}
}

// run is Run's sequence: create the tables, seed them, measure, read back,
// and (deferred) delete what it created; it records in res what happened.
func (c *Config) run(ctx context.Context, res *Result) error {
	if c.Scheme < 0 || c.Scheme >= len(c.Schemes) {
		return fmt.Errorf("workload: scheme %d of %d", c.Scheme, len(c.Schemes))
	}
	scheme := c.Schemes[c.Scheme]
	if res.Table == "" {
		res.Table = c.freshTableName()
	} else if !ValidTableName(res.Table) {
		return fmt.Errorf("table name %q: Azure table names are 3-63 letters and digits starting with a letter", res.Table)
	}
	tbl := &tables{svc: c.Service}
	defer c.cleanup(res, tbl)
	c.enter(PhaseCreate)
	if err := c.checkShared(); err != nil {
		return err
	}
	main, indexes, err := c.createTables(ctx, res, tbl, scheme)
	if err != nil {
		return err
	}
	plan, err := plan.NewShardPlan(c.Scenario, c.Pop, scheme, c.Entities, c.Seed, c.Shard, c.Shards)
	if err != nil {
		return err
	}
	if err := c.seedPhase(ctx, res, plan, main, indexes); err != nil {
		res.Interrupted = ctx.Err() != nil
		return err
	}
	if c.SeedOnly {
		return nil
	}
	return c.measure(ctx, res, plan, main, indexes)
}

// freshTableName is the name of a run's new table: FreshTableName, but on
// a virtual clock (a fresh embedded service of this process, where nothing
// else lives) a name the run's seed, scheme and start decide, so that the
// service, which places partitions by table and key, sees the same run.
func (c *Config) freshTableName() string {
	hint := c.Scenario.DisplayName()
	v, ok := c.Clock.(*clock.Virtual)
	if !ok {
		return FreshTableName(hint)
	}
	h := fnv.New32a()
	fmt.Fprintf(h, "%d/%s/%d", c.Seed, c.Schemes[c.Scheme].Name, v.Since())
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], h.Sum32())
	return tableName(hint, b)
}

// checkShared checks the rules of a run on a table shared with others: a
// run skipping the seed phase, or a shard, names its table. A shard then
// reuses and keeps the table (the shards share it; none deletes it), and
// a run skipping the seed phase reuses it.
func (c *Config) checkShared() error {
	if err := CheckTable(c.Table, c.SkipSeed, c.Shards); err != nil {
		return err
	}
	c.Reuse = c.Reuse || c.SkipSeed // the seeded table exists
	if c.Shards > 1 {
		c.Reuse, c.Keep = true, true // the shards share the table; none deletes it
	}
	return nil
}

// createTables creates (or, with Reuse, opens) the main table res.Table
// and an index table per index of the scheme, named res.Table + the
// index's name, and returns their stores.
func (c *Config) createTables(ctx context.Context, res *Result, tbl *tables, scheme *keygen.Scheme) (Store, []Store, error) {
	names := []string{res.Table}
	for _, ix := range scheme.Indexes {
		names = append(names, res.Table+ix.Name)
	}
	for _, name := range names {
		if err := tbl.ensure(ctx, name, c.Reuse); err != nil {
			return nil, nil, err
		}
	}
	res.Tables = names
	c.mainTable = res.Table
	indexes := make([]Store, len(scheme.Indexes))
	for k := range indexes {
		indexes[k] = c.Service.Store(names[k+1])
	}
	return c.Service.Store(res.Table), indexes, nil
}

// cleanup ends the run: it enters PhaseDone and, unless Keep, deletes the
// tables the run created (within 30 s, even after a hard stop's start),
// recording the error in res.Cleanup.
func (c *Config) cleanup(res *Result, tbl *tables) {
	c.enter(PhaseDone)
	if !c.Keep {
		cctx, cancel := c.Clock.WithDeadline(c.Hard, c.Clock.Now().Add(30*time.Second))
		res.Cleanup = tbl.cleanup(cctx)
		cancel()
	}
}

// measure runs the run phase and, with Verify, reads back the acknowledged
// writes; a target that failed the run is its Failure.
func (c *Config) measure(ctx context.Context, res *Result, plan *plan.Plan, main Store, indexes []Store) error {
	var led *ledger
	if c.Verify {
		led = newLedger()
	}
	var ph phaseResult
	res.Summary, res.Start, ph = c.runPhase(ctx, plan, main, indexes, led)
	res.Aborted, res.Outages, res.CPU, res.Workers = ph.aborted, ph.outages, ph.cpu, ph.workers
	if ph.down != "" {
		res.Failure = ph.down
		res.Interrupted = true
		if ph.refused {
			return fmt.Errorf("%w: %s", ErrRefused, strings.TrimPrefix(ph.down, refusedPrefix))
		}
		return fmt.Errorf("%w: %s", ErrTargetDown, ph.down)
	}
	if led != nil {
		c.enter(PhaseVerify)
		vctx, cancel := context.WithCancel(c.Hard)
		res.Verify = led.verify(vctx, plan, main, min(c.Workers, 32), c.Clock)
		cancel()
	}
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.Interrupted = true
		res.Failure = "interrupted before the end of the run"
	}
	return nil
}

// ErrInterrupted is returned when the run was stopped (Ctrl-C) before it
// measured anything.
var ErrInterrupted = errors.New("workload: interrupted")

// ErrTargetDown is returned when the target stops answering.
var ErrTargetDown = errors.New("workload: the target is down")

// ErrRefused is returned when the target refused the run a request no
// retry cures (table.Result.AccessDenied): the run stopped at once.
var ErrRefused = errors.New("workload: the target refused the run")

// refusedPrefix starts the Failure of a run stopped by ErrRefused.
const refusedPrefix = "the target refused the run: "
