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
