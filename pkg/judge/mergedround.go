package judge

import "math"

// gammaSteps is how many points of the law of a bucket's last row's
// time mergedRound sums over.
const gammaSteps = 256

// mergedRound is the second round of a bucket of kind i of a share plan's
// group that holds the whole answer: the rank among the first round's
// rows of its s-th row is s + Σ_j min(s, Y_j), Y_j the rows of other
// bucket j newer than it, and it is asked again for the n − rank rows it
// falls short by when that is above 0.
//
// Drawn as independent Poisson streams (each row falls in bucket j with
// chance p_j, in the order of the rows, as the arrivals of streams of
// rates p_j interleave), the bucket's s-th row comes at a time τ of law
// Gamma(s, p_i), and given τ the Y_j are independent Poisson(p_j·τ)
// counts. So u = p_i·τ, of law Gamma(s, 1), is summed at gammaSteps
// midpoints over its mean ± 12 standard deviations, and at each the law
// of the capped sum below n − s is a convolution (cappedSum).
func mergedRound(n, s int, kinds []bucketKind, i int) second {
	var out second
	pi := kinds[i].p
	if n <= s || s <= 0 || pi <= 0 {
		return out
	}
	k := n - s
	sd := math.Sqrt(float64(s))
	lo, hi := math.Max(0, float64(s)-12*sd), float64(s)+12*sd+12
	h := (hi - lo) / gammaSteps
	dist, c := make([]float64, k), make([]float64, s+1)
	wsum, lg, done := 0.0, lgamma(s), false
	for st := 0; st < gammaSteps; st++ {
		u := lo + (float64(st)+0.5)*h
		w := math.Exp(float64(s-1)*math.Log(u) - u - lg)
		wsum += w
		if done || w < 1e-15 {
			continue // 7 standard deviations or more from the mean
		}
		cappedSum(dist, c, u/pi, s, kinds, i)
		below := 0.0
		for j, pj := range dist {
			below += pj
			out.prob += w * pj
			out.rows += w * pj * float64(k-j)
		}
		// The sum only grows with τ: past the mean, once it is surely n −
		// s or more, no later point counts.
		done = below < 1e-15 && u > float64(s)
	}
	if wsum > 0 {
		out.prob, out.rows = out.prob/wsum, out.rows/wsum
	}
	return out
}

// cappedSum sets dist[j] to P(Σ min(s, Y) = j) for each j below
// len(dist): the sum over the buckets of kinds but one of kind i, each Y
// a Poisson(p·tau) count of its share p; c is scratch of s+1 entries.
// Buckets whose count passes s with a chance under 1e-13 are summed as
// one Poisson count; once the sum is past len(dist) for sure, dist is 0.
func cappedSum(dist, c []float64, tau float64, s int, kinds []bucketKind, i int) {
	clear(dist)
	dist[0] = 1
	lump := 0.0
	for j, kd := range kinds {
		m := int(math.Round(kd.mult))
		if j == i {
			m--
		}
		lambda := kd.p * tau
		if m <= 0 || lambda <= 0 {
			continue
		}
		if poissonBelow(s, lambda) > 1-1e-13 {
			lump += float64(m) * lambda
			continue
		}
		cappedPMF(c, lambda)
		for ; m > 0; m-- {
			if !convolve(dist, c) {
				return
			}
		}
	}
	if lump > 0 {
		convolve(dist, poissonPMF(c[:0], len(dist), lump))
	}
}

// cappedPMF sets c[j] to P(min(s, Y) = j), Y a Poisson(lambda) count
// and s = len(c) − 1.
func cappedPMF(c []float64, lambda float64) {
	s := len(c) - 1
	p, sum := math.Exp(-lambda), 0.0
	for j := 0; j < s; j++ {
		c[j] = p
		sum += p
		p *= lambda / float64(j+1)
	}
	c[s] = math.Max(1-sum, 0)
}

// poissonPMF appends P(Y = j) for j below n, Y a Poisson(lambda) count,
// to c (reusing its memory) and returns it.
func poissonPMF(c []float64, n int, lambda float64) []float64 {
	p := math.Exp(-lambda)
	for j := 0; j < n; j++ {
		c = append(c, p)
		p *= lambda / float64(j+1)
	}
	return c
}

// convolve replaces dist by its convolution with the law c, cut to
// dist's length (the mass past it dropped), and reports whether any mass
// is left below it.
func convolve(dist, c []float64) bool {
	left := 0.0
	for a := len(dist) - 1; a >= 0; a-- {
		v := 0.0
		for b := 0; b <= a && b < len(c); b++ {
			v += dist[a-b] * c[b]
		}
		dist[a] = v
		left += v
	}
	return left > 1e-15
}
