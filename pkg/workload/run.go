package workload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// Config is one run of one key scheme of a Spec: create the tables, seed
// them, drive the workload, clean up.
type Config struct {
	*Spec
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
	// them. It requires Table and Reuse.
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
}

// Run executes the configuration. ctx ending stops new work (the soft stop);
// Config.Hard ending cancels in-flight requests too. Run always returns a
// Result describing what happened, with an error when it could not complete.
func Run(ctx context.Context, c Config) (*Result, error) {
	if c.Clock == nil {
		c.Clock = RealClock{}
	}
	if c.Hard == nil {
		c.Hard = context.Background()
	}
	if !(c.PartitionTarget > 0) {
		c.PartitionTarget = PartitionTarget
	}
	if c.Grace <= 0 {
		c.Grace = c.Timeout
	}
	res := &Result{Table: c.Table, SeedCounted: -1}
	if c.Scheme < 0 || c.Scheme >= len(c.Schemes) {
		err := fmt.Errorf("workload: scheme %d of %d", c.Scheme, len(c.Schemes))
		res.Failure = err.Error()
		return res, err
	}
	scheme := c.Schemes[c.Scheme]
	if res.Table == "" {
		res.Table = FreshTableName(c.Scenario.DisplayName())
	} else if !ValidTableName(res.Table) {
		return res, fmt.Errorf("table name %q: Azure table names are 3-63 letters and digits starting with a letter", res.Table)
	}
	tbl := &tables{svc: c.Service}
	defer func() {
		c.enter(PhaseDone)
		if !c.Keep {
			cctx, cancel := context.WithTimeout(c.Hard, 30*time.Second)
			res.Cleanup = tbl.cleanup(cctx)
			cancel()
		}
	}()
	c.enter(PhaseCreate)
	names := []string{res.Table}
	for _, ix := range scheme.Indexes {
		names = append(names, res.Table+ix.Name)
	}
	if c.SkipSeed && (c.Table == "" || !c.Reuse) {
		err := errors.New("skipping the seed phase needs the name of a seeded table and permission to reuse it (--table, --reuse-table)")
		res.Failure = err.Error()
		return res, err
	}
	if c.Shards > 1 {
		if c.Table == "" {
			err := errors.New("a shard needs the table name shared by all shards (--table)")
			res.Failure = err.Error()
			return res, err
		}
		c.Reuse, c.Keep = true, true // the shards share the table; none deletes it
	}
	for _, name := range names {
		if err := tbl.ensure(ctx, name, c.Reuse); err != nil {
			res.Failure = err.Error()
			return res, err
		}
	}
	res.Tables = names
	main := c.Service.Store(res.Table)
	c.mainTable = res.Table
	indexes := make([]Store, len(scheme.Indexes))
	for k := range indexes {
		indexes[k] = c.Service.Store(names[k+1])
	}
	plan, err := NewShardPlan(c.Scenario, c.Pop, scheme, c.Entities, c.Seed, c.Shard, c.Shards)
	if err != nil {
		res.Failure = err.Error()
		return res, err
	}
	if err := c.seedPhase(ctx, res, plan, main, indexes); err != nil {
		res.Failure = err.Error()
		res.Interrupted = ctx.Err() != nil
		return res, err
	}
	if c.SeedOnly {
		return res, nil
	}
	var led *ledger
	if c.Verify {
		led = newLedger()
	}
	var ph phaseResult
	res.Summary, res.Start, ph = c.runPhase(ctx, plan, main, indexes, led)
	res.Aborted, res.Outages = ph.aborted, ph.outages
	if ph.down != "" {
		res.Failure = ph.down
		res.Interrupted = true
		if ph.refused {
			return res, fmt.Errorf("%w: %s", ErrRefused, strings.TrimPrefix(ph.down, refusedPrefix))
		}
		return res, fmt.Errorf("%w: %s", ErrTargetDown, ph.down)
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
	return res, nil
}

// Outage is a period the target did not answer, relative to the measured
// run's start.
type Outage struct {
	Start, End time.Duration
	Cause      string
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

// refused records in ph the refusal h saw, in the credential's terms,
// unless the run already stopped for another cause; true when it did.
func (c *Config) refused(h *health, ph *phaseResult) bool {
	if ph.down != "" {
		return false
	}
	h.mu.Lock()
	res, what := h.deniedRes, h.deniedWhat
	h.mu.Unlock()
	ph.down, ph.refused = refusedPrefix+explain(c.Hard, c.Service, res, what, c.mainTable), true
	return true
}

// phaseResult is what the run phase learnt besides its figures.
type phaseResult struct {
	aborted string
	down    string
	refused bool // down is a refusal (ErrRefused)
	outages []Outage
}

// runPhase drives the workload and returns its summary. The measured
// window runs from the end of the warm-up to the planned end, or to an
// earlier stop (Ctrl-C, max_operations, an abort_on_fail threshold, the
// target down); operations in flight at the stop finish their current
// request, start no retry or page after it, and count in the window's last
// second (metrics.Options.End).
func (c *Config) runPhase(ctx context.Context, plan *Plan, main Store, indexes []Store, led *ledger) (*metrics.Summary, time.Time, phaseResult) {
	start := c.Clock.Now()
	measureFrom := start.Add(c.Warmup)
	deadline := measureFrom.Add(c.Duration)
	reg := metrics.NewRegistry(metrics.Options{PartitionTarget: c.PartitionTarget, PartitionUnits: c.PartitionUnits, Start: measureFrom, End: deadline,
		Questions: c.questionNames()})
	if c.OnRegistry != nil {
		c.OnRegistry(reg)
	}
	stop, cancelStop := context.WithDeadline(ctx, deadline)
	defer cancelStop()
	var ph phaseResult
	downAfter := c.DownAfter
	if downAfter <= 0 {
		downAfter = 5 * time.Second
	}
	abort := c.abortCheck()
	h := newHealth(start)
	if !c.Reconnect {
		h.watchDenied()
	}
	denied := h.denied // the tick's: nil once handled
	var outageStart time.Time
	var outageCause string
	opCtx, cancelOps := context.WithCancel(c.Hard)
	defer cancelOps()
	var stoppedAt atomic.Int64      // unix ns of an early stop, 0 if none
	stopSeen := make(chan struct{}) // closed once stoppedAt holds the stop
	go func() {                     // the stop ends the window; in-flight operations get Grace, then are canceled
		<-stop.Done()
		if now := c.Clock.Now(); now.Before(deadline) {
			stoppedAt.Store(now.UnixNano())
			reg.SetEnd(now)
		}
		close(stopSeen)
		select {
		case <-c.Clock.After(c.Grace):
		case <-opCtx.Done():
		}
		cancelOps()
	}()

	p := &pool{plan: plan, reg: reg, main: main, indexes: indexes, retry: c.Retry, clock: c.Clock, workers: c.Workers,
		maxOps: c.MaxOps, measureFrom: measureFrom, ledger: led, health: h, stop: stop, deadline: deadline}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	var warmed <-chan time.Time // the end of the warm-up, while it lasts
	if c.Warmup > 0 {
		c.enter(PhaseWarmup)
		warmed = c.Clock.After(c.Warmup)
	} else {
		c.enter(PhaseRun)
	}
	go func() { // the tick: merge recorders once a second, report live figures
		defer wg.Done()
		for k := 1; ; k++ {
			select {
			case <-done:
				return
			case <-warmed:
				c.enter(PhaseRun)
				warmed, k = nil, k-1
				continue
			case <-denied: // a refusal no retry cures: stop at once
				denied = nil
				if c.refused(h, &ph) {
					cancelStop()
				}
				continue
			case <-c.Clock.After(start.Add(time.Duration(k) * time.Second).Sub(c.Clock.Now())):
				iv := reg.Tick(c.Clock.Now())
				if c.Events.Interval != nil {
					c.Events.Interval(iv, reg.Live())
				}
				if abort != nil && ph.aborted == "" {
					if why := abort(reg.Snapshot(c.Clock.Now())); why != "" {
						ph.aborted = why
						cancelStop()
					}
				}
				now := c.Clock.Now()
				down, cause := h.verdict(now, downAfter)
				switch {
				case down && !c.Reconnect && ph.down == "":
					ph.down = cause
					cancelStop()
				case down && outageStart.IsZero():
					outageStart, outageCause = time.Unix(0, h.lastAnswer.Load()), cause
					// An answer recorded late (sent before the gap, read
					// after it began) ended the previous outage early:
					// the silence since then is the same outage.
					if n := len(ph.outages); n > 0 && outageStart.Sub(measureFrom) <= ph.outages[n-1].End {
						outageStart = measureFrom.Add(ph.outages[n-1].Start)
						ph.outages = ph.outages[:n-1]
					}
				case !down && !outageStart.IsZero():
					ph.outages = append(ph.outages, Outage{Start: outageStart.Sub(measureFrom), End: now.Sub(measureFrom), Cause: outageCause})
					outageStart = time.Time{}
				}
			}
		}
	}()
	if pacer := c.Pacer(); pacer != nil {
		p.open(opCtx, pacer, start)
	} else {
		p.closed(opCtx)
	}
	close(done)
	wg.Wait()
	if !outageStart.IsZero() {
		ph.outages = append(ph.outages, Outage{Start: outageStart.Sub(measureFrom), End: c.Clock.Now().Sub(measureFrom), Cause: outageCause})
	}
	// The window ends at the planned end (an open-loop schedule's last
	// operation may complete before it), at an early stop, or when the last
	// operation of a run bounded by max_operations completed.
	end := deadline
	if stop.Err() != nil {
		// The workers saw the stop; the goroutine above may not have
		// recorded it yet (a loaded machine schedules it late).
		<-stopSeen
	}
	if ns := stoppedAt.Load(); ns != 0 {
		end = time.Unix(0, ns)
	} else if now := c.Clock.Now(); p.spent.Load() && now.Before(deadline) {
		end = now
	}
	return reg.Finish(end), start, ph
}
