package judge

import (
	"strconv"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// srcKind is how the values of a key piece's source are spread over new
// entities.
type srcKind int

const (
	// srcFinite is a declared field with a finite support: each value
	// with its probability, drawn independently per entity.
	srcFinite srcKind = iota
	// srcUnique takes a new value for every entity: a sequence, guid or
	// slug field, an unbounded int or id, the built-ins i, guid and
	// desc_seq, or a time-derived value at least as fine as the
	// population's interval.
	srcUnique
	// srcBucket is time-derived and coarser than the interval: every new
	// entity of the same moment shares the current bucket.
	srcBucket
)

// source is what Prepare knows of one template source.
type source struct {
	kind srcKind
	res  time.Duration // a time-derived source's resolution, else 0
	// dir is +1 when the source's renderings grow with the entity index,
	// -1 when they shrink, 0 when they are scattered or bounded.
	dir     int
	support keygen.Support
}

// sourceOf classifies the source of piece p over the population (a
// field's values from the input's cache of laws).
func (in *Input) sourceOf(p keygen.Part) source {
	pop := in.Pop
	iv := pop.Spec().Interval
	timed := func(res time.Duration, dir int) source {
		if iv > 0 && res > iv || iv == 0 {
			return source{kind: srcBucket, res: res, dir: dir}
		}
		return source{kind: srcUnique, res: res, dir: dir}
	}
	if p.Kind == keygen.PartTime {
		res := p.Res
		if res == 0 {
			res = constantRes // a layout that tells no instants apart
		}
		return timed(res, p.Dir)
	}
	if p.Res > 0 { // a time built-in
		return timed(p.Res, p.Dir)
	}
	switch p.Source {
	case "i":
		return source{kind: srcUnique, dir: 1}
	case "desc_seq":
		return source{kind: srcUnique, dir: -1}
	case "guid":
		return source{kind: srcUnique}
	}
	if l := in.law(p.Source); l != nil {
		return source{kind: srcFinite, support: l.support}
	}
	if pop.FieldKind(p.Source) == "sequence" {
		return source{kind: srcUnique, dir: 1} // Step < 0 is rare; a key still changes with every entity
	}
	return source{kind: srcUnique}
}

// constantRes is the bucket of a time layout that renders every instant
// alike: a century, longer than any table's span.
var constantRes = 100 * keygen.Year.Mean()

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
