package judge

import "math"

// poissonBelow is P(X < k) for X ~ Poisson(mean): the chance that a walk
// that needs k rows has not found them in buckets holding mean rows in
// all. Its terms follow each other by a factor mean/j; a mean far past k
// makes it 0.
func poissonBelow(k int, mean float64) float64 {
	if k <= 0 {
		return 0
	}
	if mean <= 0 {
		return 1
	}
	if mean > float64(k)+12*math.Sqrt(float64(k))+40 {
		return 0
	}
	if mean > 600 { // e^-mean underflows: sum in logs from the mode down
		return poissonBelowLog(k, mean)
	}
	term := math.Exp(-mean)
	sum := term
	for j := 1; j < k; j++ {
		term *= mean / float64(j)
		sum += term
		if float64(j) > mean && term < 1e-16*sum {
			break
		}
	}
	return math.Min(sum, 1)
}

// poissonBelowLog is poissonBelow for a large mean, its terms in logs.
func poissonBelowLog(k int, mean float64) float64 {
	sum, term := 0.0, -mean
	lm := math.Log(mean)
	for j := 0; j < k; j++ {
		if j > 0 {
			term += lm - math.Log(float64(j))
		}
		sum += math.Exp(term)
	}
	return math.Min(sum, 1)
}

// minPoisson is E[min(k, X)] for X ~ Poisson(mean): the rows a query of
// $top k returns from a partition holding mean rows on average. It is
// Σ_{j=1..k} P(X >= j).
func minPoisson(k int, mean float64) float64 {
	if mean <= 0 || k <= 0 {
		return 0
	}
	if mean > float64(k)+12*math.Sqrt(float64(k))+40 {
		return float64(k)
	}
	if k > 2000 && mean < float64(k)/2 {
		return mean
	}
	out, below, term := 0.0, 0.0, -mean
	for j := 1; j <= k; j++ {
		// below = P(X < j) = P(X <= j-1).
		if j > 1 {
			term += math.Log(mean) - math.Log(float64(j-1))
		}
		below += math.Exp(term)
		out += math.Max(0, 1-below)
		if 1-below < 1e-12 {
			break
		}
	}
	return out
}
