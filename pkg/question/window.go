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

// Window is the event-time span the question searches for a picked entity
// of time t; ok is false when the question has no window.
func (q *Question) Window(t time.Time) (Span, bool) {
	t = t.UTC()
	switch {
	case q.unit != "":
		lo := truncate(t, q.unit)
		return Span{keygen.Ticks(lo), keygen.Ticks(step(lo, q.unit, 1)) - 1}, true
	case q.span > 0:
		// (t - span, t]
		return Span{keygen.Ticks(t.Add(-q.span)) + 1, keygen.Ticks(t)}, true
	}
	return Span{}, false
}

// truncate returns the start of the calendar unit t is in.
func truncate(t time.Time, unit string) time.Time {
	y, m, d := t.Date()
	switch unit {
	case "year":
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case "day":
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	case "hour":
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, time.UTC)
	case "minute":
		return time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, time.UTC)
	}
	return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// step moves t by n calendar units.
func step(t time.Time, unit string, n int) time.Time {
	switch unit {
	case "year":
		return t.AddDate(n, 0, 0)
	case "month":
		return t.AddDate(0, n, 0)
	case "day":
		return t.AddDate(0, 0, n)
	case "hour":
		return t.Add(time.Duration(n) * time.Hour)
	case "minute":
		return t.Add(time.Duration(n) * time.Minute)
	}
	return t.Add(time.Duration(n) * time.Second)
}

// units are the calendar units from the finest up, with their length where
// it is fixed.
var units = []struct {
	name string
	d    time.Duration
}{{"second", time.Second}, {"minute", time.Minute}, {"hour", time.Hour}, {"day", 24 * time.Hour}, {"month", 0}, {"year", 0}}

// layoutUnit is the finest calendar unit a time layout tells apart, found
// by rendering instants one unit apart that differ in no coarser unit; ""
// when it tells apart less than a second (fractions) or nothing at all.
func layoutUnit(layout string) string {
	base := time.Date(2023, 5, 14, 10, 20, 30, 0, time.UTC)
	if base.Format(layout) != base.Add(500*time.Millisecond).Format(layout) {
		return "" // sub-second
	}
	for _, u := range units {
		if base.Format(layout) != step(base, u.name, 1).Format(layout) {
			return u.name
		}
	}
	return ""
}

// layoutSorts reports whether a time layout's renderings sort as their
// instants do, over instants spread from seconds to decades apart.
func layoutSorts(layout string) bool {
	base := time.Date(1999, 12, 31, 23, 59, 58, 0, time.UTC)
	var prev string
	for k, t := 0, base; k < 80; k++ {
		s := t.Format(layout)
		if k > 0 && s < prev {
			return false
		}
		prev = s
		switch {
		case k < 20:
			t = t.Add(time.Second * 7)
		case k < 40:
			t = t.Add(time.Hour * 5)
		case k < 60:
			t = t.AddDate(0, 1, 3)
		default:
			t = t.AddDate(3, 2, 0)
		}
	}
	return true
}

// unitLength is a calendar unit's length when fixed (0 for month and year).
func unitLength(unit string) time.Duration {
	for _, u := range units {
		if u.name == unit {
			return u.d
		}
	}
	return 0
}

// finer returns the finer of two calendar units ("" counts as coarsest).
func finer(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	for _, u := range units {
		if u.name == a || u.name == b {
			return u.name
		}
	}
	return a
}

// Truncate is the start of the calendar unit (second, minute, hour, day,
// month, year) t is in, in UTC.
func Truncate(t time.Time, unit string) time.Time { return truncate(t.UTC(), unit) }
