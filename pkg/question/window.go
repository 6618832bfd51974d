package question

import (
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Span is a closed range of event times in .NET ticks (100 ns, the
// precision EventTime is stored with).
type Span struct{ Lo, Hi int64 }

// Contains reports whether ticks t is in the span.
func (s Span) Contains(t int64) bool { return t >= s.Lo && t <= s.Hi }

// Time returns the instant of .NET ticks t, in UTC.
func Time(t int64) time.Time {
	const unixEpochTicks = 621355968000000000
	d := t - unixEpochTicks
	return time.Unix(d/10_000_000, (d%10_000_000)*100).UTC()
}

// AnchoredAt reports whether the question's window ends at the picked
// entity's event time (AnchorPicked) rather than now.
func (q *Question) AnchoredAt() bool { return q.picked }

// WindowOf is the event-time span the question searches for an entity
// picked at time picked when the newest entity's is now (the window ends
// at now unless anchored at the picked entity); ok is false when the
// question has no window.
func (q *Question) WindowOf(picked, now time.Time) (Span, bool) {
	if q.picked {
		return q.Window(picked)
	}
	return q.Window(now)
}

// Window is the event-time span the question searches when its window
// ends at time t; ok is false when the question has no window.
func (q *Question) Window(t time.Time) (Span, bool) {
	t = t.UTC()
	switch {
	case q.unit != keygen.NoUnit:
		lo := q.unit.Truncate(t)
		return Span{keygen.Ticks(lo), keygen.Ticks(q.unit.Add(lo, 1)) - 1}, true
	case q.span > 0:
		// (t - span, t]
		return Span{keygen.Ticks(t.Add(-q.span)) + 1, keygen.Ticks(t)}, true
	}
	return Span{}, false
}
