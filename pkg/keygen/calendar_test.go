package keygen

import (
	"testing"
	"time"
)

// LayoutOf says, once, what a time layout tells apart; each row is a
// layout and what rendering instants with it shows.
func TestLayoutOf(t *testing.T) {
	tests := []struct {
		layout    string
		unit      Unit
		sorts     bool
		injective bool
	}{
		{"2006", Year, true, true},
		{"2006-01", Month, true, true},
		{"2006-01-02", Day, true, true},
		{"2006-01-02-15", Hour, true, true},
		{"2006-01-02-15-04", Minute, true, true},
		{"2006-01-02T15:04:05", Second, true, true},
		{"2006-01-02T15:04:05.000", Millisecond, true, true},
		{"2006-01-02T15:04:05.0", Millisecond, true, true}, // tenths are a fraction too
		{"2006-01-02T15:04:05.000000000", Nanosecond, true, true},
		{"15", Hour, false, false},       // the hour of the day repeats every day
		{"01-2006", Month, false, true},  // January of every year sorts first
		{"tenant", NoUnit, true, false},  // renders every instant alike
		{"2006-Jan", Month, false, true}, // month names sort alphabetically
	}
	for _, tt := range tests {
		got := LayoutOf(tt.layout)
		if got.Unit != tt.unit || got.Sorts != tt.sorts || got.Injective != tt.injective {
			t.Errorf("LayoutOf(%q) = %+v, want unit %v, sorts %v, injective %v", tt.layout, got, tt.unit, tt.sorts, tt.injective)
		}
	}
}

// A calendar unit truncates and steps by the calendar: months and years
// have no fixed length, their mean is the Gregorian calendar's.
func TestUnitTruncateAddMean(t *testing.T) {
	at := time.Date(2024, 2, 29, 13, 45, 30, 500, time.UTC)
	tests := []struct {
		u         Unit
		start     time.Time
		next      time.Time
		mean      time.Duration
		fixed     time.Duration
		name      string
		parseable bool
	}{
		{Minute, time.Date(2024, 2, 29, 13, 45, 0, 0, time.UTC), time.Date(2024, 2, 29, 13, 46, 0, 0, time.UTC), time.Minute, time.Minute, "minute", true},
		{Day, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), 24 * time.Hour, 24 * time.Hour, "day", true},
		{Month, time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), 2629746 * time.Second, 0, "month", true},
		{Year, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), 31556952 * time.Second, 0, "year", true},
		{NoUnit, time.Date(2024, 2, 29, 13, 45, 30, 0, time.UTC), time.Date(2024, 2, 29, 13, 45, 31, 0, time.UTC), 0, 0, "", false},
	}
	for _, tt := range tests {
		start := tt.u.Truncate(at)
		if !start.Equal(tt.start) || !tt.u.Add(start, 1).Equal(tt.next) || tt.u.Mean() != tt.mean || tt.u.Fixed() != tt.fixed || tt.u.String() != tt.name {
			t.Errorf("%q: truncate %v, next %v, mean %v, fixed %v; want %v, %v, %v, %v", tt.u, start, tt.u.Add(start, 1), tt.u.Mean(), tt.u.Fixed(), tt.start, tt.next, tt.mean, tt.fixed)
		}
		if u, ok := ParseUnit(tt.name); ok != tt.parseable || (ok && u != tt.u) {
			t.Errorf("ParseUnit(%q) = %v, %v", tt.name, u, ok)
		}
	}
	if UnitOf(90*time.Minute) != Hour || UnitOf(40*24*time.Hour) != Month || UnitOf(time.Millisecond) != Millisecond || UnitOf(0) != NoUnit {
		t.Errorf("UnitOf: 90m %v, 40 days %v, 1ms %v, 0 %v", UnitOf(90*time.Minute), UnitOf(40*24*time.Hour), UnitOf(time.Millisecond), UnitOf(0))
	}
	if Finer(Hour, Day) != Hour || Finer(NoUnit, Day) != Day || Finer(Month, NoUnit) != Month {
		t.Error("Finer: NoUnit must count as the coarsest")
	}
}

// A template's pieces carry what they read of the event time: a layout's
// bucket, unit and order, a time built-in's resolution and direction,
// whether rendered, hashed or taken modulo; nothing for other pieces.
func TestPartsCarryTime(t *testing.T) {
	p := mustPop(t, FieldSpec{Name: "device", Kind: "id", Count: 10})
	tmpl, err := p.Compile("{device}_{time:yyyy-MM-dd}_{time:HH}_{inverted_ticks}_{hash(unix) % 4}_{unix_ms}")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		res       time.Duration
		dir       int
		unit      Unit
		injective bool
	}{
		{0, 0, NoUnit, false},                // {device}
		{0, 0, NoUnit, false},                // _
		{24 * time.Hour, 1, Day, true},       // {time:yyyy-MM-dd}
		{0, 0, NoUnit, false},                // _
		{time.Hour, 0, Hour, false},          // {time:HH}: repeats every day
		{0, 0, NoUnit, false},                // _
		{100, -1, NoUnit, false},             // {inverted_ticks}
		{0, 0, NoUnit, false},                // _
		{time.Second, 1, NoUnit, false},      // {hash(unix) % 4}: the source's
		{0, 0, NoUnit, false},                // _
		{time.Millisecond, 1, NoUnit, false}, // {unix_ms}
	}
	parts := tmpl.Parts()
	if len(parts) != len(want) {
		t.Fatalf("%d parts, want %d", len(parts), len(want))
	}
	for k, w := range want {
		got := parts[k]
		if got.Res != w.res || got.Dir != w.dir || got.Unit != w.unit || got.Injective != w.injective {
			t.Errorf("part %d (%v %q): res %v dir %d unit %v injective %v; want %v %d %v %v", k, got.Kind, got.Source, got.Res, got.Dir, got.Unit, got.Injective, w.res, w.dir, w.unit, w.injective)
		}
	}
}
