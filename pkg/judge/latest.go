package judge

import "math"

// latestExact is how many of the newest ranks latestLaw sums one by one;
// past them the sum is the integral of r^-s from midpoint to midpoint
// with its Euler-Maclaurin correction (error below 1e-9 of the whole).
const latestExact = 64

// latestLaw is latest(s)'s law by age over a table of n entities: rank r
// (the r-th newest entity, ages ((r-1)/n, r/n]) is picked with weight
// r^-s / H(n, s) (keygen.Probabilities), so the share of picks among the
// newest x·n entities is H(x·n, s) / H(n, s). A run that inserts moves
// the ranks onto new entities, not this law: a time bucket holding the
// newest k entities takes H(k, s) / H(n, s) of the picks, never all of
// them (at 1,000,000 entities, the newest 50,000 take 79% for s = 0.99).
type latestLaw struct {
	s, n   float64
	prefix [latestExact + 1]float64 // prefix[k] = H(k, s)
	hn     float64
}

func newLatestLaw(s, n float64) *latestLaw {
	l := &latestLaw{s: s, n: math.Max(n, 1)}
	for r := 1; r <= latestExact; r++ {
		l.prefix[r] = l.prefix[r-1] + math.Pow(float64(r), -s)
	}
	l.hn = l.harmonic(l.n)
	return l
}

// harmonic is H(k, s) = Σ r^-s over the ranks up to k, a partial rank
// counting its fraction.
func (l *latestLaw) harmonic(k float64) float64 {
	if k <= 0 {
		return 0
	}
	whole := math.Floor(k)
	var h float64
	if whole <= latestExact {
		h = l.prefix[int(whole)]
	} else {
		h = l.prefix[latestExact] + l.integral(latestExact+0.5, whole+0.5)
	}
	return h + (k-whole)*math.Pow(whole+1, -l.s)
}

// integral is Σ r^-s over the ranks from a+½ to b-½: ∫ r^-s dr from a
// to b, less the midpoint rule's excess (f'(b) - f'(a))/24.
func (l *latestLaw) integral(a, b float64) float64 {
	corr := l.s / 24 * (math.Pow(b, -l.s-1) - math.Pow(a, -l.s-1))
	if math.Abs(l.s-1) < 1e-12 {
		return math.Log(b/a) + corr
	}
	return (math.Pow(b, 1-l.s)-math.Pow(a, 1-l.s))/(1-l.s) + corr
}

// cdf is the share of picks of age fraction at most x (0 the newest, 1
// the oldest).
func (l *latestLaw) cdf(x float64) float64 {
	return clamp01(l.harmonic(clamp01(x)*l.n) / l.hn)
}

// beyond is the law of the picks past the newest k ranks (those judged
// one by one as atoms), by age.
func (l *latestLaw) beyond(k float64) func(x float64) float64 {
	hk := l.harmonic(k)
	rest := l.hn - hk
	return func(x float64) float64 {
		if rest <= 0 {
			return uniformCDF(x)
		}
		return clamp01((l.harmonic(clamp01(x)*l.n) - hk) / rest)
	}
}
