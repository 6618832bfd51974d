package judge

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// seg is a run of alike time buckets a question reads (or the one
// partition it reads without them), newest first: n of them, each
// holding dTable of event time of the table, dMatch of it in the
// question's window, dRange of it in the query's RowKey range; b is its
// bucket index for the load (recent for older ones); own is the chance
// it holds the picked entity as a match (1 or 0 for an entity picked at
// a known age; the pick law's mass over it and the window, for a window
// ending now: pickedIn).
type seg struct {
	n                      float64
	dTable, dMatch, dRange time.Duration
	b                      int32
	own                    float64
}

// window is the question's window in ages (event time before now) for an
// entity picked at age pa: [lo, hi], within the table of span span. It
// ends now unless the question anchors it at the picked entity.
func (qj *qjudge) window(span time.Duration, now time.Time, pa time.Duration) (lo, hi time.Duration) {
	q := qj.q
	if !q.AnchoredAt() {
		pa = 0
	}
	switch {
	case q.WindowSpan() > 0:
		lo, hi = pa, pa+q.WindowSpan()
	case q.WindowUnit() != keygen.NoUnit:
		start := q.WindowUnit().Truncate(now.Add(-pa))
		end := q.WindowUnit().Add(start, 1)
		lo, hi = now.Sub(end), now.Sub(start)
	default:
		lo, hi = 0, span
	}
	return max(lo, 0), min(hi, span)
}

// segBounds are the ages (event time before now) that decide a
// question's segments for one picked entity: the table's span, the
// picked entity's age pa, the window [wlo, whi], the known key's life
// [kLo, kHi] (the whole span when the partition is not keyed by it), the
// matches [lo, hi], the RowKey range [rLo, rHi], and whether the key is
// live.
type segBounds struct {
	span, pa, wlo, whi, kLo, kHi, lo, hi, rLo, rHi time.Duration
	live, inWindow                                 bool
}

// segments are the time buckets the plan reads at moment now, when the
// table is s, for an entity picked at age fraction age (its key with a
// lifetime born u of a life before it), newest first, valid until the
// next call (they reuse qj's memory). The question's matches are in its
// window and in the known key's life; a partition keyed by that key
// holds the rows of its life.
func (qj *qjudge) segments(s Size, now time.Time, age, u float64) []seg {
	b := qj.bounds(s, now, age, u)
	lay := qj.lay
	if lay.unit <= 0 || (qj.acc.TimeUnit == keygen.NoUnit && !qj.acc.AnyPK) {
		return qj.oneSegment(b, now)
	}
	return qj.walkSegments(b, s, now)
}

// bounds are segments' ages for an entity picked at age fraction age.
func (qj *qjudge) bounds(s Size, now time.Time, age, u float64) segBounds {
	b := segBounds{span: s.Span, pa: time.Duration(age * float64(s.Span))}
	b.wlo, b.whi = qj.window(b.span, now, b.pa)
	b.kLo, b.kHi, b.live = qj.keyLife(b.span, b.pa, u)
	// The picked entity is among the matches when it is in the window
	// (always, for a window around it).
	b.inWindow = b.pa >= b.wlo && b.pa <= b.whi
	b.lo, b.hi = max(b.wlo, b.kLo), min(b.whi, b.kHi)
	// A query's RowKey range: the key's life when it pins the key with a
	// lifetime, the window when the RowKey orders by time.
	b.rLo, b.rHi = b.kLo, b.kHi
	if !qj.rangeKeyed {
		b.rLo, b.rHi = 0, b.span
	}
	if qj.acc.WindowBoundByRowKeys {
		b.rLo, b.rHi = max(b.rLo, b.wlo), min(b.rHi, b.whi)
	}
	if !qj.keyed {
		b.kLo, b.kHi = 0, b.span
	}
	return b
}

// own is the chance a segment of ages [a0, a1] holds the picked entity
// as a match: the pick law's mass there for a window ending now
// (pickedIn), else 1 when it holds the entity (holds) in the window.
func (qj *qjudge) own(b segBounds, a0, a1 time.Duration, holds bool) float64 {
	if p, ok := qj.pickedIn(b.span, max(a0, b.wlo), min(a1, b.whi)); ok {
		return p
	}
	if b.inWindow && holds {
		return 1
	}
	return 0
}

// oneSegment is the one partition a plan reads without walking time
// buckets: the picked entity's bucket when the PartitionKey's time is
// computed, else the key's whole partition.
func (qj *qjudge) oneSegment(b segBounds, now time.Time) []seg {
	lay := qj.lay
	if lay.unit > 0 { // the PartitionKey's time is computed: the picked entity's bucket
		phase := phaseOf(now, lay.cal, lay.unit)
		i, start, end := bucketAt(b.pa, phase, lay.unit)
		d := overlap(start, end, b.kLo, b.kHi)
		qj.segs = append(qj.segs[:0], seg{n: 1, dTable: d, dMatch: overlap(start, end, b.lo, b.hi), dRange: overlap(start, end, b.rLo, b.rHi),
			b: min(i, recent), own: qj.own(b, 0, b.span, true)})
		return qj.segs
	}
	bucket := int32(0)
	if qj.keyed {
		bucket = lifeBucket(b.live)
	}
	qj.segs = append(qj.segs[:0], seg{n: 1, dTable: b.kHi - b.kLo, dMatch: max(b.hi-b.lo, 0), dRange: max(b.rHi-b.rLo, 0), b: bucket, own: qj.own(b, 0, b.span, true)})
	return qj.segs
}

// walkSegments are the time buckets a walk reads: the window's, whatever
// the key's life (the application does not know it). The newest buckets
// are told apart (each its own load); the full ones after them are
// alike, read as a block up to the last, and up to the window's ends and
// the key's life's, where they cut a bucket.
func (qj *qjudge) walkSegments(b segBounds, s Size, now time.Time) []seg {
	lay := qj.lay
	phase := phaseOf(now, lay.cal, lay.unit)
	oldest := b.span - time.Duration(float64(b.span)/math.Max(s.Entities, 1)) // the first entity's age
	newest := b.wlo
	if b.wlo > 0 && qj.q.WindowUnit() != keygen.NoUnit {
		newest++ // a calendar window ends before the first instant of the next unit
	}
	first, _, _ := bucketAt(newest, phase, lay.unit)
	last, _, _ := bucketAt(max(min(b.whi, oldest), b.wlo), phase, lay.unit)
	out := qj.segs[:0]
	add := func(i int32, n float64) {
		start, end := time.Duration(0), phase
		if i > 0 {
			start = phase + time.Duration(i-1)*lay.unit
			end = start + lay.unit
		}
		// A block of n alike buckets holds the picked entity when any of
		// them does.
		blockEnd := end + time.Duration(n-1)*lay.unit
		out = append(out, seg{n: n, dTable: overlap(start, end, b.kLo, b.kHi), dMatch: overlap(start, end, b.lo, b.hi), dRange: overlap(start, end, b.rLo, b.rHi),
			b: min(i, recent), own: qj.own(b, start, blockEnd, b.pa > start && b.pa <= blockEnd || (i == 0 && b.pa == 0))})
	}
	var edges []int32
	for _, a := range []time.Duration{b.wlo, b.whi, b.lo, b.hi, b.kLo, b.kHi} {
		e, _, _ := bucketAt(max(a, 1), phase, lay.unit)
		edges = append(edges, e, e+1)
	}
	for i := first; i <= last; i++ {
		if i > recent && last-i > 1 {
			end := last
			for _, e := range edges {
				if e > i && e < end {
					end = e
				}
			}
			if end-i > 1 {
				add(i, float64(end-i)) // alike full buckets
				i = end - 1
				continue
			}
		}
		add(i, 1)
	}
	qj.segs = out
	return out
}

// bucketAt is the index of the time bucket (of length l, the current one
// having run for phase) holding age a, and its ages (start, end]: a
// bucket's first instant is the oldest age it holds.
func bucketAt(a, phase, l time.Duration) (int32, time.Duration, time.Duration) {
	if a <= phase {
		return 0, 0, phase
	}
	i := int32(math.Ceil(float64(a-phase) / float64(l)))
	start := phase + time.Duration(i-1)*l
	return i, start, start + l
}

// overlap is the length of [a, b) ∩ [c, d).
func overlap(a, b, c, d time.Duration) time.Duration {
	return max(min(b, d)-max(a, c), 0)
}

// pickedIn is, for a window ending now asked of an entity the law picks
// (qj.pl, not a favoured entity of its own age), the chance that entity
// has an age in [a0, a1]: the pick law's mass there, whatever age the
// question is judged at (the window does not move with it); ok is false
// otherwise.
func (qj *qjudge) pickedIn(span, a0, a1 time.Duration) (float64, bool) {
	if qj.q.AnchoredAt() || qj.q.WindowLength() <= 0 || !qj.diffuseAsk || span <= 0 {
		return 0, false
	}
	if a1 <= a0 {
		return 0, true
	}
	cdf := qj.pl.cdf
	if cdf == nil {
		cdf = uniformCDF
	}
	return math.Max(cdf(float64(a1)/float64(span))-cdf(float64(a0)/float64(span)), 0), true
}
