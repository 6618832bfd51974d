package workload

import (
	"context"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// phaseTicker is the run phase's clock, on one goroutine (run) while the
// workers drive the load:
//   - once a second of the phase, at start + k seconds on the run's Clock
//     (not a second after the previous tick, so a late tick does not
//     delay the next), it merges the workers' recorders
//     (metrics.Registry.Tick), reports the interval (Events.Interval),
//     checks the abort_on_fail thresholds (stopping the run at the first
//     that fails, and checking no further) and judges the target's health:
//     a target down stops the run, or with Reconnect is recorded as an
//     outage (outageTracker);
//   - when the warm-up ends it enters PhaseRun, without a tick;
//   - on the first refusal no retry cures (health.denied) it stops the run
//     at once.
//
// To stop the run it calls stop, once per cause. result may be read once
// run has returned.
type phaseTicker struct {
	c         *Config
	reg       *metrics.Registry
	health    *health
	start     time.Time // the phase's start: tick k falls at start + k s
	downAfter time.Duration
	abort     func(*metrics.Summary) string // nil: no abort_on_fail threshold
	stop      context.CancelFunc
	warmAt    time.Time       // the end of the warm-up, while it lasts (zero after)
	denied    <-chan struct{} // nil once handled
	outages   outageTracker
	ph        phaseResult
	cpuFrom   cpuSample // at the start of the measured window
}

// newPhaseTicker returns the ticker of a phase that started at start and
// measures from measureFrom, and enters the phase's first step (the
// warm-up, or the run).
func (c *Config) newPhaseTicker(reg *metrics.Registry, h *health, start, measureFrom time.Time, stop context.CancelFunc) *phaseTicker {
	t := &phaseTicker{c: c, reg: reg, health: h, start: start, downAfter: c.DownAfter, abort: c.abortCheck(), stop: stop,
		denied: h.denied, outages: outageTracker{from: measureFrom}}
	if t.downAfter <= 0 {
		t.downAfter = 5 * time.Second
	}
	if c.Warmup > 0 {
		c.enter(PhaseWarmup)
		t.warmAt = start.Add(c.Warmup)
	} else {
		t.measure()
	}
	return t
}

// run ticks until done is closed.
func (t *phaseTicker) run(done <-chan struct{}) {
	clock := t.c.Clock
	for k := 1; ; {
		next := t.start.Add(time.Duration(k) * time.Second)
		warm := !t.warmAt.IsZero() && t.warmAt.Before(next)
		if warm {
			next = t.warmAt
		}
		if !clock.Until(next, done, t.denied) {
			if isDone(done) {
				return
			}
			// a refusal no retry cures: stop at once
			t.denied = nil
			if t.c.refused(t.health, &t.ph) {
				t.stop()
			}
			continue
		}
		if warm {
			t.measure()
			t.warmAt = time.Time{}
			continue
		}
		t.tick()
		k++
	}
}

// isDone reports whether ch is closed.
func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// measure enters PhaseRun, the measured window, and notes the CPU used so
// far.
func (t *phaseTicker) measure() {
	t.c.enter(PhaseRun)
	t.cpuFrom = sampleCPU()
}

// tick is the work of one second.
func (t *phaseTicker) tick() {
	c := t.c
	iv := t.reg.Tick(c.Clock.Now())
	if c.Events.Interval != nil {
		c.Events.Interval(iv, t.reg.Live())
	}
	if t.abort != nil && t.ph.aborted == "" {
		if why := t.abort(t.reg.Snapshot(c.Clock.Now())); why != "" {
			t.ph.aborted = why
			t.stop()
		}
	}
	now := c.Clock.Now()
	down, cause := t.health.verdict(now, t.downAfter)
	if down && !c.Reconnect && t.ph.down == "" {
		t.ph.down = cause
		t.stop()
		return
	}
	t.outages.verdict(now, down, cause, time.Unix(0, t.health.lastAnswer.Load()))
}

// result is what the phase learnt besides its figures, with an outage
// still open at now closed there.
func (t *phaseTicker) result(now time.Time) phaseResult {
	t.ph.outages = t.outages.finish(now)
	if !t.cpuFrom.at.IsZero() {
		t.ph.cpu = t.cpuFrom.since(sampleCPU())
	}
	return t.ph
}
