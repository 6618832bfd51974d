package share

import (
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"10%", 0.1, true}, {"0.1", 0.1, true}, {"0", 0, true}, {"100%", 1, true}, {"1", 1, true},
		{"0.5%", 0.005, true}, {"101%", 0, false}, {"1.5", 0, false}, {"-1%", 0, false},
		{"", 0, false}, {"%", 0, false}, {"ten", 0, false}, {"NaN", 0, false},
	} {
		got, ok := Parse(c.in)
		if ok != c.ok || (ok && math.Abs(got-c.want) > 1e-15) {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// Format round-trips exactly through Parse and prefers short percentages.
func TestFormatRoundTrips(t *testing.T) {
	for _, f := range []float64{0, 1, 0.07, 0.1, 0.001, 1.0 / 3, 0.123456789012345, math.Nextafter(0.5, 1)} {
		s := Format(f)
		back, ok := Parse(s)
		if !ok || back != f {
			t.Errorf("Format(%v) = %q, which parses as %v, %v", f, s, back, ok)
		}
	}
	if s := Format(0.07); s != "7%" {
		t.Errorf("Format(0.07) = %q, want 7%%", s)
	}
}
