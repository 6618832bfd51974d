package keygen

import "math"

// zipf samples ranks k in [1, n] with P(k) proportional to 1/k^s for any
// exponent s > 0, using Hörmann and Derflinger's rejection-inversion method
// ("Rejection-inversion to generate variates from monotone discrete
// distributions", 1996). It needs O(1) time and no table, so n may change
// from one draw to the next (the population grows as the run inserts), and the
// expected number of iterations is below 1.1 for every s and n.
//
// zipf is immutable after newZipf and safe for concurrent use.
type zipf struct {
	s           float64
	hIntegralX1 float64
	sv          float64
}

func newZipf(s float64) zipf {
	z := zipf{s: s}
	z.hIntegralX1 = z.hIntegral(1.5) - 1
	z.sv = 2 - z.hIntegralInverse(z.hIntegral(2.5)-z.h(2))
	return z
}

// rank returns a rank in [1, n] for n >= 1.
func (z zipf) rank(st *Stream, n int64) int64 {
	if n <= 1 {
		return 1
	}
	hn := z.hIntegral(float64(n) + 0.5)
	for {
		u := hn + st.Float64()*(z.hIntegralX1-hn)
		x := z.hIntegralInverse(u)
		k := int64(x + 0.5)
		if k < 1 {
			k = 1
		} else if k > n {
			k = n
		}
		if float64(k)-x <= z.sv || u >= z.hIntegral(float64(k)+0.5)-z.h(float64(k)) {
			return k
		}
	}
}

// h is the unnormalised density x^-s.
func (z zipf) h(x float64) float64 { return math.Exp(-z.s * math.Log(x)) }

// hIntegral is an antiderivative of h: (x^(1-s) - 1)/(1-s), and log x when s == 1.
func (z zipf) hIntegral(x float64) float64 {
	logX := math.Log(x)
	return helper2((1-z.s)*logX) * logX
}

// hIntegralInverse is the inverse of hIntegral.
func (z zipf) hIntegralInverse(x float64) float64 {
	t := x * (1 - z.s)
	if t < -1 {
		t = -1 // numerical guard: log1p(-1) is -Inf
	}
	return math.Exp(helper1(t) * x)
}

// helper1 is log1p(x)/x, continuous at 0.
func helper1(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(1.0/3.0-0.25*x))
}

// helper2 is expm1(x)/x, continuous at 0.
func helper2(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x*(1.0/3.0)*(1+0.25*x))
}
