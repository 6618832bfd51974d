package judge

import (
	"math"
	"sort"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/question"
)

// picks are where an operation on existing entities lands in one table
// at one size, averaged over the phases of the current time bucket: the
// diffuse picks' share of each time bucket, and how full each bucket is
// (of a full bucket's rows).
type picks struct {
	law    posLaw
	shares [recent + 1]float64
	fill   [recent + 1]float64
}

// picksOf averages d's law over lay's time buckets at size s.
func (j *judging) picksOf(lay *layout, s Size, d posLaw) picks {
	diffuse := posLaw{diffuse: d.diffuse, cdf: d.cdf}
	if diffuse.cdf == nil {
		diffuse.cdf = uniformCDF
	}
	out := picks{law: d}
	ns := nows(lay.cal, lay.unit, s, 0)
	for _, t := range ns {
		sh := bucketShares(diffuse, lay, s.at(t), phaseOf(t, lay.cal, lay.unit))
		for b := range sh {
			out.shares[b] += sh[b] / float64(len(ns))
		}
	}
	out.fill = fills(lay, s)
	return out
}

// fills are how full each time bucket of lay is at size s, of a full
// bucket's rows (fullRows), averaged over the moments it is judged at
// (the table as it is at each: Size.at).
func fills(lay *layout, s Size) [recent + 1]float64 {
	if lay.unit <= 0 && lay.life > 0 {
		return lifeFills(lay, s)
	}
	var out [recent + 1]float64
	ns := nows(lay.cal, lay.unit, s, 0)
	for _, t := range ns {
		ph := phaseOf(t, lay.cal, lay.unit)
		for b := range out {
			out[b] += fillOf(lay, s.at(t), ph, b) / float64(len(ns))
		}
	}
	return out
}

// fillOf is how full time bucket b of lay is at size s when the current
// one has run for phase: the part of it the table's event time covers
// (the current bucket the part it has run, an older one all of it
// unless the table begins within it); without time buckets, or when
// event time does not move, the one bucket holds the whole table.
func fillOf(lay *layout, s Size, phase time.Duration, b int) float64 {
	if lay.unit <= 0 || s.Span <= 0 {
		if b == 0 {
			return 1
		}
		return 0
	}
	start, end := time.Duration(0), max(phase, 1)
	if b > 0 {
		start = phase + time.Duration(b-1)*lay.unit
		end = start + lay.unit
	}
	return float64(overlap(start, end, 0, s.Span)) / float64(lay.unit)
}

// bucketOf is the time bucket of lay an entity of age fraction age is in
// at size s.
func bucketOf(lay *layout, s Size, age float64) int32 {
	if lay.unit <= 0 && lay.life > 0 { // live while younger than half a life, on average
		return lifeBucket(age*float64(s.Span) < float64(lay.life)/2)
	}
	if lay.unit <= 0 || s.Span <= 0 {
		return 0
	}
	b := int32(math.Floor(age * float64(s.Span) / float64(lay.unit)))
	return min(max(b, 0), recent)
}

// picked puts an operation on existing entities on the partition of the
// entity it picks: what it reads, visits or writes there, as the
// executor does (an update reads first when it checks the ETag; a query
// returns up to its rows or pages, at most the partition's rows; a
// filtered query visits rows and returns the share its filter selects:
// filteredCost).
func (j *judging) picked(l *loads, s Size, o OpRate) {
	x := 0
	for k, ix := range j.scheme.Indexes {
		if o.Spec.Index != "" && ix.Name == o.Spec.Index {
			x = k + 1
		}
	}
	cost, sel := j.opCost, j.filtered(o, x, s, false)
	if sel < 1 {
		cost = j.filteredCost(sel)
	}
	j.pickedOn(l, s, o, x, sel, cost)
	if o.Spec.Index != "" {
		return
	}
	switch o.Kind {
	case metrics.Update, metrics.UpsertMerge, metrics.UpsertReplace:
		// An index row that carries the entity is written again with it,
		// a request of its own.
		writeRU := model.WriteUnits(j.item.bytes, j.item.props)
		for k, ix := range j.scheme.Indexes {
			if ix.Projects() {
				j.pickedOn(l, s, o, k+1, 1, func(OpRate, float64) (float64, float64, float64) { return 1, 1, writeRU })
			}
		}
	}
}

// pickedOn puts operation o on the partition of table x (0 the main
// table) holding the entity it picks, each costing what cost says; the
// client counts sel of the entities each visits (filtered).
func (j *judging) pickedOn(l *loads, s Size, o OpRate, x int, sel float64, cost func(OpRate, float64) (e, reqs, ru float64)) {
	lay := j.lays[x]
	pk := j.picksOf(lay, s, j.in.positions(o.Dist, s, j.newEntities()))
	put := func(k pkey, p, rows float64) {
		e, reqs, ru := cost(o, rows)
		got := e * sel // what the client counts: the filter's matches
		if o.Spec.Across {
			// A PartitionKey range: the client counts it under no one
			// partition; the picked one stands for those it visits.
			l.add(k, o.Rate*p, e, 0, ru)
			l.cross += o.Rate * p * l.mult(k) * got
		} else {
			l.add(k, o.Rate*p, e, got, ru)
		}
		if o.Kind == metrics.RangeQuery || o.Kind == metrics.PartitionScan {
			l.pass(k, e, o.Rate*p, o.Kind.String())
		}
		l.account(o.Rate*p*l.mult(k)*reqs, got/reqs, ru/reqs)
		l.egress += o.Rate * p * l.mult(k) * got * float64(j.item.bytes)
	}
	if lay.unique {
		e, reqs, ru := cost(o, lay.rows)
		l.account(o.Rate*reqs, e*sel/reqs, ru/reqs)
		l.egress += o.Rate * e * sel * float64(j.item.bytes)
		return
	}
	for g, gr := range lay.groups {
		for b := int32(0); b <= recent; b++ {
			if p := pk.law.diffuse * gr.share / lay.hashes * pk.shares[b]; p > 0 {
				put(pkey{int32(x), int32(g), b}, p, lay.fullRows(g, s)*pk.fill[b])
			}
		}
	}
	for _, a := range pk.law.atoms {
		b := bucketOf(lay, s, a.age)
		if k, ok := j.atomKey(l, x, a.index, b); ok {
			base := l.atoms[-1-k.group].base
			put(k, a.p, lay.fullRows(int(base.group), s)*pk.fill[b])
		}
	}
}

// opCost is what one operation of o costs on a partition of rows rows
// (plan.OpCost, the executor's rule), at least one entity: the entities
// it reads or writes, its requests and request units.
func (j *judging) opCost(o OpRate, rows float64) (e, reqs, ru float64) {
	c, _ := plan.OpCost(o.Kind, o.Spec, rows, j.scheme)
	e, reqs = math.Max(1, c.Entities), c.Requests
	if c.Query {
		return e, reqs, model.QueryUnits(int(reqs), int(e), int(e), j.item.bytes)
	}
	return e, reqs, c.Reads*model.ReadUnits(j.item.bytes) + c.Writes*model.WriteUnits(j.item.bytes, j.item.props)
}

// filtered is the share of the rows o visits on table x at size s that
// its filter returns (selectivity), 1 for an operation with no filter or
// one that is not a query.
func (j *judging) filtered(o OpRate, x int, s Size, whole bool) float64 {
	switch o.Kind {
	case metrics.RangeQuery, metrics.PartitionScan, metrics.TableScan:
		return j.selectivity(o.Spec.Filter, x, s, whole)
	}
	return 1
}

// filteredCost is opCost of a query whose filter returns sel of the rows
// it visits, as the executor asks it: a range query visits rows until it
// has its rows' matches or its range ends; a scan visits the partition,
// up to its pages (each ending at azure.PageRows matches or
// question.PageVisits rows visited). The entities are those visited (what
// the partition serves), the requests its pages.
func (j *judging) filteredCost(sel float64) func(OpRate, float64) (e, reqs, ru float64) {
	return func(o OpRate, rows float64) (e, reqs, ru float64) {
		v := rows
		switch o.Kind {
		case metrics.RangeQuery:
			if sel > 0 {
				v = math.Min(rows, float64(o.Spec.Rows)/sel)
			}
		case metrics.PartitionScan:
			if o.Spec.MaxPages > 0 {
				perPage := float64(question.PageVisits)
				if sel > 0 {
					perPage = math.Min(perPage, azure.PageRows/sel)
				}
				v = math.Min(rows, float64(o.Spec.MaxPages)*perPage)
			}
		}
		v = math.Max(v, 1)
		got := v * sel
		reqs = pages(got, v)
		return v, reqs, model.QueryUnits(int(reqs), int(v), int(got), j.item.bytes)
	}
}

// tableScan puts a table scan on the partitions in key order, up to its
// pages of 1,000 entities (a page also ends at each partition, Azure's
// documented rule): the main table's groups in the order of their first
// partition's name, each partition's rows at size s.
func (j *judging) tableScan(l *loads, s Size, o OpRate) {
	lay := j.lays[0]
	sel := j.filtered(o, 0, s, true)
	left := math.Inf(1)
	if o.Spec.MaxPages > 0 {
		// A page ends at its matches' azure.PageRows or after visiting
		// question.PageVisits rows.
		perPage := azure.PageRows / math.Max(sel, azure.PageRows/question.PageVisits)
		left = float64(o.Spec.MaxPages) * perPage
	}
	order := make([]int, len(lay.groups))
	names := make([]string, len(lay.groups))
	for g := range order {
		order[g], names[g] = g, lay.name(j.in, g, s.Last.Add(-s.Span))
	}
	sort.SliceStable(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	reqs, total := 0.0, 0.0
	for _, g := range order {
		if left <= 0 || lay.unique {
			break
		}
		rows := lay.bucketRows(g, s)
		n := lay.partitionsPerGroup(g) * lay.buckets(s)
		if lay.unit <= 0 && lay.life > 0 { // the live keys' and the retired ones'
			n = lay.partitionsPerGroup(g) * (1 + lay.generations(s))
		}
		take := math.Min(left, rows*n)
		per := take / n // each partition's share of what is read
		left -= take
		reqs += n * pages(per*sel, per)
		total += take
		for b := int32(0); b <= recent; b++ {
			l.add(pkey{0, int32(g), b}, o.Rate, per, 0, model.QueryUnits(0, int(per), int(per*sel), j.item.bytes))
			l.pass(pkey{0, int32(g), b}, per, o.Rate, o.Kind.String())
		}
	}
	l.cross += o.Rate * total * sel
	reqs = math.Max(reqs, 1)
	l.account(o.Rate*reqs, total*sel/reqs, model.QueryUnits(int(reqs), int(total), int(total*sel), j.item.bytes)/reqs)
	l.egress += o.Rate * total * sel * float64(j.item.bytes)
}
