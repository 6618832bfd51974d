package emulator

import (
	"strings"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// Page boundaries. A page of a query ends, with a continuation to the
// entity it stopped at, where Azure ends one (REST "Query Timeout and
// Pagination": "a maximum of 1,000 items", "a maximum of five seconds",
// "if the query crosses the partition boundary"; REST "Design a scalable
// partitioning strategy for Azure Table storage": "If a query crosses a
// server boundary, continuation tokens must be returned"):
//
//   - after $top matches (at most 1,000, maxPage);
//   - after visiting what five seconds of execution allow, matched or not
//     (model.PageVisits: 100,000 entities at the model's defaults), which
//     may leave the page empty;
//   - with the model on, before the first entity served by another
//     partition server than the page's first (model.Place: a server under
//     Azure, a physical partition under Cosmos DB), which may leave the
//     page empty too.
//
// With the model off (as the SDK conformance suite runs the service, to
// compare it with Azurite, which draws no such boundary) there are no
// servers: a page ends after $top matches or maxScan entities visited, the
// same 100,000 the model's five seconds allow.

// maxScan is the most entities one query page visits with the model off
// (model.PageVisits when it is on): it keeps a filter on non-key
// properties from holding a large table's read lock, and so its writers,
// for long.
const maxScan = 100_000

// page is one query page being read: its limits and what it visited,
// partition by partition, for the model's charge. Not safe for concurrent
// use.
type page struct {
	limit  int                 // matches to return
	budget int                 // entities it may visit
	place  func(pk string) int // where a partition is served; nil: no server boundaries
	end    func(pk string) int // the end range a partition lies in (model.Visit.End)
	visits []model.Visit       // per partition visited, in key order
	first  int                 // where the page's first partition is served
	n      int                 // matches emitted
	seen   int                 // entities visited
	cur    string              // the partition being visited
}

// newPage returns a page of at most limit matches, visiting at most
// maxScan entities, with no server boundaries.
func newPage(limit int) *page { return &page{limit: limit, budget: maxScan} }

// enter starts visiting partition pk and reports whether the page may
// (false: pk is served elsewhere than the page's first partition).
func (p *page) enter(pk string) bool {
	if len(p.visits) > 0 && p.cur == pk {
		return true
	}
	if p.place != nil {
		if pl := p.place(pk); len(p.visits) == 0 {
			p.first = pl
		} else if pl != p.first {
			return false
		}
	}
	pk = strings.Clone(pk) // it outlives the view it came from
	v := model.Visit{Partition: pk}
	if p.end != nil {
		v.End = p.end(pk)
	}
	p.visits, p.cur = append(p.visits, v), pk
	return true
}

// visit counts one entity visited in the current partition.
func (p *page) visit() {
	p.seen++
	p.visits[len(p.visits)-1].Visited++
}

// returned counts one entity of bytes returned from the current partition.
func (p *page) returned(bytes int) {
	v := &p.visits[len(p.visits)-1]
	v.Returned++
	v.Bytes += bytes
}

// keys are a place in a table's (PartitionKey, RowKey) order: where a
// page starts.
type keys struct{ pk, rk string }

// less orders keys as the table does (keyorder: Azure's order).
func (k keys) less(o keys) bool {
	if k.pk != o.pk {
		return keyorder.Less(k.pk, o.pk)
	}
	return keyorder.Less(k.rk, o.rk)
}

// scan reads one page of table t: the entities from start on, in
// (PartitionKey, RowKey) order, within the key range, emitting those the
// filter matches, until the page ends (see the package's page
// boundaries). It returns the keys the next page starts at, and more
// false when the range or the table ended. Every entity it examined is
// counted in p (the one the next page starts at is not: that page counts
// it), so a filter that bounds the keys visits only the range. Callers
// hold the table's read lock; emit renders what it keeps of the entity (a
// view, see store.Table.Ascend) before returning.
func scan(t *store.Table, start keys, rg filter.KeyRange, f filter.Node, p *page, emit func(*store.Entity)) (next keys, more bool) {
	t.Ascend(start.pk, start.rk, func(e *store.Entity) bool {
		if rg.Past(e.PK(), e.RK()) {
			return false
		}
		if p.seen == p.budget || !p.enter(e.PK()) {
			next.pk, next.rk = e.Keys()
			more = true
			return false
		}
		if f != nil && !f.Eval(e) {
			p.visit()
			return true
		}
		if p.n == p.limit {
			next.pk, next.rk = e.Keys()
			more = true
			return false
		}
		p.visit()
		p.returned(e.Bytes())
		emit(e)
		p.n++
		return true
	})
	return next, more
}
