// Package share reads and writes the shares (fractions of requests) of the
// embedded service's model and fault specs: "10%" or "0.1". It owns that
// grammar only, and imports the standard library only: nothing of the
// model, the fault injection or the service that use it.
package share

import (
	"strconv"
	"strings"
)

// Parse reads "10%" or "0.1" as 0.1. ok is false unless v is a number,
// optionally with a % suffix, whose value lies in [0, 1].
func Parse(v string) (f float64, ok bool) {
	s, pct := strings.CutSuffix(v, "%")
	f, err := strconv.ParseFloat(s, 64)
	if pct {
		f /= 100
	}
	return f, err == nil && f >= 0 && f <= 1
}

// Format writes a share as the shortest percentage that Parse reads back
// as exactly the same float (7% rather than 7.000000000000001%), else as a
// fraction (which always reads back exactly).
func Format(f float64) string {
	for _, digits := range []int{12, -1} {
		pct := strconv.FormatFloat(f*100, 'g', digits, 64) + "%"
		if back, ok := Parse(pct); ok && back == f {
			return pct
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
