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

// timeBuiltins are the built-ins computed from the event time, with their
// resolution and the direction their renderings sort in.
var timeBuiltins = map[string]struct {
	res time.Duration
	dir int
}{
	"time": {time.Nanosecond, 1}, "ticks": {100, 1}, "inverted_ticks": {100, -1},
	"unix": {time.Second, 1}, "inverted_unix": {time.Second, -1},
	"unix_ms": {time.Millisecond, 1}, "inverted_unix_ms": {time.Millisecond, -1},
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
		return timed(layoutRes(p.Layout), layoutDir(p.Layout))
	}
	if b, ok := timeBuiltins[p.Source]; ok {
		return timed(b.res, b.dir)
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

// calendar are the units a time layout can tell apart, finest first, with
// their (mean) length.
var calendar = []struct {
	name string
	d    time.Duration
	step func(time.Time) time.Time
}{
	{"nanosecond", time.Nanosecond, func(t time.Time) time.Time { return t.Add(time.Nanosecond) }},
	{"millisecond", time.Millisecond, func(t time.Time) time.Time { return t.Add(time.Millisecond) }},
	{"second", time.Second, func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"minute", time.Minute, func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"hour", time.Hour, func(t time.Time) time.Time { return t.Add(time.Hour) }},
	{"day", 24 * time.Hour, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
	{"month", 2629746 * time.Second, func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
	{"year", 31556952 * time.Second, func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
}

// layoutRes is the finest calendar unit a time layout tells apart (its
// bucket length); a layout that tells nothing apart is a constant (a
// century).
func layoutRes(layout string) time.Duration {
	base := time.Date(2023, 5, 14, 10, 20, 30, 123456789, time.UTC)
	for _, u := range calendar {
		if base.Format(layout) != u.step(base).Format(layout) {
			return u.d
		}
	}
	return 100 * calendar[len(calendar)-1].d
}

// layoutDir is +1 when a layout's renderings sort as their instants do
// (over instants from seconds to years apart), else 0.
func layoutDir(layout string) int {
	t := time.Date(1999, 12, 31, 23, 59, 58, 0, time.UTC)
	prev := ""
	for k := 0; k < 60; k++ {
		s := t.Format(layout)
		if s < prev {
			return 0
		}
		prev = s
		t = calendar[2+k%6].step(t) // a second up to a year
	}
	return 1
}

// unitLen is a calendar unit's (mean) length.
func unitLen(unit string) time.Duration {
	for _, u := range calendar {
		if u.name == unit {
			return u.d
		}
	}
	return 0
}

// unitName is the calendar unit of a time bucket's length.
func unitName(d time.Duration) string {
	name := ""
	for _, u := range calendar {
		if u.d <= d {
			name = u.name
		}
	}
	return name
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
