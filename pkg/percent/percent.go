// Package percent owns the one grammar of percentages every part of
// tablestress reads: thresholds ("throttle_rate < 1%"), the flags that take
// a share (--max-throttled 1%, --headroom 70%) and the embedded service's
// model and fault specs ("503=1%", "queue=50%", which also take a plain
// fraction, 0.01). It imports the standard library only, so any package
// may import it.
//
// A percentage is a decimal number followed by '%': "1%", "0.5%", "100%",
// "1e-3%", with spaces allowed around the number. Refused: no '%' ("1",
// except where a share takes a fraction), no number ("%"), thousands or
// decimal commas ("1,5%": never read as 15%), two signs ("1%%"), and NaN
// or infinity. Ranges (above 0, at most 100%) are each caller's rule, which
// Range states and checks with messages that name the fix.
package percent

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrSyntax is what every error of Parse, Fraction and ParseShare wraps.
var ErrSyntax = errors.New("percent: not a percentage")

// Forms is how a percentage is written, for messages.
const Forms = "a number followed by %, like 1% or 0.5%"

// Parse reads a percentage as the number written before its '%':
// "0.5%" is 0.5. Errors wrap ErrSyntax and say what was wrong and what to
// write instead: "70 needs a % sign: 70%".
func Parse(v string) (float64, error) {
	t := strings.TrimSpace(v)
	num, ok := strings.CutSuffix(t, "%")
	if !ok {
		if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			if f > 0 && f < 1 { // perhaps a fraction of the whole
				return 0, fmt.Errorf("%w: %s needs a %% sign: %s%%, or %s if it is a fraction of the whole", ErrSyntax, t, t, FormatShare(f))
			}
			return 0, fmt.Errorf("%w: %s needs a %% sign: %s%%", ErrSyntax, t, t)
		}
		return 0, fmt.Errorf("%w: %q has no %%; write %s", ErrSyntax, v, Forms)
	}
	return number(v, num)
}

// Reason is what a Parse, Fraction, ParseShare or Range error says, without
// the package's prefix: for a message that names the flag or field first
// ("--headroom: 70 needs a % sign: 70%").
func Reason(err error) string {
	return strings.TrimPrefix(err.Error(), ErrSyntax.Error()+": ")
}

// Fraction reads a percentage as a fraction of the whole: "70%" is 0.7
// (the number divided by 100, so "7%" is exactly 0.07).
func Fraction(v string) (float64, error) {
	p, err := Parse(v)
	return p / 100, err
}

// ParseShare reads a share of the whole, a percentage or a plain fraction:
// "10%" and "0.1" are both 0.1. A share lies in [0, 1] (0% to 100%).
func ParseShare(v string) (float64, error) {
	s := strings.TrimSpace(v)
	var f float64
	var err error
	if strings.HasSuffix(s, "%") {
		f, err = Fraction(s)
	} else {
		f, err = number(v, s)
	}
	if err == nil && !(f >= 0 && f <= 1) {
		err = fmt.Errorf("%w: %q is not a share: want 0%% to 100%%, or a fraction from 0 to 1", ErrSyntax, v)
	}
	return f, err
}

// number reads the number of v (num, v without its '%').
func number(v, num string) (float64, error) {
	num = strings.TrimSpace(num)
	f, err := strconv.ParseFloat(num, 64)
	switch {
	case num == "":
		return 0, fmt.Errorf("%w: %q has no number; write %s", ErrSyntax, v, Forms)
	case err != nil && strings.Contains(num, ","):
		return 0, fmt.Errorf("%w: %q has a comma: a percentage takes a decimal point and no thousands separators, like 1.5%% or 1000%%", ErrSyntax, v)
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%w: %q is not a number followed by %%; write %s", ErrSyntax, v, Forms)
	}
	return f, nil
}

// FormatShare writes a share as the shortest percentage that ParseShare
// reads back as exactly the same float (7% rather than
// 7.000000000000001%), else as a fraction (which always reads back
// exactly).
func FormatShare(f float64) string {
	for _, digits := range []int{12, -1} {
		pct := strconv.FormatFloat(f*100, 'g', digits, 64) + "%"
		if back, err := ParseShare(pct); err == nil && back == f {
			return pct
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
