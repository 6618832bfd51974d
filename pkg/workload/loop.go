package workload

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
)

// pool runs the workers of the run phase, closed or open loop.
type pool struct {
	plan    *plan.Plan
	reg     *metrics.Registry
	main    Store
	indexes []Store
	retry   plan.Retrier
	clock   Clock
	workers int
	// maxOps bounds the operations started in the measured window (0: no
	// bound); operations of the warm-up do not count.
	maxOps      int64
	measureFrom time.Time
	started     atomic.Int64
	spent       atomic.Bool // the max_operations budget ran out
	ledger      *ledger     // nil unless the run verifies
	// used is how many workers the run started: workers in a closed
	// loop, as many as its operations needed in an open one.
	used   int
	health *health
	// stop ends the run: nothing new starts after it; deadline is the
	// planned end of the measured window.
	stop     context.Context
	deadline time.Time
}

func (p *pool) executor(w int, rec *metrics.Recorder, st *keygen.Stream) *executor {
	return &executor{plan: p.plan, main: p.main, indexes: p.indexes, worker: int64(w), ledger: p.ledger,
		a: attempts{rec: rec, retry: p.retry, st: st, clock: p.clock, health: p.health, more: p.stop}}
}

// claim reserves one operation starting at at: of the max_operations
// budget when at is in the measured window. Once it refuses, spent is set.
func (p *pool) claim(at time.Time) bool {
	if p.maxOps == 0 || at.Before(p.measureFrom) || p.started.Add(1) <= p.maxOps {
		return true
	}
	p.spent.Store(true)
	return false
}

// closed runs workers flat out until the stop: each starts its next
// operation as soon as the previous one ends. In-flight operations use opCtx.
func (p *pool) closed(opCtx context.Context) {
	p.used = p.workers
	g := clock.NewGroup(p.clock)
	for w := 0; w < p.workers; w++ {
		g.Go(func() {
			pl := p.plan.NewPlanner(w)
			x := p.executor(w, p.reg.NewRecorder(), pl.Stream())
			for p.stop.Err() == nil {
				now := p.clock.Now()
				if !p.claim(now) {
					return
				}
				x.execute(opCtx, pl.Next(), now)
				p.paceVirtual(now)
			}
		})
	}
	g.Wait()
}

// virtualStep is the least virtual time a closed-loop operation takes: on
// a virtual clock an operation that sent no request (a step with nothing
// to act on) takes no time at all, and a worker doing nothing but those
// would hold the clock at one instant for ever. A millisecond, a request's
// order of magnitude, keeps such a worker's dropped operations countable.
const virtualStep = time.Millisecond

// paceVirtual makes an operation of the closed loop that started at start
// take at least virtualStep, on a virtual clock.
func (p *pool) paceVirtual(start time.Time) {
	if clock.IsVirtual(p.clock) && !p.clock.Now().After(start) {
		p.clock.Sleep(p.stop, virtualStep)
	}
}

// job is a step handed to a worker of the open loop, with when it was due.
type job struct {
	step      plan.Step
	scheduled time.Time
}

// openStartWorkers is how many workers an open loop starts with; it adds
// more as its operations need them (openPool).
const openStartWorkers = 8

// open starts operations on the pacer's schedule, whatever the latency. One
// scheduler plans every step (so the plan is deterministic for a seed) and
// hands it to an idle worker through a queue (openQueueDepth); when the
// queue is full the step is dropped and counted, never silently skipped.
// Latency is measured from the scheduled start (the pacer's Due), so
// waiting in the queue and a late scheduler count (coordinated omission
// corrected).
func (p *pool) open(opCtx context.Context, pacer plan.Pacer, start time.Time) {
	op := &openPool{p: p, ctx: opCtx, jobs: clock.NewQueue[job](p.clock, openQueueDepth(pacer, p.workers)), recs: p.openRecorders(),
		wg: clock.NewGroup(p.clock)}
	for range min(p.workers, openStartWorkers) {
		op.add()
	}
	sched := p.plan.NewPlanner(p.workers) // planner id past the workers'
	d := dropper{rec: p.reg.NewRecorder(), plan: p.plan}
	n := p.schedule(pacer, start, sched, op, d)
	p.dropUnstarted(pacer, start, sched, n, d)
	op.jobs.Close()
	op.wg.Wait()
	p.used = op.workers
}

// openQueueWindow is how late, at the schedule's peak rate, an operation
// may start before it is dropped: the open loop's queue holds that many
// seconds of operations (and at least as many as the workers). A queue as
// deep as the pool (1,000 operations, 25 ms at 40,000/s) dropped work at
// every collection of the garbage collector: a cycle that slows a
// CPU-bound process by a quarter for 300 ms leaves more than that behind.
const openQueueWindow = 250 * time.Millisecond

// openQueueMax bounds the open loop's queue.
const openQueueMax = 1 << 20

// openQueueDepth is the open loop's queue depth for pacer: openQueueWindow
// of its peak rate (sampled every 100 ms of its schedule), at least
// workers, at most openQueueMax.
func openQueueDepth(pacer plan.Pacer, workers int) int {
	peak := 0.0
	for at := time.Duration(0); at <= pacer.Total(); at += 100 * time.Millisecond {
		peak = max(peak, pacer.Rate(at))
	}
	depth := math.Ceil(peak * openQueueWindow.Seconds())
	return int(min(max(depth, float64(workers)), openQueueMax))
}

// openPool is the open loop's workers. It starts with openStartWorkers and
// adds one whenever an operation handed out finds no idle worker (it
// stays queued), up to the pool's workers: a load holds as many workers
// as its operations are in flight at once (rate × latency, Little's law),
// so a target that answers in microseconds keeps a few, one that holds its
// answers keeps more, and neither pays for idle ones. Workers are added by
// the scheduler alone.
//
// The workers share a few recorders (openRecorders), worker w recording
// into recs[w % len(recs)]: a recorder keeps a latency histogram for every
// partition it touched in the last seconds, so one per worker made a pool
// grown to a thousand workers by a pause of a few tens of milliseconds
// hold tens of megabytes of them, which the collector marked a few times a
// second for the rest of the run.
type openPool struct {
	p       *pool
	ctx     context.Context
	jobs    clock.Queue[job]
	recs    []*metrics.Recorder
	wg      clock.Group
	workers int
}

// openRecordersPerCPU is how many recorders the open loop's workers share
// for each CPU the process may use: only as many workers as CPUs record at
// once, so a few per CPU keep their mutexes uncontended.
const openRecordersPerCPU = 2

// openRecorders returns the recorders the open loop's workers share
// (on a virtual clock, as many as on a machine of virtualCPUs: its
// workers run one at a time, and the run must not depend on the machine).
func (p *pool) openRecorders() []*metrics.Recorder {
	n := min(p.workers, openRecordersPerCPU*cpus(p.clock))
	recs := make([]*metrics.Recorder, max(n, 1))
	for i := range recs {
		recs[i] = p.reg.NewRecorder()
	}
	return recs
}

// add starts one more worker.
func (o *openPool) add() {
	w := o.workers
	o.workers++
	rec := o.recs[w%len(o.recs)]
	o.wg.Go(func() { o.p.openWorker(o.ctx, w, rec, o.jobs) })
}

// hand queues j for a worker, adding one when none was idle to take it;
// false when the queue is full (j must be dropped).
func (o *openPool) hand(j job) bool {
	if !o.jobs.TrySend(j) {
		return false
	}
	// A send to a worker waiting on the queue hands j over at once; what
	// stays queued found every worker busy.
	if o.jobs.Len() > 0 && o.workers < o.p.workers {
		o.add()
	}
	return true
}

// openWorker is worker w of the open loop: it performs the jobs, recording
// into rec (which other workers share), until the queue is closed. A job
// it takes once the run has stopped (its window ended, or Ctrl-C) could
// not start in time: it is dropped, not run after the window it was due in.
func (p *pool) openWorker(opCtx context.Context, w int, rec *metrics.Recorder, jobs clock.Queue[job]) {
	st := keygen.NewStream(p.plan.Seed^0xb0ff, uint64(w))
	x := p.executor(w, rec, &st)
	d := dropper{rec: rec, plan: p.plan}
	for {
		j, ok := jobs.Recv()
		if !ok {
			return
		}
		if p.stop != nil && p.stop.Err() != nil {
			d.drop(j.step, j.scheduled)
			continue
		}
		x.execute(opCtx, j.step, j.scheduled)
	}
}

// schedule hands the pacer's operations to the workers as they fall due,
// dropping those no worker is free for, until the schedule or the
// max_operations budget ends or the run stops; it returns the number of
// the first operation it did not hand out or drop.
func (p *pool) schedule(pacer plan.Pacer, start time.Time, sched *plan.Planner, op *openPool, d dropper) uint64 {
	n := uint64(0)
	for ; ; n++ {
		due, ok := pacer.Due(n)
		if !ok {
			return n
		}
		at := start.Add(due)
		if !p.claim(at) {
			return n
		}
		if wait := at.Sub(p.clock.Now()); wait > 0 && !p.clock.Sleep(p.stop, wait) {
			return n
		}
		step := sched.Next()
		if p.stop.Err() != nil {
			d.drop(step, at) // due before the stop, but the scheduler ran late
			return n + 1
		}
		if !op.hand(job{step, at}) {
			d.drop(step, at)
		}
	}
}

// dropUnstarted drops, from operation n on, what was due before the
// window's end but could not be started (the scheduler was late when the
// run stopped): dropped, never skipped.
func (p *pool) dropUnstarted(pacer plan.Pacer, start time.Time, sched *plan.Planner, n uint64, d dropper) {
	end := p.deadline
	if now := p.clock.Now(); now.Before(end) {
		end = now
	}
	for ; p.stop.Err() != nil; n++ {
		due, ok := pacer.Due(n)
		at := start.Add(due)
		if !ok || !at.Before(end) || !p.claim(at) {
			break
		}
		d.drop(sched.Next(), at)
	}
}

// dropper records the open loop's operations that could not start.
type dropper struct {
	rec  *metrics.Recorder
	plan *plan.Plan
}

// drop records step, due at at, as dropped, and gives back a delete's
// claim on its entity.
func (d dropper) drop(step plan.Step, at time.Time) {
	if step.Op.Kind == metrics.Question {
		d.rec.QuestionDropped(step.Op.Question, at)
	} else {
		d.rec.Dropped(step.Op.Kind, at)
	}
	if step.Op.Kind == metrics.Delete && !step.Missing {
		d.plan.Unclaim(step.Entity)
	}
}
