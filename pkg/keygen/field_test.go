package keygen

import (
	"strings"
	"testing"
	"time"
)

func mustPop(t testing.TB, fields ...FieldSpec) *Population {
	t.Helper()
	p, err := NewPopulation(PopulationSpec{
		Seed: 42, Start: time.Date(2025, 2, 4, 0, 0, 0, 0, time.UTC), Interval: 100 * time.Millisecond,
		Fields: fields, Payload: PayloadSpec{Size: 256},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const fieldDraws = 100_000

func TestChoiceWeights(t *testing.T) {
	p := mustPop(t, fDepartment)
	counts := make([]int64, len(fDepartment.Values))
	index := map[string]int{}
	for i, v := range fDepartment.Values {
		index[v] = i
	}
	var e Entity
	for i := int64(0); i < fieldDraws; i++ {
		p.Entity(i, &e)
		counts[index[e.Values[0].Str]]++
	}
	chiSquare(t, "department weights", counts, []float64{0.80, 0.08, 0.05, 0.04, 0.03})
}

func TestChoiceZeroWeightNeverDrawn(t *testing.T) {
	p := mustPop(t, FieldSpec{Name: "c", Kind: "choice", Values: []string{"a", "never", "b"}, Weights: []float64{1, 0, 1}})
	var e Entity
	for i := int64(0); i < 20_000; i++ {
		p.Entity(i, &e)
		if e.Values[0].Str == "never" {
			t.Fatalf("entity %d drew a zero-weight value", i)
		}
	}
}

func TestIDFieldUniformAndZipf(t *testing.T) {
	p := mustPop(t,
		FieldSpec{Name: "u", Kind: "id", Count: 40},
		FieldSpec{Name: "z", Kind: "id", Count: 40, Distribution: "zipf(1.2)"},
		FieldSpec{Name: "s", Kind: "id", Count: 7, Distribution: "sequential"},
	)
	uc := make([]int64, 40)
	zc := make([]int64, 40)
	var e Entity
	for i := int64(0); i < fieldDraws; i++ {
		p.Entity(i, &e)
		uc[e.Values[0].Num]++
		zc[e.Values[1].Num]++
		if e.Values[2].Num != i%7 {
			t.Fatalf("sequential id of entity %d = %d, want %d", i, e.Values[2].Num, i%7)
		}
	}
	chiSquare(t, "uniform id", uc, uniformProbs(40))
	// Scrambled zipf: sorted frequencies follow the law.
	sorted := append([]int64{}, zc...)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if sorted[j] > sorted[i] {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	within(t, "zipf id top value", sorted[0], fieldDraws, zipfProbs(40, 1.2)[0], 5)
}

func TestIntFieldRange(t *testing.T) {
	p := mustPop(t, fAge)
	counts := make([]int64, 63)
	var e Entity
	for i := int64(0); i < fieldDraws; i++ {
		p.Entity(i, &e)
		v := e.Values[0].Num
		if v < 18 || v > 80 {
			t.Fatalf("age %d outside [18,80]", v)
		}
		counts[v-18]++
	}
	chiSquare(t, "age", counts, uniformProbs(63))
}

func TestFieldsAreIndependent(t *testing.T) {
	// Two fields with the same spec but different names must not move together.
	p := mustPop(t, FieldSpec{Name: "a", Kind: "id", Count: 2}, FieldSpec{Name: "b", Kind: "id", Count: 2})
	var same int64
	var e Entity
	for i := int64(0); i < fieldDraws; i++ {
		p.Entity(i, &e)
		if e.Values[0].Num == e.Values[1].Num {
			same++
		}
	}
	within(t, "a == b", same, fieldDraws, 0.5, 5)
}

func TestDeterminism(t *testing.T) {
	fields := []FieldSpec{fDevice, fTenant, fSlug, fAge, fDepartment, {Name: "g", Kind: "guid"}}
	a, b := mustPop(t, fields...), mustPop(t, fields...)
	spec := a.Spec()
	spec.Seed = 43
	c, err := NewPopulation(spec)
	if err != nil {
		t.Fatal(err)
	}
	var ea, eb, ec Entity
	differ := 0
	for _, i := range []int64{0, 1, 2, 999, 123456789} {
		a.Entity(i, &ea)
		b.Entity(i, &eb)
		c.Entity(i, &ec)
		ja := string(a.AppendJSON(nil, &ea, []byte("pk"), []byte("rk"), 0))
		jb := string(b.AppendJSON(nil, &eb, []byte("pk"), []byte("rk"), 0))
		jc := string(c.AppendJSON(nil, &ec, []byte("pk"), []byte("rk"), 0))
		if ja != jb {
			t.Errorf("entity %d differs between two populations with the same seed", i)
		}
		if ja != jc {
			differ++
		}
	}
	if differ < 4 {
		t.Errorf("changing the seed changed only %d of 5 entities", differ)
	}
}

func TestFieldSpecErrors(t *testing.T) {
	tests := []struct {
		spec FieldSpec
		want string
	}{
		{FieldSpec{Name: "x", Kind: "choice"}, "needs values"},
		{FieldSpec{Name: "x", Kind: "choice", Values: []string{"a"}, Weights: []float64{1, 2}}, "one weight per value"},
		{FieldSpec{Name: "x", Kind: "choice", Values: []string{"a"}, Weights: []float64{0}}, "sum to 0"},
		{FieldSpec{Name: "x", Kind: "id"}, "count >= 1"},
		{FieldSpec{Name: "x", Kind: "id", Count: 3, Distribution: "gauss"}, "not a distribution"},
		{FieldSpec{Name: "x", Kind: "int", Min: 5, Max: 1}, "below min"},
		{FieldSpec{Name: "x", Kind: "slug", Words: 9}, "between 1 and 8"},
		{FieldSpec{Name: "x", Kind: "colour"}, `kind "colour" is unknown`},
		{FieldSpec{Name: "x"}, "kind is missing"},
		{FieldSpec{Name: "1x", Kind: "guid"}, "must start with a letter"},
		{FieldSpec{Name: "time", Kind: "guid"}, "reserved"},
		{FieldSpec{Name: "RowKey", Kind: "guid"}, "reserved"},
	}
	for _, tt := range tests {
		_, err := NewPopulation(PopulationSpec{Fields: []FieldSpec{tt.spec}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want it to contain %q", tt.spec, err, tt.want)
		}
	}
	_, err := NewPopulation(PopulationSpec{Fields: []FieldSpec{fDevice, fDevice}})
	if err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("duplicate field: %v", err)
	}
}
