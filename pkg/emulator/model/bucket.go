package model

import "time"

// bucket is a token bucket: tokens refill at rate per second up to burst.
// A take of n > burst needs a full bucket and leaves it in debt, so large
// transactions are admitted at the same long-run rate as small writes.
// Not safe for concurrent use; the owner locks.
type bucket struct {
	tokens, rate, burst float64
	last                time.Time
}

func newBucket(rate float64, burst time.Duration, now time.Time) bucket {
	b := max(rate*burst.Seconds(), 100)
	return bucket{tokens: b, rate: rate, burst: b, last: now}
}

func (b *bucket) refill(now time.Time) {
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(b.burst, b.tokens+dt*b.rate)
		b.last = now
	}
}

// can reports whether n tokens may be taken now (after refill).
func (b *bucket) can(n float64) bool {
	if n <= 0 {
		return b.tokens > 0 // queries: admitted unless in debt, charged afterwards
	}
	return b.tokens >= min(n, b.burst)
}

func (b *bucket) take(n float64) { b.tokens -= n }

// full reports whether the bucket has refilled completely (idle).
func (b *bucket) full() bool { return b.tokens >= b.burst }

// hot tracks whether something stays over its target: a streak of
// refusals with gaps under a second.
type hot struct {
	since, last time.Time
}

// refused records a refusal and reports whether the streak has lasted d.
func (h *hot) refused(now time.Time, d time.Duration) bool {
	if h.last.IsZero() || now.Sub(h.last) > time.Second {
		h.since = now
	}
	h.last = now
	return now.Sub(h.since) >= d
}

func (h *hot) reset(now time.Time) { h.since, h.last = now, now }
