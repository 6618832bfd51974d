// Package soak holds the memory slope test of `make test`
// (TestMemoryDoesNotGrow): a two-minute soak of the client and the
// embedded service in one process that fails when memory or goroutines
// grow with the work done, once the growth of the stored data is
// factored out. bench/soak.sh is the long version, with its figures in
// docs/architecture.md.
package soak

import (
	"math"
	"sort"
)

// trend is the Theil–Sen estimate of the slope of y against x (the median
// of the slopes between every two points: a few spikes, such as a sample
// taken while a large query page was in flight, do not move it) and the
// bounds of its confidence interval at three standard deviations of
// Kendall's statistic (Sen, 1968: "Estimates of the regression coefficient
// based on Kendall's tau").
type trend struct {
	slope, lo, hi float64
}

// fitTrend estimates the trend of y against x; x must be increasing.
func fitTrend(x, y []float64) trend {
	n := len(x)
	var s []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if x[j] != x[i] {
				s = append(s, (y[j]-y[i])/(x[j]-x[i]))
			}
		}
	}
	if n < 3 || len(s) == 0 {
		return trend{slope: math.NaN(), lo: math.Inf(-1), hi: math.Inf(1)}
	}
	sort.Float64s(s)
	m := len(s)
	// The variance of Kendall's S without ties, n(n-1)(2n+5)/18; the
	// interval leaves out (m - C)/2 slopes at each end.
	c := 3 * math.Sqrt(float64(n*(n-1)*(2*n+5))/18)
	k := int(math.Floor((float64(m) - c) / 2))
	t := trend{slope: median(s), lo: math.Inf(-1), hi: math.Inf(1)}
	if k >= 0 && k < m {
		t.lo, t.hi = s[k], s[m-1-k]
	}
	return t
}

func median(s []float64) float64 {
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// grows reports whether the trend exceeds allowed with confidence: the
// lower bound of its interval is above it. Too few points to decide
// count as growth.
func (t trend) grows(allowed float64) bool {
	return math.IsNaN(t.slope) || t.lo > allowed
}
