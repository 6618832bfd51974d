package judge

import (
	"math"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// latest(s)'s law by age is keygen.Probabilities' summed from the
// newest: at every age fraction, for exponents either side of 1 and at
// 1, within 1e-8; and the law past the newest 32 ranks is the
// rest of it, renormalised.
func TestLatestLawMatchesItsProbabilities(t *testing.T) {
	const n = 200_000
	for _, s := range []float64{0.6, 0.99, 1, 1.4} {
		p := keygen.Probabilities(keygen.NewLatest(s), n)
		law := newLatestLaw(s, n)
		beyond := law.beyond(32)
		var cum float64
		var top float64
		for r := 1; r <= n; r++ {
			cum += p[n-r] // rank r is position n-r
			if r == 32 {
				top = cum
			}
			if r%997 != 0 && r != 1 && r != 32 && r != n {
				continue
			}
			x := float64(r) / n
			if got := law.cdf(x); math.Abs(got-cum) > 1e-8 {
				t.Fatalf("latest(%v): share of the newest %d of %d is %v, want %v", s, r, n, got, cum)
			}
			if r >= 32 {
				want := (cum - top) / (1 - top)
				if got := beyond(x); math.Abs(got-want) > 1e-8 {
					t.Fatalf("latest(%v) past 32 ranks: share up to rank %d is %v, want %v", s, r, got, want)
				}
			}
		}
	}
}
