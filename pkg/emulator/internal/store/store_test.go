package store

import (
	"fmt"
	"testing"
	"time"
)

func TestExtends(t *testing.T) {
	tb := NewTable("t")
	if got := tb.Extends("x"); got != 0 {
		t.Errorf("an empty table: %d, want 0", got)
	}
	for i := 0; i < 1000; i++ {
		tb.Put(&Entity{pk: fmt.Sprintf("k%04d", i), rk: "r"})
	}
	tests := []struct {
		pk   string
		want int
	}{
		{"k0500", 0},   // exists
		{"k0999", 0},   // exists, greatest
		{"k1000", +1},  // beyond the greatest: append-only
		{"k0990x", +1}, // new, among the greatest rangeRows rows
		{"k0500x", 0},  // new, in the middle
		{"a", -1},      // below the least: prepend-only
		{"k0001x", -1}, // new, among the least rangeRows rows
	}
	for _, tt := range tests {
		if got := tb.Extends(tt.pk); got != tt.want {
			t.Errorf("Extends(%q) = %d, want %d", tt.pk, got, tt.want)
		}
	}
}

func TestTimestampsStrictlyIncrease(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := New(func() time.Time { return at }, false) // a clock that stands still
	a, b := st.Timestamp(), st.Timestamp()
	if !b.After(a) || b.Sub(a) != 100*time.Nanosecond {
		t.Errorf("timestamps %v then %v, want 100ns apart", a, b)
	}
}
