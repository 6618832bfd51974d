package textfit

import (
	"math"
	"strconv"
	"strings"
)

// Int formats an integer with thousands separators: 12,345.
func Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Round2 rounds f to two decimals, halves away from zero: the precision
// percentages are shown at (0.125 is 0.13, 99.994 is 99.99).
func Round2(f float64) float64 { return math.Round(f*100) / 100 }

// Rate formats a per-second figure: 1,234 (from 100 up), 12.3, 0.45.
func Rate(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "-"
	case math.Abs(f) >= 100:
		return Int(int64(math.Round(f)))
	case math.Abs(f) >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	default:
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
}

// Float formats a measured value readably and never in scientific
// notation: whole numbers with separators (1,580), others with three
// significant digits (15.8, 0.432), very small ones as 0.000123.
func Float(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "-"
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return Int(int64(f))
	case math.Abs(f) >= 1000:
		return Int(int64(math.Round(f)))
	}
	digits := 3 - int(math.Floor(math.Log10(math.Abs(f)))) - 1
	digits = min(max(digits, 0), 9)
	s := strconv.FormatFloat(f, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Big formats a figure that may be past any meaning as a count: below a
// billion as Rate does (1,234, 12.3); from a billion in words, to two
// significant digits or the whole number of billions (trillions) past
// ten (2.3 billion, 227 billion, 1,243 trillion), so a figure no table
// could reach reads as a size, not as fifteen digits.
func Big(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) < 1e9 {
		return Rate(f)
	}
	scale, name := 1e9, "billion"
	if math.Abs(f) >= 1e12 {
		scale, name = 1e12, "trillion"
	}
	v := f / scale
	p := math.Pow(10, 1-math.Floor(math.Log10(math.Abs(v))))
	if p < 1 {
		p = 1 // whole billions (trillions) past a hundred
	}
	return Float(math.Round(v*p)/p) + " " + name
}
