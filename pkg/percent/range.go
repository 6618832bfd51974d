package percent

import (
	"fmt"
	"strconv"
)

// Range is the percentages a setting takes, from Min to Max percent, each
// end excluded when its Open flag is set: a flag's --headroom is
// Range{Min: 0, MinOpen: true, Max: 100}, above 0% and at most 100%.
type Range struct {
	Min, Max         float64
	MinOpen, MaxOpen bool
}

// String says the range in words: "above 0% and at most 100%".
func (r Range) String() string {
	lo, hi := "at least ", "at most "
	if r.MinOpen {
		lo = "above "
	}
	if r.MaxOpen {
		hi = "below "
	}
	return lo + num(r.Min) + "% and " + hi + num(r.Max) + "%"
}

// Fraction reads v, a percentage in r, as a fraction of the whole ("70%" is
// 0.7). Its errors wrap ErrSyntax and name the fix: "70 needs a % sign:
// 70%", "150% is out of range: want above 0% and at most 100%".
func (r Range) Fraction(v string) (float64, error) {
	p, err := Parse(v)
	if err != nil {
		return 0, err
	}
	if p < r.Min || p > r.Max || (r.MinOpen && p == r.Min) || (r.MaxOpen && p == r.Max) {
		return 0, fmt.Errorf("%w: %s%% is out of range: want %s", ErrSyntax, num(p), r)
	}
	return p / 100, nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
