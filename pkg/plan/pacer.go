package plan

import (
	"math"
	"time"
)

// Pacer is an open-loop schedule: when each operation is due, whatever the
// latency of the ones before it. Pacers are pure functions of their
// arguments: they read no clock and are safe for concurrent use.
type Pacer interface {
	// Due returns when operation n (0-based) is due, counted from the start
	// of the run (warm-up included), or false when the schedule ends before
	// it. Due is non-decreasing in n.
	Due(n uint64) (time.Duration, bool)
	// Rate returns the intended operations per second at elapsed.
	Rate(elapsed time.Duration) float64
	// Total is how long the schedule lasts.
	Total() time.Duration
}

// Stage is one leg of a ramp: the rate moves linearly to Target over
// Duration.
type Stage struct {
	Duration time.Duration
	Target   float64
}

// NewPacer returns the schedule of an open-loop load: the warm-up at the
// load's warm-up rate, then for duration either its constant rate or its
// stages, ramping from its rate.
func NewPacer(l Load, warmup, duration time.Duration) Pacer {
	var p Profile
	if warmup > 0 {
		p = p.then(l.WarmupRate, Stage{Duration: warmup, Target: l.WarmupRate})
	}
	if len(l.Stages) == 0 {
		return p.then(l.Rate, Stage{Duration: duration, Target: l.Rate})
	}
	return p.then(l.Rate, l.Stages...)
}

// Profile is a piecewise-linear rate: each segment moves the rate linearly
// from its start rate to its end rate; consecutive segments may step. The
// number of operations due by time t is H(t), the integral of the rate;
// operation n is due at the t where H(t) = n, found in its segment by
// solving r0·τ + (r1−r0)/(2d)·τ² = n − H(segment start) for τ in [0, d].
type Profile struct {
	segs []segment
}

// segment is a linear ramp from r0 to r1 over d.
type segment struct {
	d      time.Duration
	r0, r1 float64
}

var _ Pacer = Profile{}

// NewProfile returns the profile ramping from rate from through the stages.
func NewProfile(from float64, stages ...Stage) Profile { return Profile{}.then(from, stages...) }

// then returns p followed by the stages, the first ramping from rate from.
func (p Profile) then(from float64, stages ...Stage) Profile {
	p.segs = append([]segment(nil), p.segs...)
	r0 := from
	for _, st := range stages {
		p.segs = append(p.segs, segment{d: st.Duration, r0: r0, r1: st.Target})
		r0 = st.Target
	}
	return p
}

// Due implements Pacer.
func (p Profile) Due(n uint64) (time.Duration, bool) {
	offset, before := time.Duration(0), 0.0
	x := float64(n)
	for _, s := range p.segs {
		d := s.d.Seconds()
		hits := (s.r0 + s.r1) / 2 * d
		if x < before+hits {
			tau := solveRamp(s.r0, s.r1, d, x-before)
			return offset + time.Duration(tau*float64(time.Second)), true
		}
		before += hits
		offset += s.d
	}
	return 0, false
}

// solveRamp returns τ in [0, d] with r0·τ + (r1−r0)/(2d)·τ² = h.
func solveRamp(r0, r1, d, h float64) float64 {
	a := (r1 - r0) / (2 * d)
	if math.Abs(a) < 1e-12 {
		if r0 <= 0 {
			return d
		}
		return h / r0
	}
	disc := r0*r0 + 4*a*h
	if disc < 0 {
		disc = 0
	}
	tau := (-r0 + math.Sqrt(disc)) / (2 * a)
	return math.Min(math.Max(tau, 0), d)
}

// Rate implements Pacer.
func (p Profile) Rate(elapsed time.Duration) float64 {
	offset := time.Duration(0)
	for _, s := range p.segs {
		if elapsed < offset+s.d {
			f := float64(elapsed-offset) / float64(s.d)
			return s.r0 + (s.r1-s.r0)*f
		}
		offset += s.d
	}
	return 0
}

// Total implements Pacer.
func (p Profile) Total() time.Duration {
	var d time.Duration
	for _, s := range p.segs {
		d += s.d
	}
	return d
}
