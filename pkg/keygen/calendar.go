package keygen

import "time"

// Unit is a calendar unit: what a time piece of a key tells apart (its
// bucket), the unit of a question's calendar window, the length of a
// time bucket. The zero Unit is NoUnit.
type Unit int8

// The calendar units, finest first.
const (
	// NoUnit is no calendar unit: a piece that tells no instants apart,
	// or no window.
	NoUnit Unit = iota
	Nanosecond
	Millisecond
	Second
	Minute
	Hour
	Day
	Month
	Year
)

// units are the calendar units' names, by Unit.
var units = [...]string{NoUnit: "", Nanosecond: "nanosecond", Millisecond: "millisecond", Second: "second",
	Minute: "minute", Hour: "hour", Day: "day", Month: "month", Year: "year"}

// String is the unit's name ("minute", "hour", ...; "" for NoUnit).
func (u Unit) String() string {
	if u < 0 || int(u) >= len(units) {
		return ""
	}
	return units[u]
}

// ParseUnit returns the unit named name ("second" to "year", and the
// sub-second units); false for any other name.
func ParseUnit(name string) (Unit, bool) {
	for u, n := range units {
		if n == name && n != "" {
			return Unit(u), true
		}
	}
	return NoUnit, false
}

// Mean is the unit's mean length: a month 30.436875 days (2,629,746 s), a
// year 365.2425 days (31,556,952 s), the Gregorian calendar's means; 0
// for NoUnit.
func (u Unit) Mean() time.Duration {
	switch u {
	case Month:
		return 2629746 * time.Second
	case Year:
		return 31556952 * time.Second
	}
	return u.Fixed()
}

// Fixed is the unit's length when every one of it has the same length
// (up to a day, in UTC); 0 for a month, a year and NoUnit.
func (u Unit) Fixed() time.Duration {
	switch u {
	case Nanosecond:
		return time.Nanosecond
	case Millisecond:
		return time.Millisecond
	case Second:
		return time.Second
	case Minute:
		return time.Minute
	case Hour:
		return time.Hour
	case Day:
		return 24 * time.Hour
	}
	return 0
}

// Truncate returns the start of the unit t is in, in UTC; a unit finer
// than a second, and NoUnit, truncate to the second.
func (u Unit) Truncate(t time.Time) time.Time {
	t = t.UTC()
	y, m, d := t.Date()
	switch u {
	case Year:
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	case Month:
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case Day:
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	case Hour:
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, time.UTC)
	case Minute:
		return time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, time.UTC)
	}
	return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// Add moves t by n units (by the calendar for months and years); a unit
// finer than a second, and NoUnit, move by seconds.
func (u Unit) Add(t time.Time, n int) time.Time {
	switch u {
	case Year:
		return t.AddDate(n, 0, 0)
	case Month:
		return t.AddDate(0, n, 0)
	case Day:
		return t.AddDate(0, 0, n)
	case Hour, Minute:
		return t.Add(time.Duration(n) * u.Fixed())
	}
	return t.Add(time.Duration(n) * time.Second)
}

// step moves t by one unit exactly, sub-second units included.
func (u Unit) step(t time.Time) time.Time {
	if u == Nanosecond || u == Millisecond {
		return t.Add(u.Fixed())
	}
	return u.Add(t, 1)
}

// UnitOf is the calendar unit of a time bucket of length d: the coarsest
// unit whose mean length is at most d (NoUnit under a nanosecond).
func UnitOf(d time.Duration) Unit {
	out := NoUnit
	for u := Nanosecond; u <= Year; u++ {
		if u.Mean() <= d {
			out = u
		}
	}
	return out
}

// Finer returns the finer of two units, NoUnit counting as the coarsest.
func Finer(a, b Unit) Unit {
	switch {
	case a == NoUnit:
		return b
	case b == NoUnit:
		return a
	}
	return min(a, b)
}

// Layout is what a time layout tells apart, found once by rendering
// instants with it.
type Layout struct {
	// Unit is the finest calendar unit the layout tells apart (NoUnit
	// when it renders every instant alike).
	Unit Unit
	// Sorts is set when the layout's renderings sort as their instants
	// do, over instants seconds to decades apart.
	Sorts bool
	// Injective is set when instants of different buckets of Unit render
	// differently: the layout tells apart Unit and every coarser unit, so
	// its buckets never repeat (an hour-of-day layout repeats every day).
	Injective bool
}

// layoutProbe is the instant layouts are probed at: its parts are all
// different from their neighbours', and its fraction of a second has
// nine digits.
var layoutProbe = time.Date(2023, 5, 14, 10, 20, 30, 123456789, time.UTC)

// LayoutOf probes a Go time layout.
func LayoutOf(layout string) Layout {
	base := layoutProbe.Format(layout)
	l := Layout{}
	switch {
	case base != layoutProbe.Add(time.Nanosecond).Format(layout):
		l.Unit = Nanosecond
	case base != layoutProbe.Add(time.Millisecond).Format(layout) || base != layoutProbe.Add(500*time.Millisecond).Format(layout):
		l.Unit = Millisecond // any fraction of a second
	default:
		for u := Second; u <= Year; u++ {
			if base != u.step(layoutProbe).Format(layout) {
				l.Unit = u
				break
			}
		}
	}
	l.Sorts = layoutSorts(layout)
	l.Injective = l.Unit != NoUnit
	for u := max(l.Unit, Second); u <= Year && l.Injective; u++ {
		l.Injective = base != u.step(layoutProbe).Format(layout)
	}
	return l
}

// layoutSorts reports whether a layout's renderings sort as their instants
// do, over instants from seconds to decades apart: steps of each unit from
// a second to a year, and of odd lengths across them.
func layoutSorts(layout string) bool {
	t := time.Date(1999, 12, 31, 23, 59, 58, 0, time.UTC)
	prev := ""
	for k := 0; k < 60; k++ {
		s := t.Format(layout)
		if s < prev {
			return false
		}
		prev = s
		t = (Second + Unit(k%6)).Add(t, 1)
	}
	t, prev = time.Date(1999, 12, 31, 23, 59, 58, 0, time.UTC), ""
	for k := 0; k < 80; k++ {
		s := t.Format(layout)
		if s < prev {
			return false
		}
		prev = s
		switch {
		case k < 20:
			t = t.Add(7 * time.Second)
		case k < 40:
			t = t.Add(5 * time.Hour)
		case k < 60:
			t = t.AddDate(0, 1, 3)
		default:
			t = t.AddDate(3, 2, 0)
		}
	}
	return true
}
