package keygen

import (
	"math"
	"testing"
)

// Probabilities is the exact law of Pick: 400,000 picks of each
// distribution pass a chi-square test against it, and it sums to 1.
func TestProbabilitiesAreThePickLaw(t *testing.T) {
	const n, draws = 200, 400_000
	for _, spec := range []string{"uniform", "zipf(0.99)", "zipf(1.5)", "latest(1.1)", "hotspot(0.2,0.8)", "single(7)", "sequential"} {
		d, err := ParseDistribution(spec)
		if err != nil {
			t.Fatal(err)
		}
		probs := Probabilities(d, n)
		sum := 0.0
		for _, p := range probs {
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: probabilities sum to %v", spec, sum)
		}
		st := NewStream(3, 4)
		counts := make([]int64, n)
		for k := 0; k < draws; k++ {
			counts[d.Pick(&st, n)]++
		}
		if spec == "single(7)" {
			if counts[7] != draws || probs[7] != 1 {
				t.Errorf("single(7): picks %d at 7, probability %v", counts[7], probs[7])
			}
			continue
		}
		chiSquare(t, spec, counts, probs)
	}
}

// A wrong scramble (ranks in place instead of mixed) fails the same test:
// the chi-square bound separates the law from a near miss.
func TestProbabilitiesScrambleMatters(t *testing.T) {
	const n, draws = 200, 400_000
	d := NewZipf(0.99)
	h := zipfNorm(0.99, n)
	wrong := make([]float64, n)
	for r := int64(1); r <= n; r++ {
		wrong[r-1] = math.Pow(float64(r), -0.99) / h
	}
	st := NewStream(3, 4)
	counts := make([]int64, n)
	for k := 0; k < draws; k++ {
		counts[d.Pick(&st, n)]++
	}
	if stat, bins, crit := chiSquareStat(counts, wrong); stat <= crit {
		t.Errorf("the chi-square test accepts an unscrambled zipf law: %.1f over %d bins, critical %.1f", stat, bins, crit)
	}
}

// Support gives each field's values with the probabilities its draws
// follow, and nothing for unbounded fields.
func TestSupport(t *testing.T) {
	pop, err := NewPopulation(PopulationSpec{Seed: 5, Fields: []FieldSpec{
		{Name: "dept", Kind: "choice", Values: []string{"a", "b", "c"}, Weights: []float64{70, 20, 10}},
		{Name: "dev", Kind: "id", Count: 30, Distribution: "zipf(1.2)"},
		{Name: "cyc", Kind: "id", Count: 4, Distribution: "sequential"},
		{Name: "age", Kind: "int", Min: 18, Max: 21},
		{Name: "order", Kind: "sequence"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	const draws = 200_000
	for _, name := range []string{"dept", "dev", "cyc", "age"} {
		s, ok := pop.Support(name)
		if !ok || len(s.Values) != len(s.Probs) {
			t.Fatalf("%s: no support", name)
		}
		index := map[Value]int{}
		for k, v := range s.Values {
			index[v] = k
		}
		counts := make([]int64, len(s.Values))
		for i := int64(0); i < draws; i++ {
			v, _ := pop.FieldValue(name, i)
			k, ok := index[v]
			if !ok {
				t.Fatalf("%s: entity %d has value %+v outside the support", name, i, v)
			}
			counts[k]++
		}
		chiSquare(t, name, counts, s.Probs)
	}
	if _, ok := pop.Support("order"); ok {
		t.Error("a sequence has a finite support")
	}
	var e Entity
	pop.Entity(9, &e)
	if !pop.SetValue(&e, "dept", Value{Str: "c"}) || pop.SetValue(&e, "nope", Value{}) {
		t.Error("SetValue")
	}
	if got, _ := pop.FieldString(&e, "dept"); got != "c" {
		t.Errorf("after SetValue dept renders %q", got)
	}
}
