package question

import (
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Matches reports whether entity e answers the question asked with the
// picked entity's known values when the newest entity's event time is
// now: the same value of every known field (and the same event time when
// it is known), inside the window if any.
func (q *Question) Matches(picked, e *keygen.Entity, now time.Time) bool {
	for _, f := range q.fields {
		if !q.pop.Equal(picked, e, f) {
			return false
		}
	}
	t := keygen.Ticks(e.Time)
	if q.time && t != keygen.Ticks(picked.Time) {
		return false
	}
	if w, ok := q.WindowOf(picked.Time, now); ok && !w.Contains(t) {
		return false
	}
	return true
}

// Expected is the answer the population model gives (a test oracle) on a table holding
// entities [0, n) and nothing else, whatever the scheme: the indexes of
// the matching entities, newest first (highest index first: event time
// grows with the index) for Newest and for One, oldest first for Oldest
// and All, cut to the limit. It visits the population from the end the
// answer starts at, so it costs O(n) entities at most.
func (q *Question) Expected(picked *keygen.Entity, n int64) []int64 {
	var out []int64
	var e keygen.Entity
	now := BoundsOf(q.pop, n).Last
	full := func() bool {
		return (q.Ordered() && q.Limit > 0 && len(out) >= q.Limit) || (q.Want == One && len(out) > 0)
	}
	if q.Want == Newest || q.Want == One {
		for i := n - 1; i >= 0 && !full(); i-- {
			q.pop.Entity(i, &e)
			if q.Matches(picked, &e, now) {
				out = append(out, i)
			}
		}
		return out
	}
	for i := int64(0); i < n && !full(); i++ {
		q.pop.Entity(i, &e)
		if q.Matches(picked, &e, now) {
			out = append(out, i)
		}
	}
	return out
}
