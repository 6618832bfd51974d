package workload

import (
	"context"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
)

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
	cpu     CPUUse // over the measured window
	workers int    // the workers the run started (pool.used)
}

// runPhase drives the workload and returns its summary. The measured
// window runs from the end of the warm-up to the planned end, or to an
// earlier stop (Ctrl-C, max_operations, an abort_on_fail threshold, the
// target down); operations in flight at the stop finish their current
// request, start no retry or page after it, and count in the window's last
// second (metrics.Options.End). The stop is watched by a stopWatcher, the
// seconds are ticked by a phaseTicker, each on a goroutine of its own.
func (c *Config) runPhase(ctx context.Context, plan *plan.Plan, main Store, indexes []Store, led *ledger) (*metrics.Summary, time.Time, phaseResult) {
	start := c.Clock.Now()
	measureFrom := start.Add(c.Warmup)
	deadline := measureFrom.Add(c.Duration)
	reg := metrics.NewRegistry(metrics.Options{PartitionTarget: c.PartitionTarget, PartitionUnits: c.PartitionUnits, Start: measureFrom, End: deadline,
		Questions: c.questionNames()})
	if c.OnRegistry != nil {
		c.OnRegistry(reg)
	}
	stop, cancelStop := c.Clock.WithDeadline(ctx, deadline)
	defer cancelStop()
	h := newHealth(start)
	if !c.Reconnect {
		h.watchDenied()
	}
	opCtx, cancelOps := context.WithCancel(c.Hard)
	defer cancelOps()
	sw := newStopWatcher(stop, opCtx, cancelOps, c.Clock, deadline, c.Grace, reg.SetEnd)
	watcher := clock.NewGroup(c.Clock)
	watcher.Go(sw.watch)

	p := &pool{plan: plan, reg: reg, main: main, indexes: indexes, retry: c.Retry, clock: c.Clock, workers: c.Workers,
		maxOps: c.MaxOps, measureFrom: measureFrom, ledger: led, health: h, stop: stop, deadline: deadline}
	t := c.newPhaseTicker(reg, h, start, measureFrom, cancelStop)
	done := make(chan struct{})
	ticker := clock.NewGroup(c.Clock)
	ticker.Go(func() { t.run(done) })
	if pacer := c.Pacer(); pacer != nil {
		p.open(opCtx, pacer, start)
	} else {
		p.closed(opCtx)
	}
	close(done)
	ticker.Wait()
	ph := t.result(c.Clock.Now())
	ph.workers = p.used
	// The window ends at the planned end (an open-loop schedule's last
	// operation may complete before it), at an early stop, or when the last
	// operation of a run bounded by max_operations completed.
	end := deadline
	if at, early := sw.earlyStop(); early {
		end = at
	} else if now := c.Clock.Now(); p.spent.Load() && now.Before(deadline) {
		end = now
	}
	sum := reg.Finish(end)
	cancelStop()
	cancelOps() // the watcher returns at once: the phase is over
	watcher.Wait()
	return sum, start, ph
}
