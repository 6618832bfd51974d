package plan

import (
	"math"
	"testing"
)

// within fails when got is further than k standard deviations from the
// binomial expectation p*n.
func within(t *testing.T, name string, got int64, n int64, p float64, k float64) {
	t.Helper()
	mean := p * float64(n)
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if math.Abs(float64(got)-mean) > k*sd {
		t.Errorf("%s: got %d of %d, want %.0f ± %.0f", name, got, n, mean, k*sd)
	}
}
