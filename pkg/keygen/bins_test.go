package keygen

import (
	"math"
	"testing"
	"time"
)

// mass is Σ Mult·p of a binned law's probabilities p, and its values.
func mass(s Support, p []float64) (total, values float64) {
	for k := range s.Values {
		total += s.Count(k) * p[k]
		values += s.Count(k)
	}
	return total, values
}

// moment2 is Σ Mult·p²: the chance two entities share a value, what the
// busiest keys' shares add up to.
func moment2(s Support, p []float64) float64 {
	out := 0.0
	for k := range s.Values {
		out += s.Count(k) * p[k] * p[k]
	}
	return out
}

// bigPop is a population with one id field of n values drawn by dist.
func bigPop(t testing.TB, n int64, dist string) *Population {
	t.Helper()
	pop, err := NewPopulation(PopulationSpec{Seed: 4, Interval: time.Millisecond, Fields: []FieldSpec{
		{Name: "parcel", Kind: "id", Count: n, Distribution: dist},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return pop
}

// A field of more values than MaxSupport has its law, binned: its
// entries stand for every value (Σ Mult = n) and every law's probability
// (Σ Mult·p = 1), the busiest value's share is the law's, and the chance
// two entities share a value is the law's Σ p² (H(n,2s)/H(n,s)² for a
// zipf law, 1/n for a uniform one), at 2,000,000 and 100,000,000 values.
func TestBinnedLawOfManyValues(t *testing.T) {
	for _, n := range []int64{2_000_000, 100_000_000} {
		for _, dist := range []string{"uniform", "zipf(1.1)", "zipf(0.8)", "latest(1)", "hotspot(0.2,0.8)"} {
			s, ok := bigPop(t, n, dist).Support("parcel")
			if !ok || s.Exact() || len(s.Values) > maxEntries {
				t.Fatalf("%d %s: %d entries, exact %v (ok %v)", n, dist, len(s.Values), s.Exact(), ok)
			}
			total, values := mass(s, s.Probs)
			if math.Abs(total-1) > 1e-6 || values != float64(n) {
				t.Errorf("%d %s: mass %v over %v values; want 1 over %d", n, dist, total, values, n)
			}
			top, m2 := 0.0, moment2(s, s.Probs)
			for _, p := range s.Probs {
				top = math.Max(top, p)
			}
			wantTop, wantM2 := 1/float64(n), 1/float64(n)
			switch dist {
			case "zipf(1.1)", "zipf(0.8)", "latest(1)":
				sx := map[string]float64{"zipf(1.1)": 1.1, "zipf(0.8)": 0.8, "latest(1)": 1}[dist]
				h := harmonic(sx, float64(n))
				wantTop, wantM2 = 1/h, harmonic(2*sx, float64(n))/(h*h)
			case "hotspot(0.2,0.8)":
				hot := float64(int64(0.2 * float64(n)))
				wantTop, wantM2 = 0.8/hot, 0.64/hot+0.04/(float64(n)-hot)
			}
			if math.Abs(top-wantTop) > 1e-9*wantTop+1e-15 || math.Abs(m2-wantM2) > 2e-3*wantM2 {
				t.Errorf("%d %s: busiest %.6g, Σp² %.6g; want %.6g and %.6g", n, dist, top, m2, wantTop, wantM2)
			}
		}
	}
}

// harmonic, which binned laws normalise by, is Σ r^-s over the ranks, to
// a billionth.
func TestHarmonicSum(t *testing.T) {
	for _, s := range []float64{0.5, 0.99, 1, 1.1, 2.2} {
		sum := 0.0
		for r := 1; r <= 2_000_000; r++ {
			sum += math.Pow(float64(r), -s)
			if r == 10 || r == 1000 || r == 2_000_000 {
				if got := harmonic(s, float64(r)); math.Abs(got-sum) > 1e-9*sum {
					t.Errorf("H(%d, %v) = %.12g; want %.12g", r, s, got, sum)
				}
			}
		}
	}
}

// Below MaxSupport the binned law agrees with the exact table: 200,000
// zipf values (the exact table adds up ranks the scramble sends to one
// position; the binned one keeps them apart, so its Σ p² is a little
// lower, its busiest share the same rank 1's).
func TestBinnedAgreesWithExact(t *testing.T) {
	const n = 200_000
	for _, dist := range []string{"zipf(1.1)", "latest(0.9)", "hotspot(0.1,0.6)"} {
		d, err := ParseDistribution(dist)
		if err != nil {
			t.Fatal(err)
		}
		exact := Probabilities(d, n)
		var e2, top float64
		for _, p := range exact {
			e2 += p * p
			top = math.Max(top, p)
		}
		s, probs := binned(n, []Distribution{d}, func(k int64) Value { return Value{Num: k} })
		b2, btop := moment2(s, probs[0]), 0.0
		for _, p := range probs[0] {
			btop = math.Max(btop, p)
		}
		if math.Abs(b2-e2) > 0.01*e2 || btop > top*(1+1e-9) || btop < 0.99*top {
			t.Errorf("%s: binned Σp² %.6g busiest %.6g; exact %.6g and %.6g", dist, b2, btop, e2, top)
		}
	}
}

// A binned field's values are drawn as its law says: the draws of a
// 2,000,000-value hotspot field fall in its two runs in their shares
// (chi-square), and a zipf field's busiest value is its rank 1's.
func TestBinnedLawMatchesDraws(t *testing.T) {
	const draws = 200_000
	pop := bigPop(t, 2_000_000, "hotspot(0.2,0.8)")
	s, _ := pop.Support("parcel")
	counts := make([]int64, len(s.Values))
	want := make([]float64, len(s.Values))
	for k := range s.Values {
		want[k] = s.Count(k) * s.Probs[k]
	}
	for i := int64(0); i < draws; i++ {
		v, _ := pop.FieldValue("parcel", i)
		for k := range s.Values {
			if v.Num >= s.spans[k].a && v.Num < s.spans[k].b {
				counts[k]++
			}
		}
	}
	chiSquare(t, "hotspot runs", counts, want)

	pop = bigPop(t, 2_000_000, "zipf(1.1)")
	s, _ = pop.Support("parcel")
	best := 0
	for k := range s.Values {
		if s.Probs[k] > s.Probs[best] {
			best = k
		}
	}
	var hits int64
	for i := int64(0); i < draws; i++ {
		if v, _ := pop.FieldValue("parcel", i); v == s.Values[best] {
			hits++
		}
	}
	within(t, "zipf's busiest value", hits, draws, s.Probs[best], 4)
}

// A question's pick law refines the binning: a uniform field picked
// latest(1) has the pick's head apart, every law's mass 1, and the
// population's probability 1/n on every entry.
func TestJointWithPickLaw(t *testing.T) {
	const n = 2_000_000
	pop := bigPop(t, n, "uniform")
	s, probs, ok := pop.Joint("parcel", []Distribution{NewLatest(1)})
	if !ok || len(probs) != 2 {
		t.Fatal("no joint law")
	}
	for l, p := range probs {
		if total, values := mass(s, p); math.Abs(total-1) > 1e-6 || values != n {
			t.Errorf("law %d: mass %v over %v values", l, total, values)
		}
	}
	top := 0.0
	for k, p := range probs[1] {
		top = math.Max(top, p)
		if probs[0][k] != 1.0/n {
			t.Fatalf("entry %d: population's probability %v", k, probs[0][k])
		}
	}
	if h := harmonic(1, n); math.Abs(top-1/h) > 1e-12 {
		t.Errorf("the pick's busiest value %v; want 1/H = %v", top, 1/h)
	}
	// Sampling a run finds values spread over it.
	one, _ := bigPop(t, 100_000_000, "uniform").Support("parcel")
	seen := map[int64]bool{}
	for _, v := range one.Sample(0, 1024) {
		if v.Num < 0 || v.Num >= 100_000_000 {
			t.Fatalf("sampled %d", v.Num)
		}
		seen[v.Num] = true
	}
	if len(seen) != 1024 {
		t.Errorf("1024 samples of 100,000,000 values gave %d distinct", len(seen))
	}
}

// BenchmarkSupportOfManyValues is the time to bin a zipf law over
// 100,000,000 values, with a latest pick.
func BenchmarkSupportOfManyValues(b *testing.B) {
	pop := bigPop(b, 100_000_000, "zipf(1.1)")
	for b.Loop() {
		pop.Joint("parcel", []Distribution{NewLatest(1)})
	}
}

// Keys with a lifetime are their live keys, alike: one entry of Live
// values; a pick's position is a key live at the newest entity.
func TestLifetimeSupport(t *testing.T) {
	pop, l := lifetimePop(t, 3_000_000, LifetimeSpec{Entities: 10}, time.Millisecond)
	s, ok := pop.Support("parcel")
	if !ok || len(s.Values) != 1 || s.Count(0) != 3_000_000 || s.Probs[0] != 1.0/3_000_000 {
		t.Fatalf("support %d entries, %v values of %v", len(s.Values), s.Count(0), s.Probs)
	}
	if n, _ := pop.Cardinality("parcel"); n != l.Live {
		t.Errorf("cardinality %d", n)
	}
	const newest = 123_456_789
	for _, pos := range []int64{0, l.Live - 1} {
		v, _ := pop.PickValue("parcel", pos, newest)
		if v.Num-l.Oldest(newest) != pos || l.Retired(v.Num, newest) {
			t.Errorf("position %d at entity %d: key %d (oldest live %d)", pos, newest, v.Num, l.Oldest(newest))
		}
	}
}
