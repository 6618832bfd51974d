package workload

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
)

// pool runs the workers of the run phase, closed or open loop.
type pool struct {
	plan    *Plan
	reg     *metrics.Registry
	main    Store
	indexes []Store
	retry   Retrier
	clock   Clock
	workers int
	maxOps  int64 // 0: no limit
	started atomic.Int64
	ledger  *ledger // nil unless the run verifies
	health  *health
}

func (p *pool) executor(w int, rec *metrics.Recorder, st *keygen.Stream) *executor {
	return &executor{plan: p.plan, main: p.main, indexes: p.indexes, worker: int64(w), ledger: p.ledger,
		a: attempts{rec: rec, retry: p.retry, st: st, clock: p.clock, health: p.health}}
}

// claim reserves one operation of the max_operations budget.
func (p *pool) claim() bool {
	return p.maxOps == 0 || p.started.Add(1) <= p.maxOps
}

// closed runs workers flat out until stop is done: each starts its next
// operation as soon as the previous one ends. In-flight operations use opCtx.
func (p *pool) closed(stop, opCtx context.Context) {
	var wg sync.WaitGroup
	for w := 0; w < p.workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			pl := p.plan.NewPlanner(w)
			x := p.executor(w, p.reg.NewRecorder(), pl.Stream())
			for stop.Err() == nil && p.claim() {
				step := pl.Next()
				x.execute(opCtx, step, p.clock.Now())
			}
		}(w)
	}
	wg.Wait()
}

// open starts operations on the pacer's schedule, whatever the latency. One
// scheduler plans every step (so the plan is deterministic for a seed) and
// hands it to an idle worker through a queue as deep as the pool; when the
// queue is full the step is dropped and counted, never silently skipped.
// Latency is measured from the scheduled start, so waiting in the queue
// counts (coordinated omission corrected).
func (p *pool) open(stop, opCtx context.Context, pacer Pacer, start time.Time) {
	type job struct {
		step      Step
		scheduled time.Time
	}
	jobs := make(chan job, p.workers)
	var wg sync.WaitGroup
	sched := p.plan.NewPlanner(p.workers) // planner id past the workers'
	for w := 0; w < p.workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			st := keygen.NewStream(p.plan.Seed^0xb0ff, uint64(w))
			x := p.executor(w, p.reg.NewRecorder(), &st)
			for j := range jobs {
				x.execute(opCtx, j.step, j.scheduled)
			}
		}(w)
	}
	rec := p.reg.NewRecorder()
	for n := uint64(0); ; n++ {
		wait, done := pacer.Pace(p.clock.Now().Sub(start), n)
		if done || !p.claim() {
			break
		}
		if wait > 0 && !p.clock.Sleep(stop, wait) {
			break
		}
		if stop.Err() != nil {
			break
		}
		due, _ := pacer.Pace(0, n) // when operation n was due, even if the scheduler woke late
		step := sched.Next()
		select {
		case jobs <- job{step, start.Add(due)}:
		default:
			rec.Dropped(step.Op.Metric, p.clock.Now())
			if step.Op.Spec.Op == "delete" && !step.Missing {
				p.plan.Unclaim(step.Entity)
			}
		}
	}
	close(jobs)
	wg.Wait()
}
