package judge

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// count is the law of n identical independent counts over a window: each
// scale·Poisson(mean/scale), a compound Poisson count matched in mean and
// variance (a partition taking requests at random moments, each counting
// about scale entities: variance Σ rate·e² = scale·mean).
type count struct {
	mean, scale, n float64
}

// maxGrid is how finely maxOf integrates the law of the largest count.
const maxGrid = 2000

// maxOf returns the mean and standard deviation of the largest of the
// counts: F(x) = Π P(count ≤ x)^n, E[max] = ∫ 1 - F, E[max²] = ∫ 2x(1 - F),
// integrated on a grid up to ten standard deviations past the largest
// mean. Counts that cannot come near the largest (eight standard
// deviations short of where the largest surely is) are left out, and
// counts whose mean and scale agree to four digits are taken together.
func maxOf(cs []count) (mean, sd float64) {
	groups := map[[2]float64]float64{}
	floor, top := 0.0, 0.0
	for _, c := range cs {
		if c.mean > 0 && c.n > 0 {
			c.scale = math.Max(c.scale, 1e-3)
			groups[[2]float64{round4(c.mean), round4(c.scale)}] += c.n
			s := math.Sqrt(c.mean * c.scale)
			floor = math.Max(floor, c.mean-8*s)
			top = math.Max(top, c.mean+10*s+10*c.scale)
		}
	}
	if len(groups) == 0 {
		return 0, 0
	}
	dx := top / maxGrid
	logF := make([]float64, maxGrid)
	// In a fixed order (mean, then scale): every grid point adds the
	// groups' log probabilities.
	for _, k := range slices.SortedFunc(maps.Keys(groups), cmpPair) {
		n := groups[k]
		if k[0]+8*math.Sqrt(k[0]*k[1]) >= floor {
			addLogCDF(logF, dx, count{mean: k[0], scale: k[1], n: n})
		}
	}
	var e1, e2 float64
	for i, lf := range logF {
		x := (float64(i) + 0.5) * dx
		tail := 1 - math.Exp(lf)
		e1 += tail * dx
		e2 += 2 * x * tail * dx
	}
	return e1, math.Sqrt(math.Max(e2-e1*e1, 0))
}

// cmpPair orders pairs by their first number, then their second.
func cmpPair(a, b [2]float64) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// round4 rounds to four significant digits.
func round4(f float64) float64 {
	if f == 0 {
		return 0
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}

// addLogCDF adds n·log P(count ≤ x) at every grid point x = (i+½)·dx,
// until the probability is 1 to twelve digits.
func addLogCDF(logF []float64, dx float64, c count) {
	lambda := c.mean / c.scale
	logL := math.Log(lambda)
	k, cdf := 0, math.Exp(-lambda)
	for i := range logF {
		want := int(math.Floor((float64(i) + 0.5) * dx / c.scale))
		for k < want && cdf < 1 {
			k++
			cdf += math.Exp(-lambda + float64(k)*logL - lgamma(k+1))
		}
		switch {
		case cdf <= 0:
			logF[i] = math.Inf(-1)
		case cdf >= 1-1e-12:
			return
		default:
			logF[i] += c.n * math.Log(cdf)
		}
	}
}
func lgamma(x int) float64 {
	v, _ := math.Lgamma(float64(x))
	return v
}
