package workload

import "time"

// Outage is a period the target did not answer, relative to the measured
// run's start.
type Outage struct {
	Start, End time.Duration
	Cause      string
}

// outageTracker turns the run phase's once-a-second verdicts on the
// target's health (health.verdict) into the periods the target was down,
// relative to the measured window's start (from). An outage starts at the
// target's last answer before the verdict that found it down, and ends at
// the first verdict that finds it up again. An answer recorded late (sent
// before a silence, read after it began) may end an outage early: when
// the next outage starts no later than that one ended, the two are one
// outage. It is owned by one goroutine (the phase's tick).
type outageTracker struct {
	from  time.Time // the measured window's start
	start time.Time // the open outage's start; zero when none is open
	cause string
	done  []Outage
}

// verdict records the verdict at now: down, for cause, with the target's
// last answer at lastAnswer, opens an outage unless one is open; up closes
// the open one at now.
func (o *outageTracker) verdict(now time.Time, down bool, cause string, lastAnswer time.Time) {
	switch {
	case down && o.start.IsZero():
		o.start, o.cause = lastAnswer, cause
		if n := len(o.done); n > 0 && o.start.Sub(o.from) <= o.done[n-1].End {
			o.start = o.from.Add(o.done[n-1].Start)
			o.done = o.done[:n-1]
		}
	case !down && !o.start.IsZero():
		o.done = append(o.done, Outage{Start: o.start.Sub(o.from), End: now.Sub(o.from), Cause: o.cause})
		o.start = time.Time{}
	}
}

// finish closes at now an outage still open and returns every outage, in
// order.
func (o *outageTracker) finish(now time.Time) []Outage {
	if !o.start.IsZero() {
		o.done = append(o.done, Outage{Start: o.start.Sub(o.from), End: now.Sub(o.from), Cause: o.cause})
		o.start = time.Time{}
	}
	return o.done
}
