package advise

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// MaxBuckets is the most hash buckets the advisor spreads one key over.
const MaxBuckets = 64

// generator builds and judges candidates, skipping repeats.
type generator struct {
	ctx   context.Context
	in    *Input
	out   []*Candidate
	seen  map[string]*Candidate
	names map[string]bool
	// inherit are the index tables the mix reads by name, which every
	// candidate keeps so it runs the same workload.
	inherit []keygen.IndexSpec
}

// Candidates generates the candidates, judges them with the scenario's own
// schemes, and returns them all (own first), each with its prediction and
// its problems.
func (in *Input) Candidates(ctx context.Context) ([]*Candidate, error) {
	g := &generator{ctx: ctx, in: in, seen: map[string]*Candidate{}, names: map[string]bool{}, inherit: in.mixIndexes()}
	for i, s := range in.Own {
		c := &Candidate{Spec: in.Scenario.SchemeSpec(i), Own: true, Pattern: "the scenario's own", Scheme: s}
		if err := g.judge(c); err != nil {
			return nil, err
		}
		g.add(c)
	}
	for _, rk := range in.rowKeys() {
		if err := g.forms(rk); err != nil {
			return nil, err
		}
	}
	return g.out, nil
}

// forms generates every PartitionKey form with RowKey rk.
func (g *generator) forms(rk rowKey) error {
	in := g.in
	var bases []pkSpec
	for _, f := range in.keyFields() {
		bases = append(bases, pkSpec{field: f})
	}
	if in.fieldless() {
		bases = append(bases, pkSpec{unit: "year"}) // the unit is sized below
		bases = append(bases, pkSpec{hashOf: in.hashSource(""), buckets: 2})
	}
	for _, u := range in.identFields() {
		if k := (pkSpec{hashOf: u, buckets: 2}); !containsSpec(bases, k) {
			bases = append(bases, k)
		}
	}
	for _, b := range bases {
		for _, k := range g.sized(b) {
			if err := g.try(k, rk); err != nil {
				return err
			}
		}
	}
	return nil
}

// sized turns a base form into the forms worth judging: a field alone,
// with the time bucket that bounds its partitions' size over the horizon,
// and with each calendar window a question asks within; time buckets
// alone sized the same way.
func (g *generator) sized(b pkSpec) []pkSpec {
	in := g.in
	if b.field == "" && b.unit == "" {
		return []pkSpec{b}
	}
	share := 1.0
	if b.field != "" {
		share = in.topShare(b.field)
	}
	var out []pkSpec
	if b.field != "" {
		out = append(out, b)
	}
	units := in.windowUnits()
	if u := in.granularity(share, in.itemBytes()); u != "" {
		units = append([]string{u}, units...)
	} else if b.field == "" {
		units = append([]string{"year"}, units...)
	}
	for _, u := range units {
		k := b
		k.unit = u
		if !containsSpec(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func containsSpec(s []pkSpec, k pkSpec) bool {
	for _, x := range s {
		if x == k {
			return true
		}
	}
	return false
}

// try judges the form, and the form with index tables for the questions
// its main table can only scan; each of them whose busiest partition is
// over the headroom, it judges again spread over the fewest hash buckets
// that bring it under.
func (g *generator) try(k pkSpec, rk rowKey) error {
	c, err := g.build(k, rk, nil)
	if err != nil {
		return err
	}
	g.add(c)
	tries := []*Candidate{c}
	var ix []keygen.IndexSpec
	if ix = g.in.indexesFor(c); len(ix) > 0 {
		v, err := g.build(k, rk, ix)
		if err != nil {
			return err
		}
		g.add(v)
		tries = append(tries, v)
	}
	for n, t := range tries {
		if !g.in.hot(t.Prediction) {
			continue
		}
		var with []keygen.IndexSpec
		if n > 0 {
			with = ix
		}
		b, err := g.bucketed(k, rk, with, t)
		if err != nil {
			return err
		}
		if b != nil {
			g.add(b)
		}
	}
	return nil
}

// build makes and judges the candidate of form k, RowKey rk and index
// tables ix (besides those the mix reads), or returns the one judged
// before with the same templates.
func (g *generator) build(k pkSpec, rk rowKey, ix []keygen.IndexSpec) (*Candidate, error) {
	name := k.name()
	if rk.label != "" {
		name += "-" + rk.label
	}
	pattern := k.pattern() + ", RowKey " + rk.template
	var names []string
	for _, x := range ix {
		names = append(names, x.Name)
	}
	if len(names) > 0 {
		name += "+" + strings.Join(names, "+")
		pattern += ", index " + strings.Join(names, ", ")
	}
	spec := keygen.SchemeSpec{Name: name, PartitionKey: k.template(), RowKey: rk.template, Indexes: append(append([]keygen.IndexSpec(nil), g.inherit...), ix...)}
	spec, err := g.in.unique(spec)
	if err != nil {
		return nil, fmt.Errorf("candidate %s: %w", name, err)
	}
	if c := g.seen[signature(spec)]; c != nil {
		return c, nil
	}
	c := &Candidate{Spec: spec, Pattern: pattern, Buckets: k.buckets, Unit: k.unit}
	return c, g.judge(c)
}

// judge compiles and judges c and says its problems.
func (g *generator) judge(c *Candidate) error {
	if c.Scheme == nil {
		s, err := keygen.CompileScheme(g.in.Pop, c.Spec)
		if err != nil {
			return fmt.Errorf("candidate %s: %w", c.Spec.Name, err)
		}
		c.Scheme = s
	}
	p, err := g.in.Judge(g.ctx, c.Scheme)
	if err != nil {
		return err
	}
	c.Prediction = p
	c.Problems = g.in.problems(c)
	return nil
}

// add lists c, once, under a name no other candidate has.
func (g *generator) add(c *Candidate) {
	if g.seen[signature(c.Spec)] == c {
		return
	}
	for g.names[c.Spec.Name] {
		c.Spec.Name = "advised-" + c.Spec.Name
	}
	g.seen[signature(c.Spec)] = c
	g.names[c.Spec.Name] = true
	g.out = append(g.out, c)
}

// signature is what makes two schemes the same: their templates.
func signature(s keygen.SchemeSpec) string {
	parts := []string{s.PartitionKey, s.RowKey, strings.Join(s.Rows, "\x01")}
	for _, ix := range s.Indexes {
		parts = append(parts, ix.Name, ix.PartitionKey, ix.RowKey)
	}
	return strings.Join(parts, "\x00")
}

// bucketed judges form k spread over N hash buckets, N the smallest that
// keeps the busiest partition at or below the headroom share of its
// target, found by doubling and then bisecting (the busiest partition
// does not grow with more buckets). It starts at the lower bound: the
// busiest key's new entities alone, split fewer ways, would be over the
// headroom. nil when MaxBuckets are not enough.
func (g *generator) bucketed(k pkSpec, rk rowKey, ix []keygen.IndexSpec, base *Candidate) (*Candidate, error) {
	in := g.in
	if k.buckets == 0 {
		k.hashOf = in.hashSource(k.field)
	}
	judged := map[int]*Candidate{max(k.buckets, 1): base}
	at := func(n int) (*Candidate, error) {
		if c := judged[n]; c != nil {
			return c, nil
		}
		f := k
		f.buckets = n
		if f.unit != "" {
			if u := in.granularity(in.keyShare(f.field)/float64(n), in.itemBytes()); u != "" {
				f.unit = u
			}
		}
		c, err := g.build(f, rk, ix)
		judged[n] = c
		return c, err
	}
	lo := max(k.buckets, 1) // over the headroom
	hi := max(lo+1, 2, int(math.Ceil(in.lowerBound(base.Prediction)*float64(lo))))
	for {
		if hi > MaxBuckets {
			return nil, nil
		}
		c, err := at(hi)
		if err != nil {
			return nil, err
		}
		if !in.hot(c.Prediction) {
			break
		}
		lo, hi = hi, min(2*hi, MaxBuckets+1)
	}
	if lb := int(math.Ceil(in.lowerBound(base.Prediction) * float64(max(k.buckets, 1)))); lb-1 > lo {
		lo = lb - 1 // fewer cannot hold the busiest key's writes
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		c, err := at(mid)
		if err != nil {
			return nil, err
		}
		if in.hot(c.Prediction) {
			lo = mid
		} else {
			hi = mid
		}
	}
	c := judged[hi]
	fewer, err := at(lo) // judged unless only the lower bound ruled it out
	if err != nil {
		return nil, err
	}
	c.Fewer = fewer
	return c, nil
}

// keyShare is the largest share of new entities one value of field takes
// (1 for no field).
func (in *Input) keyShare(field string) float64 {
	if field == "" {
		return 1
	}
	return in.topShare(field)
}

// lowerBound is the fewest buckets that could bring a prediction's
// busiest partition under the headroom: its new entities split evenly
// (for a form already in buckets, a factor more than it has).
func (in *Input) lowerBound(p *Prediction) float64 {
	if in.Cosmos() {
		return p.Cosmos.BusiestPerSec / (in.Opts.Headroom * in.Opts.Model.Cosmos.LogicalRU) * p.BusiestWriteEntitiesPerSec / math.Max(p.BusiestEntitiesPerSec, 1)
	}
	return p.BusiestWriteEntitiesPerSec / (in.Opts.Headroom * in.PartitionTarget())
}
