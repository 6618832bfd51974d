package judge

import (
	"math"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// shapeInput is a population of zipf-skewed devices and a region choice,
// an entity a millisecond, written at 1,000 a second.
func shapeInput(t *testing.T) *Input {
	t.Helper()
	return prepare(t, "shape", []byte(`
population:
  entities: 5000
  start: 2025-01-01T00:00:00Z
  interval: 1ms
  fields:
    device: {kind: id, count: 12, prefix: d, width: 2, distribution: zipf(1.3)}
    region: {kind: choice, values: [eu, us], weights: [3, 1]}
    order: {kind: sequence, start: 1000}
schemes:
  - {name: s, partition_key: "{device}", row_key: "{order}"}
workload:
  rate: 1000
  mix: [{op: insert}]
`))
}

func layoutFor(t *testing.T, in *Input, tmpl string) *layout {
	t.Helper()
	tp, err := in.Pop.Compile(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	return in.newLayout("", tp, 1)
}

// A table's partitions are its fields' combinations, each taking the
// product of the fields' probabilities (fields are drawn independently),
// a hash bucket of a value new for every entity an equal part of it; a
// time bucket that outlasts a second of writes takes them all, one that
// turns over within it the part of the second it spans.
func TestLayoutShares(t *testing.T) {
	in := shapeInput(t)
	dev, _ := in.Support("device")
	reg, _ := in.Support("region")
	lay := layoutFor(t, in, "{device}_{region}")
	total, parts := 0.0, 0.0
	for g, gr := range lay.groups {
		total += gr.mult * gr.share
		parts += lay.partitionsPerGroup(g)
	}
	devices := 0
	for _, p := range dev.Probs {
		if p > 0 {
			devices++
		}
	}
	if math.Abs(total-1) > 1e-9 || parts != float64(2*devices) || lay.unique || lay.hashes != 1 {
		t.Fatalf("{device}_{region}: shares sum to %v over %v partitions; want 1 over %d devices x 2 regions", total, parts, devices)
	}
	var e keygen.Entity
	in.Pop.Entity(0, &e)
	j := &judging{in: in}
	for d := range dev.Values {
		for r := range reg.Values {
			in.Pop.SetValue(&e, "device", dev.Values[d])
			in.Pop.SetValue(&e, "region", reg.Values[r])
			g := j.groupOf(lay, &e)
			if want := dev.Probs[d] * reg.Probs[r]; want > 0 && (g < 0 || math.Abs(lay.groups[g].share-want) > 1e-12) {
				t.Errorf("device %d, region %d: group %d, want share %v", d, r, g, want)
			}
		}
	}
	hashed := layoutFor(t, in, "{device}-{hash(order) % 4}")
	if hashed.hashes != 4 || hashed.keys() != float64(4*devices) {
		t.Errorf("{device}-{hash(order) %% 4}: %v buckets, %v keys; want 4 buckets of %d devices", hashed.hashes, hashed.keys(), devices)
	}
	// A day outlasts the second of event time a second of writes covers
	// (an entity a millisecond, 1,000 a second); at 10,000 writes a second
	// a second's bucket holds a tenth of them.
	jd := &judging{in: in}
	s := in.SeededSize()
	if day, sec := layoutFor(t, in, "{time:yyyy-MM-dd}"), layoutFor(t, in, "{time:yyyy-MM-dd-HH-mm-ss}"); jd.turnover(day, s, 1000) != 1 || math.Abs(jd.turnover(sec, s, 10000)-0.1) > 1e-12 {
		t.Errorf("time buckets: day %v, second %v of a second's writes; want 1 and 0.1", jd.turnover(day, s, 1000), jd.turnover(sec, s, 10000))
	}
	if u := layoutFor(t, in, "{order}"); !u.unique {
		t.Error("a sequence PartitionKey is not a partition per entity")
	}
}

// PartitionKeys that grow (or shrink) with every new entity put every
// insert beyond the existing keys: append-only, prepend-only; a day that
// leads the key does so once a day per key, and a hash bucket or a field
// leading it never.
func TestLayoutMonotonic(t *testing.T) {
	in := shapeInput(t)
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
		lay := layoutFor(t, in, c.tmpl)
		dir, extends := leading(lay.parts, lay.srcs, lay.keys(), in.Pop.Spec().Interval)
		if dir != c.dir || (extends >= 0.9) != c.monotonic {
			t.Errorf("%s: direction %d, %.3g of new entities beyond every key; want %d, monotonic %v", c.tmpl, dir, extends, c.dir, c.monotonic)
		}
	}
}
