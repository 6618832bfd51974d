package store

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/google/btree"
)

// Table is one table: entities ordered by (PartitionKey, RowKey) in a
// B-tree of records (record.go) held in the table's slab (slab.go), their
// property names in the table's dictionary (names.go). Its RWMutex is the
// table's lock, which its callers take: reads take the read lock, writes
// and transactions the write lock; an entity read is valid under the lock
// only (see Entity).
type Table struct {
	sync.RWMutex
	id    uint64 // the table's number in its store (ID)
	name  string
	tree  *btree.BTreeG[item] // records in slab, by their keys
	idx   *keyIndex           // the same records, for point lookups
	order keyOrder            // the tree's item prefixes
	slab  *slab
	names *Names

	// The key ranges of the table's first and last range partitions,
	// refreshed as the table grows (see extends).
	bmu              sync.Mutex
	headTo, tailFrom string
	boundsAt         int

	// acl is the table's stored access policies (Set Table ACL), read
	// without a lock by every request signed with a SAS that names one.
	acl atomic.Pointer[[]Policy]

	// sizes is the bytes each partition holds (Entity.Bytes), kept when
	// the model limits partition sizes (Cosmos DB; nil otherwise), under
	// the write lock.
	sizes map[string]int64

	// told is how many of the dictionary's names NewNames has returned,
	// under the write lock.
	told int
}

// btreeDegree is the B-tree's minimum degree: nodes of 31 to 63 records.
const btreeDegree = 32

func NewTable(name string) *Table {
	sl := &slab{}
	t := &Table{name: name, tree: btree.NewG(btreeDegree, sl.less), idx: &keyIndex{}, slab: sl, names: NewNames()}
	// A table nobody drops (a test's, a server's left behind) gives its
	// memory back when it is collected.
	runtime.AddCleanup(t, (*slab).releaseAll, t.slab)
	runtime.AddCleanup(t, (*keyIndex).release, t.idx)
	return t
}

// Get returns a view of the entity with the keys, or nil. Callers hold a
// lock and copy what they keep after it.
func (t *Table) Get(pk, rk string) *Entity {
	e := &Entity{}
	if !t.Find(pk, rk, e) {
		return nil
	}
	return e
}

// Find makes v a view of the entity with the keys and reports whether
// there is one (as Get).
func (t *Table) Find(pk, rk string, v *Entity) bool {
	if t.idx.usable() {
		ref, _, ok := t.idx.find(t.slab, pk, rk)
		if ok {
			v.load(t.slab.at(ref), t.names)
		}
		return ok
	}
	probe := acquireProbe(pk, rk, t.order.summary(pk, rk))
	it, ok := t.tree.Get(probe)
	releaseProbe(probe)
	if ok {
		v.load(t.slab.at(it.ref), t.names)
	}
	return ok
}

// Name is the table's name, as it was created.
func (t *Table) Name() string { return t.name }

// Names is the table's dictionary of property names, which the entities
// it stores name their properties by (NewEntity, FillEntity).
func (t *Table) Names() *Names { return t.names }

// Len is how many entities the table holds. Callers hold a lock.
func (t *Table) Len() int { return t.tree.Len() }

// Put stores a copy of e (which the table's dictionary named), replacing
// the entity with its keys. Callers hold the write lock; views of the
// replaced entity are invalid after.
func (t *Table) Put(e *Entity) {
	ref, b := t.slab.alloc(recordLen(e))
	putRecord(b, e)
	if old, ok := t.tree.ReplaceOrInsert(item{t.order.add(e.pk, e.rk), ref}); ok {
		if _, i, found := t.idx.find(t.slab, e.pk, e.rk); found {
			t.idx.set(i, ref)
		}
		t.slab.free(old.ref, recordLenAt(t.slab.at(old.ref)))
	} else {
		t.idx.add(t.slab, e.pk, e.rk, ref)
		t.reorder()
	}
	t.compact()
}

// Insert stores a copy of e unless an entity with its keys is there, and
// reports whether it did: one walk down the tree either way (none when the
// index finds the keys). Callers hold the write lock.
func (t *Table) Insert(e *Entity) bool {
	if t.idx.usable() {
		if _, _, found := t.idx.find(t.slab, e.pk, e.rk); found {
			return false
		}
	}
	ref, b := t.slab.alloc(recordLen(e))
	putRecord(b, e)
	if old, found := t.tree.ReplaceOrInsert(item{t.order.add(e.pk, e.rk), ref}); found {
		t.tree.ReplaceOrInsert(old) // an insert replaces nothing
		t.slab.free(ref, len(b))
		return false
	}
	t.idx.add(t.slab, e.pk, e.rk, ref)
	t.reorder()
	return true
}

// Remove deletes the entity with the keys, if any. Callers hold the write
// lock; views of it are invalid after.
func (t *Table) Remove(pk, rk string) {
	probe := acquireProbe(pk, rk, t.order.summary(pk, rk))
	old, ok := t.tree.Delete(probe)
	releaseProbe(probe)
	if ok {
		if _, i, found := t.idx.find(t.slab, pk, rk); found {
			t.idx.removeAt(i)
		}
		t.slab.free(old.ref, recordLenAt(t.slab.at(old.ref)))
		if t.tree.Len() == 0 {
			t.order.reset() // the next keys choose the prefixes
		}
		t.compact()
	}
}

// Ascend calls fn with a view of every entity from (pk, rk) on, in key
// order, until it returns false. The view is reused: fn copies what it
// keeps. Callers hold a lock.
func (t *Table) Ascend(pk, rk string, fn func(e *Entity) bool) {
	var v Entity
	probe := acquireProbe(pk, rk, t.order.summary(pk, rk))
	defer releaseProbe(probe)
	t.tree.AscendGreaterOrEqual(probe, func(it item) bool {
		v.load(t.slab.at(it.ref), t.names)
		return fn(&v)
	})
}

// descend calls fn with a view of every entity from the greatest keys
// down, until it returns false (as Ascend).
func (t *Table) descend(fn func(e *Entity) bool) {
	var v Entity
	t.tree.Descend(func(it item) bool {
		v.load(t.slab.at(it.ref), t.names)
		return fn(&v)
	})
}

// compact moves the live records of the slab's sparsest chunk into its
// active one when dead records take over a third of the slab (see
// slab.sparse), and releases the chunk. Callers hold the write lock.
func (t *Table) compact() {
	c := t.slab.sparse()
	if c == nil {
		return
	}
	for off := 0; off < c.used; {
		ref := uint64(c.id)<<32 | uint64(off)
		n := recordLenAt(&c.mem[off])
		pk, rk := keysAt(&c.mem[off])
		it := item{t.order.summary(pk, rk), ref}
		if cur, ok := t.tree.Get(it); ok && cur.ref == ref {
			moved, b := t.slab.alloc(n)
			copy(b, c.mem[off:off+n])
			t.tree.ReplaceOrInsert(item{it.prefix, moved})
			if _, i, found := t.idx.find(t.slab, pk, rk); found {
				t.idx.set(i, moved)
			}
			c.live -= n
			t.slab.live -= n
		}
		off += n
	}
	t.slab.release(c)
}

// clear empties the table and releases its memory. Callers hold the
// write lock.
func (t *Table) clear() {
	t.tree.Clear(false)
	t.order.reset()
	t.idx.release()
	t.slab.releaseAll()
}

// reorder builds the tree again when its prefixes have gone stale (see
// keyOrder), with those all its keys share. Callers hold the write lock.
func (t *Table) reorder() {
	if !t.order.stale(t.tree.Len()) {
		return
	}
	t.order.narrow()
	old := t.tree
	t.tree = btree.NewG(btreeDegree, t.slab.less)
	old.Ascend(func(it item) bool {
		pk, rk := keysAt(t.slab.at(it.ref))
		t.tree.ReplaceOrInsert(item{t.order.summary(pk, rk), it.ref})
		return true
	})
}

// Memory is the bytes of the table's live records and the bytes its slab
// holds for them (live ones, dead ones not yet compacted, and free room).
// Callers hold a lock.
func (t *Table) Memory() (live, mapped int) { return t.slab.live, t.slab.mapped }
