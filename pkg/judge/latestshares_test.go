package judge

import (
	"fmt"
	"math"
	"testing"
)

// latestShares are the shares of latest(S)'s picks among a table's newest
// entities that docs/scenarios.md#latest-s gives, at 1,000,000 entities:
// S, then the newest 100, 10,000 and 100,000.
var latestShares = [][4]float64{
	{0.5, 0.0093, 0.099, 0.32},
	{0.99, 0.34, 0.66, 0.83},
	{1.5, 0.92, 0.993, 0.998},
}

// The manual's table of latest(S): each share is Σ r^-S over the newest
// ranks ÷ Σ over all 1,000,000, summed rank by rank, to two significant
// digits.
func TestLatestShares(t *testing.T) {
	const n = 1_000_000
	for _, row := range latestShares {
		s := row[0]
		var sum float64
		cum := map[int]float64{}
		for r := 1; r <= n; r++ {
			sum += math.Pow(float64(r), -s)
			if r == 100 || r == 10_000 || r == 100_000 {
				cum[r] = sum
			}
		}
		for k, r := range []int{100, 10_000, 100_000} {
			got := cum[r] / sum
			if fmt.Sprintf("%.2g", got) != fmt.Sprintf("%.2g", row[k+1]) && math.Abs(got-row[k+1]) > 0.005 {
				t.Errorf("latest(%v): the newest %d of %d take %.4g of the picks; the manual says %v", s, r, n, got, row[k+1])
			}
			t.Logf("latest(%v): newest %d: %.4g", s, r, got)
		}
	}
}
