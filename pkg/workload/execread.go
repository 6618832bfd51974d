package workload

import (
	"context"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// The executor's reads: point reads, and queries page by page.

func (x *executor) pointRead(ctx context.Context, s plan.Step) (string, bool) {
	x.keysOf(s.Entity)
	pk, rk := string(x.keys.PK), x.keys.RK
	if s.Row > 0 {
		rk = x.keys.Rows[s.Row-1]
	}
	rks := string(rk)
	res := x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result {
		return x.main.Get(ctx, pk, rks, s.Op.Spec.Select)
	})
	return pk, okResult(res) && res.Entities > 0 // a projected read of a missing entity is a 200 with nothing
}

// query runs range queries, partition scans and table scans page by page;
// every page is a request of its own.
func (x *executor) query(ctx context.Context, s plan.Step) (string, bool) {
	store, part, q, want := x.queryOf(s)
	spec := s.Op.Spec
	pager := store.Query(ctx, q)
	got, pages := 0, 0
	for {
		var page table.Page
		more := false
		res := x.a.do(ctx, s.Op.Kind, part, true, func(ctx context.Context) table.Result {
			var r table.Result
			page, r, more = pager.Next(ctx)
			return r
		})
		if !okResult(res) {
			return part, false
		}
		pages++
		got += len(page.Entities)
		// The run's end stops a query between pages: it completes with
		// what it read, and sends no request after the end.
		if !more || (spec.MaxPages > 0 && pages >= spec.MaxPages) || (want > 0 && got >= want) || x.a.stopped() {
			return part, true
		}
	}
}

// queryOf returns the query step s sends, the store it reads and the
// partition its requests are recorded under, and the rows it wants (0: all
// pages up to max_pages).
func (x *executor) queryOf(s plan.Step) (store Store, part string, q table.Query, want int) {
	spec := s.Op.Spec
	store, part = x.main, metrics.CrossPartition
	q = table.Query{Select: spec.Select}
	switch {
	case s.Op.Kind == metrics.TableScan:
		q.Filter = spec.Filter
	case spec.Across:
		q.Filter = x.acrossFilter(s)
	default:
		store, part, q.Filter = x.partitionRange(s)
		if s.Op.Kind == metrics.RangeQuery {
			want = spec.Rows
			q.Top = int32(min(spec.Rows, azure.PageRows))
		}
	}
	if spec.Filter != "" && s.Op.Kind != metrics.TableScan {
		// A filter on non-key properties within the keys' bounds: the
		// service iterates every row in them to find the matches.
		q.Filter = "(" + q.Filter + ") and (" + spec.Filter + ")"
	}
	return store, part, q, want
}

// acrossFilter is the PartitionKey range of a query across partitions:
// from the picked entity's PartitionKey to that of the entity rows later.
func (x *executor) acrossFilter(s plan.Step) string {
	x.keysOf(s.Entity)
	lo := string(x.keys.PK)
	j := min(s.Entity+int64(s.Op.Spec.Rows), x.plan.Space.Bound()-1)
	x.keysOf(j)
	hi := string(x.keys.PK)
	if hi < lo {
		lo, hi = hi, lo
	}
	return table.FilterPKRange(lo, hi)
}

// partitionRange is the store, partition and filter of a query within the
// picked entity's partition (of the main table, or of the index table the
// operation reads): the whole partition for a scan or from: start, else
// the rows from the entity's RowKey on.
func (x *executor) partitionRange(s plan.Step) (Store, string, string) {
	x.keysOf(s.Entity)
	store, pk, rk := x.main, x.keys.PK, x.keys.RK
	part := string(pk)
	if s.Op.Index >= 0 {
		store = x.indexes[s.Op.Index]
		pk, rk = x.keys.Index[s.Op.Index].PK, x.keys.Index[s.Op.Index].RK
		part = indexLabel(s.Op.Spec.Index, pk)
	}
	if s.Op.Kind == metrics.PartitionScan || s.Op.Spec.From == "start" {
		return store, part, table.FilterPK(string(pk))
	}
	return store, part, table.FilterRowRange(string(pk), string(rk), "")
}
