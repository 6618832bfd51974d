package judge

import (
	"math"
	"slices"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// poisson draws a Poisson count of mean lambda (Knuth's method below 30,
// a rounded normal above, where it is within the sampling error here).
func poisson(st *keygen.Stream, lambda float64) float64 {
	if lambda > 30 {
		u1, u2 := st.Float64(), st.Float64()
		z := math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
		return math.Max(0, math.Round(lambda+z*math.Sqrt(lambda)))
	}
	l, k, p := math.Exp(-lambda), 0.0, 1.0
	for {
		p *= st.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// maxOf is the law of the largest of independent compound Poisson counts:
// its mean and standard deviation agree with 5,000 draws of the largest
// (within four standard errors), for one count, for many alike (the
// maximum's pull above the mean), for scaled counts (batches), and for a
// few big counts beside many small ones.
func TestMaxOfAgreesWithSampling(t *testing.T) {
	cases := []struct {
		name string
		cs   []count
	}{
		{"one", []count{{mean: 400, scale: 1, n: 1}}},
		{"twenty alike", []count{{mean: 1000, scale: 1, n: 20}}},
		{"two thousand small", []count{{mean: 1.25, scale: 1, n: 2000}}},
		{"batches of 20", []count{{mean: 2000, scale: 20, n: 3}}},
		{"mixed", []count{{mean: 900, scale: 4, n: 2}, {mean: 850, scale: 1, n: 1}, {mean: 5, scale: 1, n: 500}}},
	}
	const draws = 5000
	st := keygen.NewStream(11, 12)
	for _, c := range cases {
		mean, sd := maxOf(c.cs)
		var sum, sq float64
		for d := 0; d < draws; d++ {
			top := 0.0
			for _, g := range c.cs {
				for range int(g.n) {
					top = math.Max(top, g.scale*poisson(&st, g.mean/g.scale))
				}
			}
			sum += top
			sq += top * top
		}
		m := sum / draws
		s := math.Sqrt(sq/draws - m*m)
		if se := s / math.Sqrt(draws); math.Abs(mean-m) > 4*se {
			t.Errorf("%s: mean of the largest %v, sampled %v ± %v", c.name, mean, m, se)
		}
		if math.Abs(sd-s) > 0.1*s {
			t.Errorf("%s: sd of the largest %v, sampled %v", c.name, sd, s)
		}
	}
}

// maxOf adds the groups' log probabilities in a fixed order: the same
// counts, given in any order, give bit-identical figures every time.
func TestMaxOfRepeatable(t *testing.T) {
	var cs []count
	for k := range 200 {
		cs = append(cs, count{mean: 1000 + 1.37*float64(k), scale: 0.5 + float64(k%7)*0.77, n: float64(1 + k%3)})
	}
	m0, s0 := maxOf(cs)
	for k := range 20 {
		if k%2 == 1 {
			slices.Reverse(cs)
		}
		if m, s := maxOf(cs); m != m0 || s != s0 {
			t.Fatalf("call %d: maxOf = %v ± %v, first %v ± %v", k, m, s, m0, s0)
		}
	}
}
