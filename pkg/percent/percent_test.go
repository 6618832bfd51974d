package percent

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// The grammar: each row a text and what Parse reads, or the words of its
// refusal.
func TestParseGrammar(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  string // "" for accepted
	}{
		{"1%", 1, ""},
		{"0.5%", 0.5, ""},
		{"100%", 100, ""},
		{"0%", 0, ""},
		{" 2.5 % ", 2.5, ""}, // spaces around the number
		{"1e-3%", 0.001, ""},
		{"-1%", -1, ""}, // a sign is a number's; ranges are the caller's
		{"1", 0, `1 needs a % sign: 1%`},
		{" 70 ", 0, `70 needs a % sign: 70%`},
		{"0.01", 0, "0.01 needs a % sign: 0.01%, or 1% if it is a fraction of the whole"},
		{"one", 0, `"one" has no %; write a number followed by %, like 1% or 0.5%`},
		{"%", 0, `"%" has no number`},
		{"", 0, `"" has no %`},
		{"1,5%", 0, `"1,5%" has a comma: a percentage takes a decimal point and no thousands separators, like 1.5% or 1000%`}, // never 15%
		{"1,000%", 0, "has a comma"},
		{"1%%", 0, "is not a number"},
		{"ten%", 0, "is not a number"},
		{"NaN%", 0, "is not a number"},
		{"Inf%", 0, "is not a number"},
	} {
		got, err := Parse(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		case tc.err != "" && (!errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.err)
		}
	}
}

// Fraction divides the number by 100, so a whole percentage is the float
// a fraction written out would be.
func TestFractionIsExact(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{{"7%", 0.07}, {"70%", 0.7}, {"0.5%", 0.005}, {"100%", 1}, {"33%", 0.33}} {
		if got, err := Fraction(tc.in); err != nil || got != tc.want {
			t.Errorf("Fraction(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if _, err := Fraction("70"); !errors.Is(err, ErrSyntax) {
		t.Errorf("Fraction(70) = %v; want a refusal", err)
	}
}

// A share is a percentage or a plain fraction, from 0 to the whole.
func TestParseShare(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"10%", 0.1, true}, {"0.1", 0.1, true}, {"0", 0, true}, {"100%", 1, true}, {"1", 1, true},
		{"0.5%", 0.005, true}, {" 5% ", 0.05, true},
		{"101%", 0, false}, {"1.5", 0, false}, {"-1%", 0, false}, {"-0.1", 0, false},
		{"", 0, false}, {"%", 0, false}, {"ten", 0, false}, {"NaN", 0, false}, {"1,5%", 0, false},
	} {
		got, err := ParseShare(c.in)
		if (err == nil) != c.ok || (c.ok && math.Abs(got-c.want) > 1e-15) || (!c.ok && !errors.Is(err, ErrSyntax)) {
			t.Errorf("ParseShare(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// FormatShare round-trips exactly through ParseShare and prefers short
// percentages.
func TestFormatShareRoundTrips(t *testing.T) {
	for _, f := range []float64{0, 1, 0.07, 0.1, 0.001, 1.0 / 3, 0.123456789012345, math.Nextafter(0.5, 1)} {
		s := FormatShare(f)
		if back, err := ParseShare(s); err != nil || back != f {
			t.Errorf("FormatShare(%v) = %q, which parses as %v, %v", f, s, back, err)
		}
	}
	if s := FormatShare(0.07); s != "7%" {
		t.Errorf("FormatShare(0.07) = %q, want 7%%", s)
	}
}

// FuzzParse: Parse never panics, and what it accepts ends in % and
// reads back from its number.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1%", "0.5%", "%", "1,5%", " 2 % "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err == nil && (!strings.HasSuffix(strings.TrimSpace(s), "%") || math.IsNaN(p) || math.IsInf(p, 0)) {
			t.Errorf("Parse(%q) = %v accepted", s, p)
		}
	})
}

// A range refuses what is outside it, saying what it wants; a value
// without its sign is told to add it, whatever the range.
func TestRangeNamesTheFix(t *testing.T) {
	headroom := Range{Min: 0, MinOpen: true, Max: 100}
	throttled := Range{Min: 0, MinOpen: true, Max: 100, MaxOpen: true}
	for _, tc := range []struct {
		r    Range
		in   string
		want float64
		err  string
	}{
		{headroom, "70%", 0.7, ""},
		{headroom, "100%", 1, ""},
		{headroom, "70", 0, "70 needs a % sign: 70%"},
		{headroom, "0%", 0, "0% is out of range: want above 0% and at most 100%"},
		{headroom, "150%", 0, "150% is out of range: want above 0% and at most 100%"},
		{throttled, "100%", 0, "100% is out of range: want above 0% and below 100%"},
		{throttled, "0.5%", 0.005, ""},
		{Range{Max: 100}, "0%", 0, ""},
		{Range{Max: 100}, "-1%", 0, "-1% is out of range: want at least 0% and at most 100%"},
	} {
		got, err := tc.r.Fraction(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%v: Fraction(%q) = %v, %v; want %v", tc.r, tc.in, got, err, tc.want)
		case tc.err != "" && (!errors.Is(err, ErrSyntax) || Reason(err) != tc.err):
			t.Errorf("%v: Fraction(%q) = %v, %v; want the error %q", tc.r, tc.in, got, err, tc.err)
		}
	}
}
