package plan

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// Retrier is a retry strategy of REST "Design a scalable partitioning
// strategy for Azure Table storage", "Retry strategy": how many times a
// throttled or timed-out request is tried again and how long to wait
// before each retry.
// Retriers are immutable; randomness comes from the caller's stream.
type Retrier struct {
	kind    string
	delay   time.Duration // fixed: the delay; exponential: the default backoff z
	min     time.Duration // exponential: zmin
	max     time.Duration // exponential: zmax
	retries int
}

// NewRetrier builds the strategy a scenario names.
func NewRetrier(r scenario.Retry) Retrier {
	return Retrier{kind: r.Kind, delay: r.Delay, min: r.Min, max: r.Max, retries: r.Retries}
}

// IsZero reports whether r is the zero Retrier, which names no strategy
// (a caller's cue to use its default).
func (r Retrier) IsZero() bool { return r.kind == "" }

// Retries is the most retries after the first attempt (0 for none).
func (r Retrier) Retries() int {
	if r.kind == "none" || r.kind == "" {
		return 0
	}
	return r.retries
}

// Backoff returns the wait before retry number x (1 for the first retry).
//
// fixed: the constant delay.
//
// exponential, that section's formula, with z the default backoff, zmin
// and zmax the bounds:
//
//	y = Rand(0.8z, 1.2z) · (2^x − 1)
//	y = Min(zmin + y, zmax)
//
// so the ±20% jitter keeps many clients from retrying in lock step.
func (r Retrier) Backoff(x int, st *keygen.Stream) time.Duration {
	switch r.kind {
	case "fixed":
		return r.delay
	case "exponential":
		z := float64(r.delay)
		y := (0.8*z + st.Float64()*0.4*z) * (math.Exp2(float64(x)) - 1)
		y = math.Min(float64(r.min)+y, float64(r.max))
		return time.Duration(y)
	}
	return 0
}

// String returns the scenario spelling of the strategy.
func (r Retrier) String() string {
	return scenario.Retry{Kind: r.kind, Delay: r.delay, Min: r.min, Max: r.max, Retries: r.retries}.String()
}
