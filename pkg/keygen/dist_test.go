package keygen

import (
	"strings"
	"testing"
)

const draws = 200_000

func histogram(d Distribution, n int64, seed uint64) []int64 {
	st := NewStream(seed, 1)
	counts := make([]int64, n)
	for i := 0; i < draws; i++ {
		counts[d.Pick(&st, n)]++
	}
	return counts
}

func TestStreamInt64nUniform(t *testing.T) {
	for _, n := range []int64{2, 7, 100, 1000} { // powers of two and not: no modulo bias
		st := NewStream(42, uint64(n))
		counts := make([]int64, n)
		for i := 0; i < draws; i++ {
			v := st.Int64n(n)
			if v < 0 || v >= n {
				t.Fatalf("Int64n(%d) = %d out of range", n, v)
			}
			counts[v]++
		}
		chiSquare(t, "Int64n", counts, uniformProbs(int(n)))
	}
}

func TestUniform(t *testing.T) {
	chiSquare(t, "uniform(50)", histogram(Uniform{}, 50, 1), uniformProbs(50))
}

func TestZipfRanks(t *testing.T) {
	for _, s := range []float64{0.5, 0.99, 1.0, 1.5, 3} { // below, at and above 1: the three branches of the integral
		z := newZipf(s)
		st := NewStream(7, uint64(s*100))
		const n = 200
		counts := make([]int64, n)
		for i := 0; i < draws; i++ {
			k := z.rank(&st, n)
			if k < 1 || k > n {
				t.Fatalf("rank %d out of [1,%d]", k, n)
			}
			counts[k-1]++
		}
		chiSquare(t, "zipf ranks s="+ftoa(s), counts, zipfProbs(n, s))
	}
}

func TestZipfScrambledKeepsRankFrequencies(t *testing.T) {
	// Scrambling moves ranks to positions but must not change the multiset
	// of frequencies: sorted counts follow the zipf law.
	d := NewZipf(0.99)
	counts := histogram(d, 1000, 3)
	top := int64(0)
	for _, c := range counts {
		top = max(top, c)
	}
	p1 := zipfProbs(1000, 0.99)[0]
	within(t, "most popular position", top, draws, p1, 5)
	// The most popular position is not simply position 0 (scrambled).
	if counts[0] == top {
		t.Errorf("zipf is not scrambled: position 0 is the most popular")
	}
}

func TestLatestFavoursNewest(t *testing.T) {
	d := NewLatest(1.0)
	const n = 500
	counts := histogram(d, n, 5)
	probs := zipfProbs(n, 1.0)
	reversed := make([]int64, n)
	for i := range counts {
		reversed[n-1-i] = counts[i] // position n-1 is rank 1
	}
	chiSquare(t, "latest", reversed, probs)
}

func TestHotspot(t *testing.T) {
	d := Hotspot{Hot: 0.2, Ops: 0.8}
	const n = 100
	counts := histogram(d, n, 9)
	var hot int64
	for i := 0; i < 20; i++ {
		hot += counts[i]
	}
	within(t, "hot share", hot, draws, 0.8, 5)
	chiSquare(t, "hot set uniform", counts[:20], uniformProbs(20))
	chiSquare(t, "cold set uniform", counts[20:], uniformProbs(80))
}

func TestSequentialAndSingle(t *testing.T) {
	s := &Sequential{}
	for want := int64(0); want < 12; want++ {
		if got := s.Pick(nil, 5); got != want%5 {
			t.Fatalf("sequential pick %d = %d, want %d", want, got, want%5)
		}
	}
	if got := (Single{At: 3}).Pick(nil, 10); got != 3 {
		t.Errorf("single(3) = %d", got)
	}
	if got := (Single{At: 30}).Pick(nil, 10); got != 9 {
		t.Errorf("single(30) with n=10 = %d, want 9 (clamped)", got)
	}
}

func TestPickRangeWithGrowingN(t *testing.T) {
	dists := []Distribution{Uniform{}, NewZipf(0.99), NewLatest(0.99), Hotspot{0.1, 0.9}, &Sequential{}, Single{}}
	st := NewStream(1, 2)
	for _, d := range dists {
		for n := int64(0); n < 300; n++ {
			for k := 0; k < 20; k++ {
				v := d.Pick(&st, n)
				if v < 0 || (n > 0 && v >= n) || (n <= 1 && v != 0) {
					t.Fatalf("%s.Pick(n=%d) = %d", d, n, v)
				}
			}
		}
	}
}

func TestParseDistribution(t *testing.T) {
	tests := []struct {
		spec, want, err string
	}{
		{"uniform", "uniform", ""},
		{" zipf ", "zipf(0.99)", ""}, // default exponent
		{"zipf(1.2)", "zipf(1.2)", ""},
		{"zipfian(0.5)", "zipf(0.5)", ""}, // YCSB's spelling
		{"latest", "latest(0.99)", ""},
		{"hotspot(0.2, 0.8)", "hotspot(0.2,0.8)", ""}, // spaces allowed
		{"sequential", "sequential", ""},
		{"single", "single", ""},
		{"single(4)", "single(4)", ""},
		{"zipf(0)", "", "exponent must be in (0, 10]"},
		{"zipf(a)", "", "not a number"},
		{"hotspot(0.2)", "", "takes 2 arguments"},
		{"hotspot(1.5,0.8)", "", "0 < HOT < 1"},
		{"uniform(3)", "", "takes no arguments"},
		{"single(1.5)", "", "whole entity index"},
		{"zipf(1.1", "", "missing closing parenthesis"},
		{"gauss", "", "is not a distribution"},
	}
	for _, tt := range tests {
		d, err := ParseDistribution(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseDistribution(%q) error = %v, want it to contain %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseDistribution(%q): %v", tt.spec, err)
			continue
		}
		if d.String() != tt.want {
			t.Errorf("ParseDistribution(%q) = %s, want %s", tt.spec, d, tt.want)
		}
		if again, err := ParseDistribution(d.String()); err != nil || again.String() != d.String() {
			t.Errorf("%s does not round-trip: %v", d, err)
		}
	}
}

func FuzzParseDistribution(f *testing.F) {
	for _, s := range []string{"uniform", "zipf(1.1)", "hotspot(0.2,0.8)", "latest", "single(3)", "((", "zipf(,)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		d, err := ParseDistribution(spec)
		if err != nil {
			return
		}
		st := NewStream(1, 1)
		for _, n := range []int64{1, 2, 1000} {
			if v := d.Pick(&st, n); v < 0 || v >= n {
				t.Fatalf("%q: Pick(%d) = %d", spec, n, v)
			}
		}
	})
}

func BenchmarkZipfPick(b *testing.B) {
	d := NewZipf(0.99)
	st := NewStream(1, 1)
	for i := 0; i < b.N; i++ {
		d.Pick(&st, 1_000_000+int64(i&1023))
	}
}

func TestExplain(t *testing.T) {
	for spec, want := range map[string]string{
		"hotspot(0.2,0.8)": "80% of picks go to the first 20% of the entities (the oldest), the rest to the others",
		"uniform":          "every existing entity equally often",
		"latest":           "the newest entities most often (Zipf over recency, exponent 0.99)",
		"single(7)":        "entity 7 every time",
	} {
		d, err := ParseDistribution(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := Explain(d); got != want {
			t.Errorf("%s: %q, want %q", spec, got, want)
		}
	}
}

// ParseDistribution's refusals name the spec and what would be right.
func TestParseDistributionMessages(t *testing.T) {
	for spec, want := range map[string]string{
		"latest(11)":     `keygen: bad distribution: "latest(11)": the exponent must be in (0, 10], like zipf(0.99) or zipf(1.2)`,
		"zipf(1,2)":      `keygen: bad distribution: "zipf(1,2)": zipf takes no arguments or one argument`,
		"single(-1)":     `keygen: bad distribution: "single(-1)": single(I) needs a whole entity index I >= 0`,
		"single(1,2)":    `keygen: bad distribution: "single(1,2)": single takes no arguments or one argument`,
		"sequential(1)":  `keygen: bad distribution: "sequential(1)": sequential takes no arguments`,
		"hotspot(0.2,2)": `keygen: bad distribution: "hotspot(0.2,2)": hotspot(HOT,OPS) needs 0 < HOT < 1 (share of entities) and 0 <= OPS <= 1 (share of operations), like hotspot(0.2,0.8)`,
		"hotspot(x,1)":   `keygen: bad distribution: "hotspot(x,1)": argument "x" is not a number; write numbers, like zipf(0.99) or hotspot(0.2,0.8)`,
		"pareto":         `keygen: bad distribution: "pareto" is not a distribution; use one of ` + DistributionForms,
	} {
		if _, err := ParseDistribution(spec); err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", spec, err, want)
		}
	}
	if d, err := ParseDistribution("single(7)"); err != nil || d.(Single).At != 7 {
		t.Errorf("single(7) = %v, %v", d, err)
	}
	if d, err := ParseDistribution("hotspot(0.1,1)"); err != nil || d.(Hotspot) != (Hotspot{Hot: 0.1, Ops: 1}) {
		t.Errorf("hotspot(0.1,1) = %v, %v", d, err)
	}
}
