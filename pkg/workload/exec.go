package workload

import (
	"context"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// executor performs steps against the tables and records them. Each worker
// owns one; it is not safe for concurrent use.
type executor struct {
	plan    *plan.Plan
	main    Store
	indexes []Store // one per scheme index table
	a       attempts
	version int64   // counts this worker's rewrites; see nextVersion
	worker  int64   // the worker's id, which makes versions unique per run
	ledger  *ledger // acknowledged writes, when the run verifies them

	ent     keygen.Entity
	keys    keygen.Keys
	body    []byte
	actions []table.Action
}

// indexLabel is how a partition of an index table is named in reports:
// "PostsByCategory/azure". '/' cannot occur in a PartitionKey, so labels of
// the main table and of index tables never collide.
func indexLabel(index string, pk []byte) string { return index + "/" + string(pk) }

// nextVersion returns a version unique in the run: the worker in the high
// bits, its own counter in the low ones (exact as a JSON number).
func (x *executor) nextVersion() int64 {
	x.version++
	return (x.worker+1)<<32 | x.version
}

func (x *executor) keysOf(i int64) {
	x.plan.Pop.Entity(i, &x.ent)
	x.plan.Scheme.Keys(&x.ent, &x.keys)
}

// execute performs one step; scheduled is when it was due to start (latency
// is measured from there).
func (x *executor) execute(ctx context.Context, s plan.Step, scheduled time.Time) {
	op := s.Op.Kind
	x.a.opStart = scheduled
	if s.Missing {
		if op == metrics.Question {
			x.a.rec.QuestionDropped(s.Op.Question, scheduled)
			return
		}
		x.a.rec.Dropped(op, scheduled)
		return
	}
	if op == metrics.Question {
		x.ask(ctx, s, scheduled)
		return
	}
	var part string
	var ok bool
	switch s.Op.Kind {
	case metrics.PointRead:
		part, ok = x.pointRead(ctx, s)
	case metrics.RangeQuery, metrics.PartitionScan, metrics.TableScan:
		part, ok = x.query(ctx, s)
	case metrics.Insert:
		part, ok = x.insert(ctx, s)
	case metrics.UpsertMerge, metrics.UpsertReplace:
		part, ok = x.upsert(ctx, s)
	case metrics.Update:
		part, ok = x.update(ctx, s)
	case metrics.Delete:
		part, ok = x.delete(ctx, s)
	case metrics.Batch:
		part, ok = x.batch(ctx, s)
	}
	x.a.rec.Done(op, part, scheduled, x.a.clock.Now(), ok)
}

func okResult(r table.Result) bool { return r.Outcome.Class == outcome.OK }

// entityBody renders the full body of entity row r (0 main, k secondary).
func (x *executor) entityBody(r int, version int64) []byte {
	rk := x.keys.RK
	if r > 0 {
		rk = x.keys.Rows[r-1]
	}
	x.body = x.plan.Pop.AppendJSON(x.body[:0], &x.ent, x.keys.PK, rk, version)
	return x.body
}

// rowActions appends an action per row of the current entity.
func (x *executor) rowActions(kind table.ActionKind, version int64) {
	for r := 0; r < x.plan.Scheme.RowsPerEntity(); r++ {
		body := append([]byte(nil), x.entityBody(r, version)...)
		x.actions = append(x.actions, table.Action{Kind: kind, Entity: body})
	}
}

func (x *executor) insert(ctx context.Context, s plan.Step) (string, bool) {
	x.keysOf(s.Entity)
	pk := string(x.keys.PK)
	var res table.Result
	if len(x.keys.Rows) == 0 {
		body := x.entityBody(0, 0)
		res = x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Insert(ctx, body) })
	} else {
		// Secondary rows go with the main row in one entity group transaction.
		x.actions = x.actions[:0]
		x.rowActions(table.ActionInsert, 0)
		res = x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Submit(ctx, x.actions) })
	}
	if !okResult(res) {
		return pk, false
	}
	x.plan.Written(s.Entity)
	x.ledger.wrote(s.Entity, 0)
	return pk, x.writeIndexRows(ctx, s)
}

// writeIndexRows inserts the entity's row in every index table.
func (x *executor) writeIndexRows(ctx context.Context, s plan.Step) bool {
	ok := true
	for k := range x.plan.Scheme.Indexes {
		ix := &x.plan.Scheme.Indexes[k]
		ik := x.keys.Index[k]
		body := x.plan.Pop.AppendIndexRowJSON(nil, &x.ent, ix, ik.PK, ik.RK, x.keys.PK, x.keys.RK)
		res := x.a.do(ctx, s.Op.Kind, indexLabel(ix.Name, ik.PK), false, func(ctx context.Context) table.Result {
			return x.indexes[k].Insert(ctx, body)
		})
		ok = ok && okResult(res)
	}
	return ok
}

func (x *executor) upsert(ctx context.Context, s plan.Step) (string, bool) {
	x.keysOf(s.Entity)
	pk := string(x.keys.PK)
	v := x.nextVersion()
	mode := table.UpdateModeReplace
	body := x.entityBody(0, v)
	if s.Op.Kind == metrics.UpsertMerge {
		mode = table.UpdateModeMerge
		x.body = x.plan.Pop.AppendPatchJSON(x.body[:0], &x.ent, x.keys.PK, x.keys.RK, v)
		body = x.body
	}
	res := x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Upsert(ctx, body, mode) })
	if !okResult(res) {
		return pk, false
	}
	x.plan.Written(s.Entity) // an upsert of a new entity creates it
	x.ledger.wrote(s.Entity, v)
	return pk, x.rewriteCopies(ctx, s)
}

// update replaces the main row. With etag (the default) it reads the entity
// first and writes with If-Match, so concurrent writers see 412.
func (x *executor) update(ctx context.Context, s plan.Step) (string, bool) {
	x.keysOf(s.Entity)
	pk, rk := string(x.keys.PK), string(x.keys.RK)
	etag := ""
	if s.Op.Spec.ETag == nil || *s.Op.Spec.ETag {
		res := x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Get(ctx, pk, rk, []string{"RowKey"}) })
		if !okResult(res) || res.Entities == 0 {
			return pk, false
		}
		etag = res.ETag
	}
	v := x.nextVersion()
	body := x.entityBody(0, v)
	res := x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result {
		return x.main.Update(ctx, body, table.UpdateModeReplace, etag)
	})
	if !okResult(res) {
		return pk, false
	}
	x.ledger.wrote(s.Entity, v)
	return pk, x.rewriteCopies(ctx, s)
}

// rewriteCopies writes again, after an update, the entity's row in every
// index table whose rows carry its properties (a copy kept in step).
func (x *executor) rewriteCopies(ctx context.Context, s plan.Step) bool {
	ok := true
	for k := range x.plan.Scheme.Indexes {
		ix := &x.plan.Scheme.Indexes[k]
		if !ix.Projects() {
			continue
		}
		ik := x.keys.Index[k]
		body := x.plan.Pop.AppendIndexRowJSON(nil, &x.ent, ix, ik.PK, ik.RK, x.keys.PK, x.keys.RK)
		res := x.a.do(ctx, s.Op.Kind, indexLabel(ix.Name, ik.PK), false, func(ctx context.Context) table.Result {
			return x.indexes[k].Upsert(ctx, body, table.UpdateModeReplace)
		})
		ok = ok && okResult(res)
	}
	return ok
}

func (x *executor) delete(ctx context.Context, s plan.Step) (string, bool) {
	x.keysOf(s.Entity)
	pk, rk := string(x.keys.PK), string(x.keys.RK)
	var res table.Result
	if len(x.keys.Rows) == 0 {
		res = x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Delete(ctx, pk, rk, "") })
	} else {
		x.actions = x.actions[:0]
		for r := 0; r < x.plan.Scheme.RowsPerEntity(); r++ {
			row := x.keys.RK
			if r > 0 {
				row = x.keys.Rows[r-1]
			}
			x.actions = append(x.actions, table.Action{Kind: table.ActionDelete, Entity: keygen.AppendKeysJSON(nil, x.keys.PK, row)})
		}
		res = x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Submit(ctx, x.actions) })
	}
	if !okResult(res) {
		x.plan.Unclaim(s.Entity)
		return pk, false
	}
	x.ledger.removed(s.Entity)
	ok := true
	for k, ix := range x.plan.Scheme.Indexes {
		ik := x.keys.Index[k]
		ipk, irk := string(ik.PK), string(ik.RK)
		r := x.a.do(ctx, s.Op.Kind, indexLabel(ix.Name, ik.PK), false, func(ctx context.Context) table.Result {
			return x.indexes[k].Delete(ctx, ipk, irk, "")
		})
		ok = ok && okResult(r)
	}
	return pk, ok
}

// batchKinds maps a batch kind to the transaction action of each entity;
// mixed cycles through insert, upsert-replace and upsert-merge.
var batchKinds = map[string][]table.ActionKind{
	"insert":         {table.ActionInsert},
	"upsert_replace": {table.ActionUpsertReplace},
	"upsert_merge":   {table.ActionUpsertMerge},
	"mixed":          {table.ActionInsert, table.ActionUpsertReplace, table.ActionUpsertMerge},
}

// batch writes new entities of one partition in one entity group transaction,
// then their index rows grouped by index partition.
func (x *executor) batch(ctx context.Context, s plan.Step) (string, bool) {
	kinds := batchKinds[s.Op.Spec.Kind]
	x.actions = x.actions[:0]
	var pk string
	for n, i := range s.Batch {
		x.keysOf(i)
		pk = string(x.keys.PK)
		x.rowActions(kinds[n%len(kinds)], 0)
	}
	res := x.a.do(ctx, s.Op.Kind, pk, false, func(ctx context.Context) table.Result { return x.main.Submit(ctx, x.actions) })
	if !okResult(res) {
		return pk, false
	}
	for _, i := range s.Batch {
		x.plan.Written(i)
		x.ledger.wrote(i, 0)
	}
	ok := true
	for k, ix := range x.plan.Scheme.Indexes {
		groups := map[string][]table.Action{}
		var order []string
		for _, i := range s.Batch {
			x.keysOf(i)
			ik := x.keys.Index[k]
			body := keygen.AppendIndexJSON(nil, &x.ent, ik.PK, ik.RK, x.keys.PK, x.keys.RK)
			key := string(ik.PK)
			if _, seen := groups[key]; !seen {
				order = append(order, key)
			}
			groups[key] = append(groups[key], table.Action{Kind: table.ActionUpsertReplace, Entity: body})
		}
		for _, ipk := range order {
			acts := groups[ipk]
			r := x.a.do(ctx, s.Op.Kind, ix.Name+"/"+ipk, false, func(ctx context.Context) table.Result { return x.indexes[k].Submit(ctx, acts) })
			ok = ok && okResult(r)
		}
	}
	return pk, ok
}
