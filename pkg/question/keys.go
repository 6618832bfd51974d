package question

import (
	"slices"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// knows reports whether the application can compute what source renders.
func (q *Question) knows(source string) bool {
	if _, _, ok := keygen.TimeBuiltin(source); ok || source == TimeField {
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
	unit   keygen.Unit
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
		case p.Kind == keygen.PartTime && walkable(p):
			s.times = true
			s.unit = keygen.Finer(s.unit, p.Unit)
		default:
			return s, false
		}
	}
	return s, fan <= MaxFanOut
}

// walkable reports whether a time piece's buckets can be walked: it
// tells apart a calendar unit from the second up, and every coarser one,
// so buckets never repeat (an hour-of-day layout repeats every day).
func walkable(p keygen.Part) bool { return p.Unit >= keygen.Second && p.Injective }

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
		// A time built-in; the event time's own default rendering (RFC
		// 3339, trailing zeros cut) does not sort by it.
		if p.Source != TimeField && p.Res > 0 && iv%p.Res == 0 {
			return true, p.Dir < 0
		}
	case keygen.PartTime:
		d := p.Unit.Fixed()
		if p.Unit >= keygen.Second && d > 0 && iv%d == 0 && p.Dir > 0 {
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
