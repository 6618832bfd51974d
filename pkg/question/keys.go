package question

import (
	"slices"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// timeBuiltins are the built-ins computed from the event time, with the
// order their rendering sorts in and the time they resolve.
var timeBuiltins = map[string]struct {
	desc bool
	res  time.Duration
}{
	"ticks": {false, 100}, "inverted_ticks": {true, 100},
	"unix": {false, time.Second}, "inverted_unix": {true, time.Second},
	"unix_ms": {false, time.Millisecond}, "inverted_unix_ms": {true, time.Millisecond},
}

// knows reports whether the application can compute what source renders.
func (q *Question) knows(source string) bool {
	if _, ok := timeBuiltins[source]; ok || source == TimeField {
		return q.time
	}
	return slices.Contains(q.fields, source)
}

// derives reports whether the application can compute piece p.
func (q *Question) derives(p keygen.Part) bool {
	switch p.Kind {
	case keygen.PartLiteral:
		return true
	case keygen.PartTime:
		return q.time
	}
	return q.knows(p.Source)
}

// MaxBuckets is the most hash or modulo buckets of one key piece a plan
// enumerates; a piece with more makes the partitions unknown.
const MaxBuckets = 1024

// MaxFanOut is the most partitions a plan asks at once (one time bucket
// times every hash bucket); beyond it the application scans the table.
const MaxFanOut = 1024

// pkShape is how the application finds the partitions of a question.
type pkShape struct {
	parts  []keygen.Part
	known  bool  // every piece is computable: one partition
	hashes []int // pieces enumerated over their buckets
	times  bool  // time pieces enumerated over the buckets of a span
	unit   string
}

// partitionsOf analyses a PartitionKey template; ok is false when the
// application cannot compute its partitions (a table scan).
func (q *Question) partitionsOf(t *keygen.Template) (pkShape, bool) {
	s := pkShape{parts: t.Parts(), known: true}
	fan := int64(1)
	for k, p := range s.parts {
		if q.derives(p) {
			continue
		}
		s.known = false
		switch {
		case (p.Kind == keygen.PartHash || p.Kind == keygen.PartMod) && p.Buckets <= MaxBuckets:
			s.hashes = append(s.hashes, k)
			fan *= p.Buckets
		case p.Kind == keygen.PartTime && layoutInjective(p.Layout):
			s.times = true
			s.unit = finer(s.unit, layoutUnit(p.Layout))
		default:
			return s, false
		}
	}
	return s, fan <= MaxFanOut
}

// layoutInjective reports whether a time layout renders different
// instants of different buckets differently: it tells apart its finest
// unit and every coarser one, so buckets never repeat (an hour-of-day
// layout repeats every day).
func layoutInjective(layout string) bool {
	u := layoutUnit(layout)
	if u == "" {
		return false
	}
	base := time.Date(2023, 5, 14, 10, 20, 30, 0, time.UTC)
	seen := false
	for _, v := range units {
		seen = seen || v.name == u
		if seen && base.Format(layout) == step(base, v.name, 1).Format(layout) {
			return false
		}
	}
	return true
}

// rkShape is what the application can do with a RowKey template.
type rkShape struct {
	parts  []keygen.Part
	prefix int  // leading pieces the application computes
	order  bool // the piece after the prefix sorts rows by event time
	desc   bool // ... newest first
}

func (q *Question) rowsOf(t *keygen.Template) rkShape {
	s := rkShape{parts: t.Parts()}
	for s.prefix < len(s.parts) && q.derives(s.parts[s.prefix]) {
		s.prefix++
	}
	if s.prefix < len(s.parts) {
		s.order, s.desc = q.timeOrdered(s.parts[s.prefix])
	}
	return s
}

// point reports whether the application computes the whole RowKey.
func (s rkShape) point() bool { return s.prefix == len(s.parts) }

// timeOrdered reports whether piece p's renderings sort entities by event
// time, each entity apart from the others (its resolution divides the
// population's interval), and whether newest first.
func (q *Question) timeOrdered(p keygen.Part) (ordered, desc bool) {
	iv := q.pop.Spec().Interval
	if iv <= 0 {
		return false, false
	}
	switch p.Kind {
	case keygen.PartValue:
		if b, ok := timeBuiltins[p.Source]; ok && iv%b.res == 0 {
			return true, b.desc
		}
	case keygen.PartTime:
		d := unitLength(layoutUnit(p.Layout))
		if d > 0 && iv%d == 0 && layoutSorts(p.Layout) {
			return true, false
		}
	}
	return false, false
}

// pinned lists the known fields that keys fix exactly: a computed value
// piece of the PartitionKey, or of the RowKey's computed prefix followed by
// a literal of it (the prefix "dev-1_" does not match "dev-10_"). The
// PartitionKey fixes nothing when byPK is false (a table scan).
func (q *Question) pinned(pk pkShape, rk rkShape, byPK bool) map[string]bool {
	out := map[string]bool{}
	for _, p := range pk.parts {
		if !byPK {
			break // an unknown partition fixes nothing
		}
		if p.Kind == keygen.PartValue && q.derives(p) {
			out[p.Source] = true
		}
	}
	for k := 0; k < rk.prefix; k++ {
		p := rk.parts[k]
		last := k == len(rk.parts)-1
		if p.Kind == keygen.PartValue && q.derives(p) && (last || k+1 < rk.prefix && rk.parts[k+1].Kind == keygen.PartLiteral) {
			out[p.Source] = true
		}
	}
	return out
}
