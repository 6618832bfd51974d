package edm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestAppendDouble: a Double is written as .NET Framework's round-trip
// text with ".0" when that has no point or exponent, as the Table service
// writes one (R7); the recorded Azure answer is 1.23456789012346E+24.
func TestAppendDouble(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{2, "2.0"},                             // a whole Double gets ".0"
		{1e3, "1000.0"},                        // sent as 1e3
		{-2.5, "-2.5"},                         // a fraction as it is
		{0.1, "0.1"},                           // 15 digits read back
		{add(0.1, 0.2), "0.30000000000000004"}, // 17 digits needed
		{1.23456789012346e+24, "1.23456789012346E+24"},         // the recorded Azure answer
		{123456789012345, "123456789012345.0"},                 // 15 digits before the point: plain
		{1e15, "1E+15"},                                        // a 16th digit: scientific
		{1e-4, "0.0001"},                                       // plain down to 1e-4
		{1.5e-5, "1.5E-05"},                                    // two exponent digits at least
		{math.MaxFloat64, "1.7976931348623157E+308"},           // 17 digits, three of exponent
		{math.SmallestNonzeroFloat64, "4.94065645841247E-324"}, // .NET Framework's answer
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"}, // XmlConvert writes -0
		{3e9, "3000000000.0"},          // an integer beyond 32 bits, read as a Double
	}
	for _, tt := range tests {
		if got := string(AppendDouble(nil, tt.f)); got != tt.want {
			t.Errorf("AppendDouble(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 { // every text reads back as its value
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := AppendDouble(nil, f)
		if back, err := strconv.ParseFloat(string(s), 64); err != nil || back != f {
			t.Fatalf("AppendDouble(%v) = %s, which reads back as %v", f, s, back)
		}
	}
}

// add is a + b computed in float64 at run time (constants add exactly).
func add(a, b float64) float64 { return a + b }

// TestParseGUID: a Guid is read in the forms .NET's Guid(string) reads
// (R8), whatever the case, and nothing else.
func TestParseGUID(t *testing.T) {
	want := [16]byte{0x0f, 0x8f, 0xad, 0x5b, 0xd9, 0xcb, 0x46, 0x9f, 0xa1, 0x65, 0x70, 0x86, 0x77, 0x28, 0x95, 0x0e}
	for _, s := range []string{
		"0f8fad5b-d9cb-469f-a165-70867728950e",    // D
		"0F8FAD5B-D9CB-469F-A165-70867728950E",    // D, upper case
		"0f8fad5bd9cb469fa16570867728950e",        // N
		"{0f8fad5b-d9cb-469f-a165-70867728950e}",  // B
		"(0f8fad5b-d9cb-469f-a165-70867728950e)",  // P
		" 0f8fad5b-d9cb-469f-a165-70867728950e\t", // white space around
	} {
		if g, ok := ParseGUID(s); !ok || g != want {
			t.Errorf("ParseGUID(%q) = %x %v, want %x", s, g, ok, want)
		}
	}
	for _, s := range []string{
		"", "0f8fad5b-d9cb-469f-a165", "{0f8fad5bd9cb469fa16570867728950e}", "(0f8fad5b-d9cb-469f-a165-70867728950e}",
		"0f8fad5b-d9cb-469f-a165-70867728950g", "0f8fad5bd9cb469fa16570867728950", "0f8fad5b_d9cb_469f_a165_70867728950e",
	} {
		if _, ok := ParseGUID(s); ok {
			t.Errorf("ParseGUID(%q) is ok", s)
		}
	}
	if n := testing.AllocsPerRun(100, func() { ParseGUID("{0f8fad5b-d9cb-469f-a165-70867728950e}") }); n != 0 {
		t.Errorf("ParseGUID allocates %v times", n)
	}
}

// TestAppendUTC: a DateTime without a zone is UTC, one with an offset is
// moved to UTC, each keeping its fraction digits (R3).
func TestAppendUTC(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"},
		{"2024-01-01T00:00:00", "2024-01-01T00:00:00Z"},                     // no zone: UTC
		{"2024-01-01T00:00:00.1234567", "2024-01-01T00:00:00.1234567Z"},     // fraction kept
		{"2024-01-01T02:00:00.50+02:00", "2024-01-01T00:00:00.50Z"},         // an offset moved to UTC
		{"1899-12-31T23:00:00-01:30", "1900-01-01T00:30:00Z"},               // before 1900
		{"2024-01-01T00:00:00.123456789", "2024-01-01T00:00:00.123456789Z"}, // nine digits
	}
	for _, tt := range tests {
		if got, ok := AppendUTC(nil, tt.in); !ok || string(got) != tt.want {
			t.Errorf("AppendUTC(%s) = %s %v, want %s", tt.in, got, ok, tt.want)
		}
	}
	for _, s := range []string{"2024-01-01", "2024-01-01T00:00", "yesterday", "2024-13-01T00:00:00", "2024-01-01 00:00:00"} {
		if _, ok := AppendUTC(nil, s); ok {
			t.Errorf("AppendUTC(%s) is ok", s)
		}
	}
	if got, err := ParseTime("2024-01-01T00:00:00"); err != nil || !got.Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("ParseTime without a zone = %v %v, want midnight UTC", got, err)
	}
}

// TestValidETag: the ETags the service issues, with their colons escaped
// or not, are well formed; anything else is not (R11).
func TestValidETag(t *testing.T) {
	for _, s := range []string{
		string(AppendETag(nil, 17e15)),
		`W/"datetime'2024-01-01T00%3A00%3A00.0000000Z'"`, // never issued, well formed
		`W/"datetime'2024-01-01T00:00:00.0000000Z'"`,     // colons unescaped
		`W/"wrong"`, `w/"wrong"`, `W/"datetime'x'"`, `W/""`, // any weak ETag (Azurite issue #1229)
		`w/"datetime'2015-01-01T23%3A14%3A33.4980000Z'"`, `W/"a\"b"`,
	} {
		if !ValidETag(s) {
			t.Errorf("ValidETag(%s) = false", s)
		}
	}
	for _, s := range []string{
		`"wrong"`, `wrong`, `"`, `*`, ``, `W/"`, `W/wrong`, `W/"a"b"`, `X/"a"`,
		`"datetime'2024-01-01T00%3A00%3A00.0000000Z'"`, // strong
		`W/"a", W/"b"`, `W/"datetime'2024-01-01T00%3A00%3A00.0000000Z'`,
		`W/"datetime'2024-01-01T00%3A00%3A00.0000000Z'", W/"datetime'2024-01-01T00%3A00%3A00.0000000Z'"`,
	} {
		if ValidETag(s) {
			t.Errorf("ValidETag(%s) = true", s)
		}
	}
}
