package judge

import (
	"math"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// shapePop is a population of zipf-skewed devices and a region choice,
// an entity a millisecond.
func shapePop(t *testing.T) *keygen.Population {
	t.Helper()
	pop, err := keygen.NewPopulation(keygen.PopulationSpec{Seed: 3, Start: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Interval: time.Millisecond,
		Fields: []keygen.FieldSpec{
			{Name: "device", Kind: "id", Count: 12, Prefix: "d", Width: 2, Distribution: "zipf(1.3)"},
			{Name: "region", Kind: "choice", Values: []string{"eu", "us"}, Weights: []float64{3, 1}},
			{Name: "order", Kind: "sequence", Start: 1000},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return pop
}

func shapeFor(t *testing.T, pop *keygen.Population, tmpl string, span time.Duration) shape {
	t.Helper()
	tp, err := pop.Compile(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	var e keygen.Entity
	pop.Entity(5000, &e)
	return shapeOf(pop, tp, &e, span)
}

// The share of new entities each PartitionKey takes is the product of its
// fields' probabilities (fields are drawn independently), a hash bucket
// of a value new for every entity an equal part of it; a time bucket that
// outlasts a second of writes takes them all, one that turns over within
// it the part of the second it spans.
func TestShapeShares(t *testing.T) {
	pop := shapePop(t)
	dev, _ := pop.Support("device")
	reg, _ := pop.Support("region")
	render := func(d, r int) string {
		var e keygen.Entity
		pop.Entity(0, &e)
		pop.SetValue(&e, "device", dev.Values[d])
		pop.SetValue(&e, "region", reg.Values[r])
		s, _ := pop.FieldString(&e, "device")
		q, _ := pop.FieldString(&e, "region")
		return s + "_" + q
	}
	sh := shapeFor(t, pop, "{device}_{region}", time.Second)
	devices, top := 0, 0 // devices a rank lands on; the likeliest
	for d, p := range dev.Probs {
		if p > 0 {
			devices++
		}
		if p > dev.Probs[top] {
			top = d
		}
	}
	if len(sh.shares) != 2*devices || sh.unique || sh.bucket != 1 {
		t.Fatalf("shape %+v: want %d devices x 2 regions", sh, devices)
	}
	for d := range dev.Values {
		for r := range reg.Values {
			if got, want := sh.shares[render(d, r)], dev.Probs[d]*reg.Probs[r]; math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: share %v, want %v", render(d, r), got, want)
			}
		}
	}
	sh = shapeFor(t, pop, "{device}-{hash(order) % 4}", time.Second)
	if len(sh.shares) != 4*devices {
		t.Fatalf("%d keys, want %d devices x 4 buckets", len(sh.shares), devices)
	}
	for k := range 4 {
		var e keygen.Entity
		pop.Entity(0, &e)
		pop.SetValue(&e, "device", dev.Values[top])
		d, _ := pop.FieldString(&e, "device")
		if got := sh.shares[d+"-"+string(rune('0'+k))]; math.Abs(got-dev.Probs[top]/4) > 1e-12 {
			t.Errorf("bucket %d of %s: %v, want %v", k, d, got, dev.Probs[top]/4)
		}
	}
	// A day outlasts the 10 s of event time a second of writes covers; a
	// second bucket holds a tenth of them.
	if day, sec := shapeFor(t, pop, "{time:yyyy-MM-dd}", 10*time.Second), shapeFor(t, pop, "{time:yyyy-MM-dd-HH-mm-ss}", 10*time.Second); day.bucket != 1 || math.Abs(sec.bucket-0.1) > 1e-12 {
		t.Errorf("time buckets: day %v, second %v of a second's writes; want 1 and 0.1", day.bucket, sec.bucket)
	}
	if u := shapeFor(t, pop, "{order}", time.Second); !u.unique {
		t.Error("a sequence PartitionKey is not a partition per entity")
	}
}

// PartitionKeys that grow (or shrink) with every new entity put every
// insert beyond the existing keys: append-only, prepend-only; a day that
// leads the key does so once a day per key, and a hash bucket or a field
// leading it never.
func TestShapeMonotonic(t *testing.T) {
	pop := shapePop(t)
	for _, c := range []struct {
		tmpl      string
		dir       int
		monotonic bool
	}{
		{"{i:010}", 1, true},
		{"{order}", 1, true},
		{"{desc_seq}", -1, true},
		{"{inverted_ticks}", -1, true},
		{"{time:yyyy-MM-dd}-{hash(guid) % 8}", 1, false},
		{"{hash(guid) % 8}_{time:yyyy-MM-dd}", 0, false},
		{"{device}_{time:yyyy-MM-dd}", 0, false},
		{"{guid}", 0, false},
	} {
		sh := shapeFor(t, pop, c.tmpl, time.Second)
		if sh.dir != c.dir || (sh.extends >= 0.9) != c.monotonic {
			t.Errorf("%s: direction %d, %.3g of new entities beyond every key; want %d, monotonic %v", c.tmpl, sh.dir, sh.extends, c.dir, c.monotonic)
		}
	}
}
