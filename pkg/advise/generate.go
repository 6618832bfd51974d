package advise

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

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
	// hot are the generated candidates over the headroom, to spread over
	// hash buckets once every form is judged.
	hot []*Candidate
	// mu guards specs, the forms' specs by runKey before they are made
	// unique, and runs, the judgements by runKey (ahead.go).
	mu    sync.Mutex
	specs map[string]specOf
	runs  map[string]*run
}

// maxSearches is how many hot candidates, the cheapest to ask first, are
// spread over hash buckets: a search judges several bucket counts.
const maxSearches = 8

// Candidates generates the candidates, judges them with the scenario's own
// schemes, and returns them all (own first), each with its prediction and
// its problems.
func (in *Input) Candidates(ctx context.Context) ([]*Candidate, error) {
	g := &generator{ctx: ctx, in: in, seen: map[string]*Candidate{}, names: map[string]bool{}, inherit: in.mixIndexes(),
		specs: map[string]specOf{}, runs: map[string]*run{}}
	var fs []form
	for _, rk := range in.rowKeys() {
		fs = append(fs, g.formsOf(rk)...)
	}
	defer g.ahead(fs)()
	for i, s := range in.Own {
		c := &Candidate{Spec: in.Scenario.SchemeSpec(i), Own: true, Pattern: "the scenario's own", Scheme: s}
		if err := g.judge(c); err != nil {
			return nil, err
		}
		g.add(c)
	}
	for _, f := range fs {
		if err := g.try(f); err != nil {
			return nil, err
		}
	}
	// Spread the most promising hot ones: those whose only problem is
	// their busiest partition (or their size), the cheapest questions
	// first.
	slices.SortStableFunc(g.hot, func(a, b *Candidate) int { return cmp.Compare(a.Prediction.QuestionMs, b.Prediction.QuestionMs) })
	for n, c := range g.hot {
		if n == maxSearches {
			break
		}
		if err := g.relieve(c); err != nil {
			return nil, err
		}
	}
	return g.out, nil
}

// form is a candidate before it is judged: its PartitionKey, its RowKey
// (and secondary rows), and its index tables.
type form struct {
	k  pkSpec
	rk rowKey
	ix []indexDesign
}

// formsOf is every PartitionKey form with RowKey rk, in the order they
// are judged.
func (g *generator) formsOf(rk rowKey) []form {
	in := g.in
	var bases []pkSpec
	for _, f := range in.keyFields() {
		bases = append(bases, pkSpec{field: f})
	}
	if in.fieldless() {
		bases = append(bases, pkSpec{unit: keygen.Year}) // the unit is sized below
		bases = append(bases, pkSpec{hashOf: in.hashSource(""), buckets: 2})
	}
	for _, u := range in.identFields() {
		for _, k := range []pkSpec{{hashOf: u, buckets: 2}, {ident: u}} {
			if !containsSpec(bases, k) {
				bases = append(bases, k)
			}
		}
	}
	var out []form
	for _, b := range bases {
		for _, k := range g.sized(b) {
			out = append(out, form{k: k, rk: rk})
		}
	}
	return out
}

// sized turns a base form into the forms worth judging: a field alone, with
// the time bucket that bounds its partitions' size over the horizon, with the
// month (Azure Storage "Table design patterns", "Compound key pattern": a
// field and a period, like a tenant's month), and with each calendar window a
// question asks within; time buckets alone sized the same way.
func (g *generator) sized(b pkSpec) []pkSpec {
	in := g.in
	if (b.field == "" && b.unit == keygen.NoUnit) || b.ident != "" {
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
	if u := in.granularity(share, in.keysLife(b.field), in.itemBytes()); u != keygen.NoUnit {
		units = append([]keygen.Unit{u}, units...)
	} else if b.field == "" {
		units = append([]keygen.Unit{keygen.Year}, units...)
	}
	if b.field != "" && in.Pop.Spec().Interval > 0 {
		units = append(units, keygen.Month)
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
// over the headroom (and has no other problem) it keeps to spread over
// hash buckets once every form is judged.
func (g *generator) try(f form) error {
	c, err := g.build(f)
	if err != nil {
		return err
	}
	g.add(c)
	tries := []*Candidate{c}
	if ds := g.in.indexDesigns(c); len(ds) > 0 {
		v, err := g.build(form{k: f.k, rk: f.rk, ix: ds})
		if err != nil {
			return err
		}
		g.add(v)
		tries = append(tries, v)
	}
	for _, t := range tries {
		if g.in.hot(t.Prediction) && g.onlyHot(t) && !slices.Contains(g.hot, t) {
			g.hot = append(g.hot, t)
		}
	}
	return nil
}

// build makes and judges the candidate of form f (with the index tables
// the mix reads besides its own), or returns the one judged before with
// the same templates.
func (g *generator) build(f form) (*Candidate, error) {
	sp := g.spec(f)
	if sp.err != nil {
		return nil, sp.err
	}
	spec, pattern := sp.spec, sp.pattern
	if c := g.seen[signature(spec)]; c != nil {
		if c.form == nil {
			c.form = &f // one of the scenario's own: its buckets can be searched like a generated form's
		}
		return c, nil
	}
	c := &Candidate{Spec: spec, Pattern: pattern, Buckets: f.k.buckets, Unit: f.k.unit, form: &f}
	return c, g.judge(c)
}

// judge compiles and judges c and says its problems.
func (g *generator) judge(c *Candidate) error {
	r := g.judgement(g.ctx, c)
	if r.err != nil {
		return r.err
	}
	c.Scheme, c.Prediction = r.scheme, r.p
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
		parts = append(parts, ix.Name, ix.PartitionKey, ix.RowKey, fmt.Sprint(ix.CarriesAll, ix.Carries))
	}
	return strings.Join(parts, "\x00")
}

// onlyHot reports whether candidate c's problems are its busiest
// partition's load, or its size, alone, or the refusals while partitions
// pay off a query's passes: what hash buckets may fix (a window ending
// now reads the newest buckets, which take the writes too).
func (g *generator) onlyHot(c *Candidate) bool {
	for _, f := range c.Problems {
		if !f.Hot() {
			return false
		}
	}
	return true
}

// relieve judges candidate c again, while its busiest partition is over
// the headroom, with the table that partition is in (the main table or an
// index table) spread over the fewest hash buckets that bring it under;
// each such candidate is added.
func (g *generator) relieve(c *Candidate) error {
	for round := 0; round < 3 && c != nil && c.form != nil && g.in.hot(c.Prediction); round++ {
		var at func(n int) (*Candidate, error)
		f := *c.form
		lo := max(f.k.buckets, 1)
		x := g.hotIndex(c)
		// Buckets that relieve writes may let each hold more event time;
		// buckets that split a query's pass keep theirs, or the pass grows
		// back.
		resize := c.Prediction.BusiestEntitiesPerSec > g.in.Opts.Headroom*g.in.PartitionTarget()
		switch {
		case x >= 0:
			lo = max(f.ix[x].buckets, 1)
			at = func(n int) (*Candidate, error) {
				v := f
				v.ix = append([]indexDesign(nil), f.ix...)
				d := &v.ix[x]
				d.buckets = n
				if resize && (d.unit != keygen.NoUnit || d.ident == "") {
					d.unit = g.in.granularity(g.in.designShare(*d)/float64(n), g.in.keysLife(d.keys...), g.in.itemBytes())
				}
				return g.build(v)
			}
		case f.k.ident != "":
			return nil // a partition per entity: no buckets to add
		default:
			if f.k.buckets == 0 {
				f.k.hashOf = g.in.hashSource(f.k.field)
			}
			at = func(n int) (*Candidate, error) {
				v := f
				v.k.buckets = n
				if resize && v.k.unit != keygen.NoUnit {
					if u := g.in.granularity(g.in.keyShare(v.k.field)/float64(n), g.in.keysLife(v.k.field), g.in.itemBytes()); u != keygen.NoUnit {
						v.k.unit = u
					}
				}
				return g.build(v)
			}
		}
		b, err := g.fewest(c, lo, at)
		if err != nil || b == nil {
			return err
		}
		b.Searched, b.SearchedBuckets = "", b.form.k.buckets
		if x >= 0 {
			b.Searched, b.SearchedBuckets = b.form.ix[x].spec().Name, b.form.ix[x].buckets
		}
		g.add(b)
		c = b
	}
	return nil
}

// hotIndex is the index of the index design holding the partition that
// makes candidate c hot (reports name an index table's
// "Name/PartitionKey"), or -1 when it is in the main table.
func (g *generator) hotIndex(c *Candidate) int {
	name, _, ok := strings.Cut(g.in.hotPartition(c.Prediction), "/")
	if !ok || c.form == nil {
		return -1
	}
	for x, d := range c.form.ix {
		if d.spec().Name == name {
			return x
		}
	}
	return -1
}

// designShare is the largest share of new entities one partition of
// index design d takes before hash buckets: its busiest key's.
func (in *Input) designShare(d indexDesign) float64 {
	share := 1.0
	for _, f := range d.keys {
		share *= in.topShare(f)
	}
	return share
}

// fewest judges the candidate with N hash buckets, N the smallest above
// lo that keeps the busiest partition at or below the headroom share of
// its target, found by doubling and then bisecting (the busiest partition
// does not grow with more buckets); at builds the form with n buckets.
// It starts at the lower bound: the busiest partition's new entities
// alone, split fewer ways, would be over the headroom. nil when
// MaxBuckets are not enough. The candidate found remembers the one with
// a bucket fewer (Fewer), which is over the headroom.
func (g *generator) fewest(base *Candidate, lo int, at func(n int) (*Candidate, error)) (*Candidate, error) {
	in := g.in
	judged := map[int]*Candidate{lo: base}
	get := func(n int) (*Candidate, error) {
		if c := judged[n]; c != nil {
			return c, nil
		}
		c, err := at(n)
		judged[n] = c
		return c, err
	}
	lb := int(math.Ceil(in.lowerBound(base.Prediction) * float64(lo)))
	hi := max(lo+1, 2, lb)
	for first := true; ; first = false {
		if hi > MaxBuckets {
			return nil, nil
		}
		c, err := get(hi)
		if err != nil {
			return nil, err
		}
		if !in.hot(c.Prediction) {
			break
		}
		if first && !in.relieves(base.Prediction, c.Prediction, float64(lo)/float64(hi)) {
			return nil, nil // buckets hardly relieve it: its load is not one buckets spread
		}
		lo, hi = hi, min(2*hi, MaxBuckets+1)
	}
	if lb-1 > lo {
		lo = lb - 1 // fewer cannot hold the busiest key's writes
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		c, err := get(mid)
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
	fewer, err := get(lo) // judged unless only the lower bound ruled it out
	if err != nil {
		return nil, err
	}
	c.Fewer = fewer
	return c, nil
}

// relieves reports whether spreading a prediction's partitions over more
// buckets (a fraction of the ones they were in: the prediction after)
// relieves it: its strain, or the largest pass, falls by a quarter of
// what an even spread would take off. The pass is asked as well because
// the refusals its debt causes are a share, which stays at all the
// requests until the passes are small enough to serve.
func (in *Input) relieves(before, after *Prediction, fraction float64) bool {
	b := in.strain(before)
	if b-in.strain(after) >= b*(1-fraction)/4 {
		return true
	}
	p := before.BurstRows
	return p > 0 && p-after.BurstRows >= p*(1-fraction)/4
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
