package keygen

import (
	"math"
	"testing"
)

// chiSquareCritical approximates the chi-square critical value for df degrees
// of freedom at significance 0.001 (Wilson–Hilferty). Tests use fixed seeds,
// so they are deterministic; the bound only has to separate a correct
// generator from a wrong one.
func chiSquareCritical(df int) float64 {
	const z = 3.09 // upper 0.001 quantile of the standard normal
	d := float64(df)
	return d * math.Pow(1-2/(9*d)+z*math.Sqrt(2/(9*d)), 3)
}

// chiSquare compares observed counts with expected probabilities, pooling
// bins whose expected count is below 5, and fails the test when the statistic
// exceeds the 0.001 critical value.
func chiSquare(t *testing.T, name string, observed []int64, probs []float64) {
	t.Helper()
	stat, bins, crit := chiSquareStat(observed, probs)
	if bins < 2 {
		t.Fatalf("%s: too few bins for a chi-square test", name)
	}
	if stat > crit {
		t.Errorf("%s: chi-square %.1f over %d bins exceeds the 0.001 critical value %.1f", name, stat, bins, crit)
	}
}

// chiSquareStat is chiSquare's statistic, its number of pooled bins and
// the critical value it is held to.
func chiSquareStat(observed []int64, probs []float64) (stat float64, bins int, crit float64) {
	var total int64
	for _, o := range observed {
		total += o
	}
	var poolO, poolE float64
	for i, p := range probs {
		poolO += float64(observed[i])
		poolE += p * float64(total)
		if poolE >= 5 {
			stat += (poolO - poolE) * (poolO - poolE) / poolE
			bins++
			poolO, poolE = 0, 0
		}
	}
	if poolE > 0 {
		stat += (poolO - poolE) * (poolO - poolE) / poolE
		bins++
	}
	return stat, bins, chiSquareCritical(max(bins-1, 1))
}

// within fails when got is further than k standard deviations from the
// binomial expectation p*n.
func within(t *testing.T, name string, got int64, n int64, p float64, k float64) {
	t.Helper()
	mean := p * float64(n)
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if math.Abs(float64(got)-mean) > k*sd+1e-9 {
		t.Errorf("%s: got %d of %d, want %.0f ± %.0f (p=%v)", name, got, n, mean, k*sd, p)
	}
}

func uniformProbs(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

func zipfProbs(n int, s float64) []float64 {
	p := make([]float64, n)
	var h float64
	for k := 1; k <= n; k++ {
		p[k-1] = math.Pow(float64(k), -s)
		h += p[k-1]
	}
	for i := range p {
		p[i] /= h
	}
	return p
}
