package workload

import (
	"context"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/table"
)

// seedGroup is the transaction of one partition of a table being filled
// while a chunk of the population is grouped: its rows' bodies.
type seedGroup struct {
	pk     string
	bodies [][]byte
	bytes  int
	// seen is the RowKeys of the chunk so far in this partition: a row
	// with one of them again is a collision, and skipped.
	seen map[string]struct{}
}

// seedGroups groups the rows of one table by partition.
type seedGroups struct {
	store Store
	index bool // an index table's rows, not counted as the main table's
	byPK  map[string]*seedGroup
	order []*seedGroup
	arena *arena
}

func newSeedGroups(store Store, index bool, a *arena) *seedGroups {
	return &seedGroups{store: store, index: index, byPK: map[string]*seedGroup{}, arena: a}
}

// arena packs the bodies of a chunk's rows in blocks of arenaBlock bytes,
// so a row costs no allocation of its own. A block lives until the last
// transaction holding one of its rows is done.
type arena struct{ block []byte }

const arenaBlock = 1 << 20

// copy returns a copy of b in the arena.
func (a *arena) copy(b []byte) []byte {
	if len(a.block)+len(b) > cap(a.block) {
		a.block = make([]byte, 0, max(arenaBlock, len(b)))
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return a.block[start:len(a.block):len(a.block)]
}

// add appends a row (its keys and body) to its partition's transaction,
// queueing the transaction first when the row would not fit. It reports
// false for alive when ctx ended, and whether the row was added (false: a
// collision).
func (gs *seedGroups) add(ctx context.Context, jobs clock.Queue[seedJob], pk, rk, body []byte) (alive, added bool) {
	g := gs.byPK[string(pk)]
	if g == nil {
		g = &seedGroup{pk: string(pk), seen: map[string]struct{}{}}
		gs.byPK[g.pk] = g
		gs.order = append(gs.order, g)
	}
	if _, dup := g.seen[string(rk)]; dup {
		return true, false // same keys as an earlier entity: a collision
	}
	if len(g.bodies) == table.MaxTransactionActions || g.bytes+len(body) > batchBytes {
		if !gs.send(ctx, jobs, g) {
			return false, false
		}
	}
	g.seen[string(rk)] = struct{}{}
	g.bodies = append(g.bodies, gs.arena.copy(body))
	g.bytes += len(body)
	return true, true
}

// send queues g's transaction and starts the next, false when ctx ended.
// The job keeps the bodies: the next transaction gets a new list.
func (gs *seedGroups) send(ctx context.Context, jobs clock.Queue[seedJob], g *seedGroup) bool {
	if len(g.bodies) == 0 {
		return true
	}
	if !jobs.Send(ctx, seedJob{store: gs.store, pk: g.pk, bodies: g.bodies, index: gs.index}) {
		return false
	}
	g.bodies = make([][]byte, 0, len(g.bodies))
	g.bytes = 0
	return true
}

// flush queues every partition's transaction, false when ctx ended.
func (gs *seedGroups) flush(ctx context.Context, jobs clock.Queue[seedJob]) bool {
	for _, g := range gs.order {
		if !gs.send(ctx, jobs, g) {
			return false
		}
	}
	return true
}

// produce groups entities [lo, hi) by partition and queues their
// transactions.
func (c *SeedConfig) produce(ctx context.Context, lo, hi int64, jobs clock.Queue[seedJob], partitions map[string]struct{}, res *SeedResult) bool {
	p := c.Plan
	var ent keygen.Entity
	var keys keygen.Keys
	var body []byte
	a := &arena{}
	main := newSeedGroups(c.Main, false, a)
	indexes := make([]*seedGroups, len(p.Scheme.Indexes))
	for k := range indexes {
		indexes[k] = newSeedGroups(c.Indexes[k], true, a)
	}
	for i := lo; i < hi; i++ {
		p.Pop.Entity(i, &ent)
		p.Scheme.Keys(&ent, &keys)
		if p.Member != nil && !p.Member(keys.PK) {
			continue // another shard's partition
		}
		res.Entities++
		if _, ok := partitions[string(keys.PK)]; !ok {
			partitions[string(keys.PK)] = struct{}{}
		}
		for r := 0; r < p.Scheme.RowsPerEntity(); r++ {
			rk := keys.RK
			if r > 0 {
				rk = keys.Rows[r-1]
			}
			body = p.Pop.AppendJSON(body[:0], &ent, keys.PK, rk, 0)
			alive, added := main.add(ctx, jobs, keys.PK, rk, body)
			if !alive {
				return false
			}
			if added {
				res.Rows++
			} else {
				res.Collisions++
			}
		}
		for k, gs := range indexes {
			ik := keys.Index[k]
			body = p.Pop.AppendIndexRowJSON(body[:0], &ent, &p.Scheme.Indexes[k], ik.PK, ik.RK, keys.PK, keys.RK)
			alive, added := gs.add(ctx, jobs, ik.PK, ik.RK, body)
			if !alive {
				return false
			}
			if added {
				res.IndexRows++
			}
		}
	}
	if !main.flush(ctx, jobs) {
		return false
	}
	for _, gs := range indexes {
		if !gs.flush(ctx, jobs) {
			return false
		}
	}
	return true
}
