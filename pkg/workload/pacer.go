package workload

import (
	"math"
	"time"
)

// Pacer decides when the next operation of an open-loop run starts. Given the
// time elapsed since the run began and the number of operations already
// started, it returns how long to wait before starting the next one, or stop
// when the profile is over. Pacers are pure functions of their arguments:
// they read no clock and are safe for concurrent use.
type Pacer interface {
	Pace(elapsed time.Duration, started uint64) (wait time.Duration, stop bool)
	// Rate returns the intended operations per second at elapsed.
	Rate(elapsed time.Duration) float64
}

// ConstantPacer starts Freq operations per second for Duration: operation n
// is due at n/Freq seconds.
type ConstantPacer struct {
	Freq     float64
	Duration time.Duration
}

var _ Pacer = ConstantPacer{}

// Pace implements Pacer.
func (p ConstantPacer) Pace(elapsed time.Duration, started uint64) (time.Duration, bool) {
	if p.Freq <= 0 || elapsed >= p.Duration {
		return 0, true
	}
	due := time.Duration(float64(started) / p.Freq * float64(time.Second))
	if due >= p.Duration {
		return 0, true
	}
	if due <= elapsed {
		return 0, false
	}
	return due - elapsed, false
}

// Rate implements Pacer.
func (p ConstantPacer) Rate(time.Duration) float64 { return p.Freq }

// Stage is one leg of a StagesPacer: the rate moves linearly to Target over Duration.
type Stage struct {
	Duration time.Duration
	Target   float64
}

// StagesPacer ramps the rate linearly from Start through each stage's target,
// like k6's ramping-arrival-rate. The number of operations due by time t is
// H(t), the integral of the rate; operation n is due at the t where
// H(t) = n, found per stage by solving the quadratic
// r0·τ + (r1−r0)/(2d)·τ² = n − H(stage start) for τ in [0, d].
type StagesPacer struct {
	Start  float64
	Stages []Stage
}

var _ Pacer = StagesPacer{}

// Pace implements Pacer.
func (p StagesPacer) Pace(elapsed time.Duration, started uint64) (time.Duration, bool) {
	due, ok := p.dueAt(float64(started))
	if !ok {
		return 0, true
	}
	if due <= elapsed {
		return 0, false
	}
	return due - elapsed, false
}

// dueAt returns when operation n (0-based) is due, or false when the stages
// end before it.
func (p StagesPacer) dueAt(n float64) (time.Duration, bool) {
	r0, offset, before := p.Start, time.Duration(0), 0.0
	for _, st := range p.Stages {
		d := st.Duration.Seconds()
		r1 := st.Target
		hits := (r0 + r1) / 2 * d
		if n < before+hits {
			tau := solveRamp(r0, r1, d, n-before)
			return offset + time.Duration(tau*float64(time.Second)), true
		}
		before += hits
		offset += st.Duration
		r0 = r1
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
func (p StagesPacer) Rate(elapsed time.Duration) float64 {
	r0, offset := p.Start, time.Duration(0)
	for _, st := range p.Stages {
		if elapsed < offset+st.Duration {
			f := float64(elapsed-offset) / float64(st.Duration)
			return r0 + (st.Target-r0)*f
		}
		offset += st.Duration
		r0 = st.Target
	}
	return 0
}

// Total returns how long the stages last.
func (p StagesPacer) Total() time.Duration {
	var d time.Duration
	for _, st := range p.Stages {
		d += st.Duration
	}
	return d
}
