package store

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestKeyIndexFollowsTheTree applies random puts, inserts and removes of
// entities large enough to make the slab compact, and checks after each
// step that the index finds exactly what the B-tree holds (and a model
// map), with every record indexed; then again with rebuilds that rehash
// from the records' keys.
func TestKeyIndexFollowsTheTree(t *testing.T) {
	for _, rehash := range []bool{false, true} {
		t.Run(fmt.Sprintf("rehash=%v", rehash), func(t *testing.T) {
			rehashAlways = rehash
			defer func() { rehashAlways = false }()
			tb := NewTable("t")
			model := map[[2]string]string{}
			r := rand.New(rand.NewPCG(1, uint64(len(fmt.Sprint(rehash)))))
			key := func() (string, string) {
				return fmt.Sprintf("p%02d", r.IntN(30)), fmt.Sprintf("r%03d", r.IntN(200))
			}
			compacted := 0
			for step := range 20_000 {
				pk, rk := key()
				val := strings.Repeat(string(rune('a'+step%26)), 1+r.IntN(9000))
				e := NewEntity(pk, rk, []Prop{{Name: "v", Raw: []byte(`"` + val + `"`)}}, time.Unix(0, int64(step)), tb.Names())
				mapped := tb.slab.mapped
				switch r.IntN(4) {
				case 0, 1:
					tb.Put(e)
					model[[2]string{pk, rk}] = val
				case 2:
					_, had := model[[2]string{pk, rk}]
					if got := tb.Insert(e); got == had {
						t.Fatalf("step %d: insert(%s,%s) = %v with the entity there %v", step, pk, rk, got, had)
					}
					if !had {
						model[[2]string{pk, rk}] = val
					}
				case 3:
					tb.Remove(pk, rk)
					delete(model, [2]string{pk, rk})
				}
				if tb.slab.mapped < mapped {
					compacted++
				}
				if !tb.idx.usable() || tb.idx.live != tb.tree.Len() || tb.tree.Len() != len(model) {
					t.Fatalf("step %d: index usable %v with %d records, tree %d, model %d", step, tb.idx.usable(), tb.idx.live, tb.tree.Len(), len(model))
				}
				if step%97 == 0 {
					checkIndex(t, tb, model, step)
				}
			}
			checkIndex(t, tb, model, -1)
			if compacted == 0 {
				t.Error("the slab never compacted or released a chunk: the moves were not exercised")
			}
		})
	}
}

// checkIndex looks every key of the test's space up through the index and
// through the tree, and checks both against the model.
func checkIndex(t *testing.T, tb *Table, model map[[2]string]string, step int) {
	t.Helper()
	for p := range 30 {
		for k := range 200 {
			pk, rk := fmt.Sprintf("p%02d", p), fmt.Sprintf("r%03d", k)
			want, ok := model[[2]string{pk, rk}]
			ref, _, found := tb.idx.find(tb.slab, pk, rk)
			probe := acquireProbe(pk, rk, tb.order.summary(pk, rk))
			it, inTree := tb.tree.Get(probe)
			releaseProbe(probe)
			if found != ok || inTree != ok || found && ref != it.ref {
				t.Fatalf("step %d: (%s,%s) in the model %v, index %v (ref %x), tree %v (ref %x)", step, pk, rk, ok, found, ref, inTree, it.ref)
			}
			if e := tb.Get(pk, rk); ok && (e == nil || !strings.Contains(string(e.props), want)) {
				t.Fatalf("step %d: (%s,%s) get does not hold its value", step, pk, rk)
			}
		}
	}
}

// TestKeyIndexPacksRefs round-trips refs through a slot's packing and
// refuses those it cannot hold.
func TestKeyIndexPacksRefs(t *testing.T) {
	for _, ref := range []uint64{0, 1, 1<<20 - 1, 5<<32 | 12345, (1<<22-1)<<32 | (1<<20 - 1)} {
		p, ok := packRef(ref)
		if !ok || slotRef(occupiedBit|(1<<tagBits-1)<<refBits|p) != ref {
			t.Errorf("ref %x: packed %x, %v, back %x", ref, p, ok, slotRef(p))
		}
	}
	for _, ref := range []uint64{1 << 20, 1 << 54, 1 << 22 << 32} {
		if _, ok := packRef(ref); ok {
			t.Errorf("ref %x packed: its chunk id or offset does not fit", ref)
		}
	}
}

// TestKeyIndexTurnsOff gives the index a ref it cannot pack: it turns
// off, and the table still finds every entity, through the B-tree.
func TestKeyIndexTurnsOff(t *testing.T) {
	tb := NewTable("t")
	for i := range 100 {
		tb.Put(&Entity{pk: "p", rk: fmt.Sprintf("r%03d", i)})
	}
	tb.idx.add(tb.slab, "p", "zz", 1<<54) // a chunk id past what a slot holds
	if tb.idx.usable() {
		t.Fatal("the index took a ref it cannot pack")
	}
	tb.Put(&Entity{pk: "p", rk: "r100"})
	for i := range 101 {
		if tb.Get("p", fmt.Sprintf("r%03d", i)) == nil {
			t.Fatalf("r%03d not found with the index off", i)
		}
	}
	tb.clear()
	tb.Put(&Entity{pk: "p", rk: "a"})
	if !tb.idx.usable() || tb.idx.live != 1 {
		t.Errorf("a cleared table's index: usable %v, %d records", tb.idx.usable(), tb.idx.live)
	}
}

// TestKeyIndexLoad checks the index's size stays within its contract as
// a table grows: at most three quarters full, at least a quarter.
func TestKeyIndexLoad(t *testing.T) {
	tb := NewTable("t")
	for i := range 50_000 {
		tb.Put(&Entity{pk: fmt.Sprintf("p%d", i%7), rk: fmt.Sprint(i)})
		n := len(tb.idx.slots)
		if 4*tb.idx.used > 3*n || i > minSlots && 4*tb.idx.live < n {
			t.Fatalf("%d records: %d slots used of %d", tb.idx.live, tb.idx.used, n)
		}
	}
}
