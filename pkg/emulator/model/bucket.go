package model

import (
	"math"
	"sync/atomic"
	"time"
)

// Times inside the model are nanoseconds since the model's epoch (the clock
// reading when it was made), in int64: small state, cheap arithmetic.

// never is the time of something that has not happened.
const never = math.MinInt64

// maxDebt bounds how far Charge can put a bucket into debt (how long it
// may take to refill), so that no input overflows the arithmetic.
const maxDebt = int64(time.Hour)

// limit is the shape shared by all buckets of one kind: the rate as
// nanoseconds per token and the capacity as the time the bucket takes to
// fill from empty. Read-only after New.
type limit struct {
	per  float64 // ns per token: 1e9 / rate
	tol  int64   // ns: capacity · per
	size float64 // capacity in tokens
}

// newLimit returns the limit for rate tokens/s holding burst's worth, but
// at least minBurstTokens.
func newLimit(rate float64, burst time.Duration) limit {
	size := max(rate*burst.Seconds(), minBurstTokens)
	per := 1e9 / rate
	return limit{per: per, tol: int64(size * per), size: size}
}

// cost returns the ns that n tokens take to refill, bounded by maxDebt.
func (l limit) cost(n float64) int64 {
	return int64(min(n*l.per, float64(maxDebt)))
}

// headroom returns how far in the future tat may lie for a request of n
// tokens to pass: min(n, capacity) tokens must be available. n = 0 (a
// query) only needs the bucket not to be in debt.
func (l limit) headroom(n float64) int64 {
	return l.tol - l.cost(min(n, l.size))
}

// bucket is a token bucket in GCRA form (see the package documentation):
// tat is when it will be full again. The zero value is not full: start
// with fullBucket. Not safe for concurrent use; its owner locks.
type bucket struct{ tat int64 }

func fullBucket() bucket { return bucket{tat: never} }

// allows reports whether a request of n tokens may pass at now, finding
// the bucket up to ahead (ns) in debt (queryAhead for a query page, else 0).
func (b *bucket) allows(l limit, now int64, n float64, ahead int64) bool {
	return max(b.tat, now)-now <= l.headroom(n)+ahead
}

// queryAhead is how far in debt a query page may find the buckets that
// judge it: one second, a model assumption. A partition's target is a
// rate per second (2,000 entities in a second), so a query may run up to a
// second ahead of it: a page of 1,000 entities leaves the partition in
// debt, and the query's next page is admitted, while every other request
// to the partition waits for the debt to be paid; a query that keeps
// reading faster than the target is refused within a second.
const queryAhead = int64(time.Second)

// aheadOf is the debt request r may find: queryAhead for a query page.
func aheadOf(r Request) int64 {
	if r.Op == OpQuery {
		return queryAhead
	}
	return 0
}

// take removes n tokens at now, into debt if there are fewer; the bucket
// never owes more than maxDebt.
func (b *bucket) take(l limit, now int64, n float64) {
	if n > 0 {
		b.tat = min(max(b.tat, now)+l.cost(n), now+maxDebt)
	}
}

// full reports whether the bucket holds its whole capacity at now, i.e. is
// indistinguishable from a new one.
func (b *bucket) full(now int64) bool { return b.tat <= now }

// atomicBucket is a bucket safe for concurrent use without a lock: its tat
// is one atomic word updated by compare-and-swap.
type atomicBucket struct {
	tat atomic.Int64
	_   [56]byte // own cache line: every request touches it
}

// take takes n tokens if the bucket allows them at now, and reports
// whether it did.
func (b *atomicBucket) take(l limit, now int64, n float64) bool {
	room, c := l.headroom(n), l.cost(n)
	for {
		old := b.tat.Load()
		t := max(old, now)
		if t-now > room {
			return false
		}
		if b.tat.CompareAndSwap(old, t+c) {
			return true
		}
	}
}

// allows reports whether a request of n tokens may pass at now, without
// taking them.
func (b *atomicBucket) allows(l limit, now int64, n float64) bool {
	return max(b.tat.Load(), now)-now <= l.headroom(n)
}

// charge takes n tokens at now whatever the bucket holds, into debt if
// there are fewer; the bucket never owes more than maxDebt.
func (b *atomicBucket) charge(l limit, now int64, n float64) {
	if n <= 0 {
		return
	}
	c := l.cost(n)
	for {
		old := b.tat.Load()
		if b.tat.CompareAndSwap(old, min(max(old, now)+c, now+maxDebt)) {
			return
		}
	}
}

// meter estimates a rate: the entities of the current one-second window
// plus the previous window's weighted by how much of it lies within the
// last second. It also keeps the most entities of any one window (peak).
// Not safe for concurrent use; its owner locks.
type meter struct {
	sec             int64 // the current window: now / 1s
	cur, prev, peak float32
}

const second = int64(time.Second)

func (m *meter) roll(now int64) {
	w := now / second
	switch {
	case w == m.sec:
		return
	case w == m.sec+1:
		m.prev = m.cur
	default:
		m.prev = 0
	}
	m.cur, m.sec = 0, w
}

// add records n entities at now. A request whose clock reading falls in
// the window before the current one (it read the clock just before another
// request that took the lock first) counts in that window.
func (m *meter) add(now int64, n float64) {
	if now/second == m.sec-1 {
		m.prev += float32(n)
		m.peak = max(m.peak, m.prev)
		return
	}
	m.roll(now)
	m.cur += float32(n)
	m.peak = max(m.peak, m.cur)
}

// rate returns the entities per second over the second before now.
func (m *meter) rate(now int64) float64 {
	w := now / second
	frac := float64(now-w*second) / float64(second)
	switch w {
	case m.sec:
		return float64(m.cur) + float64(m.prev)*(1-frac)
	case m.sec + 1:
		return float64(m.cur) * (1 - frac)
	}
	return 0
}

// idleFor reports whether nothing was recorded for at least d before now
// (then rate is 0 for any d of a second or more).
func (m *meter) idleFor(now int64, d time.Duration) bool {
	return now-(m.sec+1)*second >= int64(d)
}
