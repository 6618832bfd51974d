package keygen

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// lifetimePop is a population whose parcel keys live with law spec, an
// entity every iv.
func lifetimePop(t *testing.T, count int64, spec LifetimeSpec, iv time.Duration) (*Population, Lifetime) {
	t.Helper()
	pop, err := NewPopulation(PopulationSpec{Seed: 9, Interval: iv, Fields: []FieldSpec{
		{Name: "parcel", Kind: "id", Count: count, Prefix: "P", Lifetime: &spec},
	}})
	if err != nil {
		t.Fatal(err)
	}
	l, ok := pop.Lifetime("parcel")
	if !ok {
		t.Fatal("no lifetime")
	}
	return pop, l
}

// A key with a lifetime takes entities only while it lives: entity i's
// key is one of the Live keys [Oldest(i), Oldest(i)+Live), each as likely
// (chi-square over the live keys' offsets), so a key receives PerKey
// entities on average (a binomial count: its variance PerKey(1-1/Live))
// and none once it has retired, and Live keys are live at any entity.
func TestLifetimeLaw(t *testing.T) {
	pop, l := lifetimePop(t, 500, LifetimeSpec{Entities: 8}, time.Millisecond)
	if l.Live != 500 || l.PerKey != 8 || l.Window() != 4000 {
		t.Fatalf("lifetime %+v, window %v; want 500 live keys of 8, a window of 4,000", l, l.Window())
	}
	const n = 400_000
	counts := map[int64]int64{}
	offsets := make([]int64, l.Live)
	var e Entity
	for i := int64(0); i < n; i++ {
		pop.Entity(i, &e)
		k := e.Values[0].Num
		off := k - l.Oldest(i)
		if off < 0 || off >= l.Live {
			t.Fatalf("entity %d took key %d, not one of the live keys [%d, %d)", i, k, l.Oldest(i), l.Oldest(i)+l.Live)
		}
		if l.Retired(k, i) {
			t.Fatalf("entity %d took key %d, retired", i, k)
		}
		offsets[off]++
		counts[k]++
	}
	chiSquare(t, "live key offsets", offsets, uniformProbs(int(l.Live)))
	// Keys whose whole life lies in the sample: born at entity (k-Live+1)·8 >= 0, retired by n.
	var sum, sq, keys float64
	for k := l.Live; float64(k+1)*l.PerKey <= n; k++ {
		c := float64(counts[k])
		sum += c
		sq += c * c
		keys++
	}
	mean := sum / keys
	variance := sq/keys - mean*mean
	wantVar := l.PerKey * (1 - 1/float64(l.Live))
	if se := math.Sqrt(wantVar / keys); math.Abs(mean-l.PerKey) > 4*se {
		t.Errorf("a key received %.3f entities on average over %v keys; want %v ± %.3f", mean, keys, l.PerKey, 4*se)
	}
	if math.Abs(variance-wantVar) > 0.1*wantVar {
		t.Errorf("the entities a key receives vary by %.3f; want the binomial's %.3f", variance, wantVar)
	}
	// The keys are rendered ten digits wide unless told.
	if s, _ := pop.FieldString(&e, "parcel"); len(s) != 11 || !strings.HasPrefix(s, "P") {
		t.Errorf("key %q; want P and ten digits", s)
	}
}

// Two of count, span and entities give the third, at an entity per
// interval: Span = Live × PerKey × interval.
func TestLifetimeDerived(t *testing.T) {
	for _, tc := range []struct {
		name   string
		count  int64
		spec   LifetimeSpec
		live   int64
		perKey float64
	}{
		// 72 h at 4,000 entities/s is 1,036.8M entities: 103.68M keys of 10.
		{"span and entities", 0, LifetimeSpec{Span: 72 * time.Hour, Entities: 10}, 103_680_000, 10},
		{"count and entities", 1_000_000, LifetimeSpec{Entities: 4}, 1_000_000, 4},
		// 72 h over 1M live keys: 1,036.8 entities each.
		{"count and span", 1_000_000, LifetimeSpec{Span: 72 * time.Hour}, 1_000_000, 1036.8},
	} {
		_, l := lifetimePop(t, tc.count, tc.spec, 250*time.Microsecond)
		if l.Live != tc.live || math.Abs(l.PerKey-tc.perKey) > 1e-6*tc.perKey {
			t.Errorf("%s: %+v; want %d live keys of %v", tc.name, l, tc.live, tc.perKey)
		}
		if got := l.Span(250 * time.Microsecond); tc.spec.Span > 0 && got.Round(time.Second) != tc.spec.Span {
			t.Errorf("%s: a key lives %v; want %v", tc.name, got, tc.spec.Span)
		}
	}
}

// A lifetime that cannot be is refused, naming the member to change.
func TestLifetimeErrors(t *testing.T) {
	life := func(s LifetimeSpec) *LifetimeSpec { return &s }
	for _, tc := range []struct {
		spec   FieldSpec
		iv     time.Duration
		member string
		want   string
	}{
		{FieldSpec{Name: "p", Kind: "guid", Lifetime: life(LifetimeSpec{Entities: 3})}, time.Second, "lifetime", "applies to an id field"},
		{FieldSpec{Name: "p", Kind: "id", Count: 10, Lifetime: life(LifetimeSpec{Span: time.Hour, Entities: 3})}, time.Second, "lifetime", "takes two of count"},
		{FieldSpec{Name: "p", Kind: "id", Lifetime: life(LifetimeSpec{Entities: 3})}, time.Second, "lifetime", "takes two of count"},
		{FieldSpec{Name: "p", Kind: "id", Count: 10, Distribution: "zipf(1.1)", Lifetime: life(LifetimeSpec{Entities: 3})}, time.Second, "distribution", `remove distribution "zipf(1.1)"`},
		{FieldSpec{Name: "p", Kind: "id", Count: 5, Lifetime: life(LifetimeSpec{Entities: 3})}, 0, "lifetime", "needs population.interval > 0"},
		{FieldSpec{Name: "p", Kind: "id", Count: 10, Lifetime: life(LifetimeSpec{Entities: 0.5})}, time.Second, "lifetime.entities", "at least 1 entity"},
		{FieldSpec{Name: "p", Kind: "id", Lifetime: life(LifetimeSpec{Span: time.Second, Entities: 3})}, time.Second, "lifetime", "fewer than lifetime.entities"},
		{FieldSpec{Name: "p", Kind: "id", Count: 100, Lifetime: life(LifetimeSpec{Span: 10 * time.Second})}, time.Second, "lifetime", "a key needs at least 1"},
	} {
		_, err := NewPopulation(PopulationSpec{Interval: tc.iv, Fields: []FieldSpec{tc.spec}})
		m, ok := errors.AsType[*MemberError](err)
		if !ok || m.Member != tc.member || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrField) {
			t.Errorf("%+v at %v: %v; want an ErrField about %s saying %q", tc.spec, tc.iv, err, tc.member, tc.want)
		}
	}
}
