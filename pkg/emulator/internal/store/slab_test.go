package store

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// churnEntity is row i of partition i%10 at version v, about 300 bytes.
func churnEntity(tb *Table, i, v int) *Entity {
	props := []Prop{{Name: "Data", Raw: []byte(`"` + strings.Repeat("d", 256) + `"`)}, {Name: "V", Raw: []byte(fmt.Sprint(v))}}
	return NewEntity(fmt.Sprintf("p%d", i%10), fmt.Sprintf("%06d", i), props, time.Unix(int64(v), 0), tb.Names())
}

// TestSlabCompacts rewrites every row of a table many times: the dead
// versions are compacted away, so the memory stays within a small multiple
// of the live rows, and every row reads back at its last version.
func TestSlabCompacts(t *testing.T) {
	tb := NewTable("churn")
	const rows, versions = 5000, 40
	for v := range versions {
		for i := range rows {
			tb.Put(churnEntity(tb, i, v))
		}
	}
	if tb.tree.Len() != rows {
		t.Fatalf("%d rows, want %d", tb.tree.Len(), rows)
	}
	live := 0
	for i := range rows {
		e := tb.Get(fmt.Sprintf("p%d", i%10), fmt.Sprintf("%06d", i))
		want := churnEntity(tb, i, versions-1)
		if e == nil || string(e.AppendFragment(nil)) != string(want.AppendFragment(nil)) || e.ts != want.ts {
			t.Fatalf("row %d: %v, want its last version", i, e)
		}
		live += recordLen(e)
	}
	if tb.slab.live != live {
		t.Errorf("the slab counts %d live bytes, the rows take %d", tb.slab.live, live)
	}
	// Compaction starts past two chunks of dead records or a third of the slab.
	if limit := max(live*3/2, live+2*chunkMax) + chunkMax; tb.slab.mapped > limit {
		t.Errorf("%d bytes mapped for %d live after %d versions of each row, want at most %d", tb.slab.mapped, live, versions, limit)
	}
}

// TestSlabReleases checks that deleting every row and dropping a table
// give their memory back.
func TestSlabReleases(t *testing.T) {
	tb := NewTable("gone")
	for i := range 20000 {
		tb.Put(churnEntity(tb, i, 0))
	}
	if tb.slab.mapped < 20000*300 {
		t.Fatalf("%d bytes mapped for 20,000 rows of 300 bytes", tb.slab.mapped)
	}
	for i := range 20000 {
		tb.Remove(fmt.Sprintf("p%d", i%10), fmt.Sprintf("%06d", i))
	}
	// Only the chunk new rows go to may stay.
	if tb.tree.Len() != 0 || tb.slab.live != 0 || tb.slab.mapped > chunkMax {
		t.Errorf("after deleting every row: %d rows, %d live bytes, %d mapped", tb.tree.Len(), tb.slab.live, tb.slab.mapped)
	}
	st := New(time.Now, false)
	st.Create("t")
	dropped := st.Table("t")
	dropped.Put(churnEntity(dropped, 1, 0))
	dropped.Put(&Entity{pk: "big", rk: "r", props: make([]byte, chunkMax)}) // a chunk of its own
	if !st.Drop("t") || dropped.slab.mapped != 0 || len(dropped.slab.byID) != 0 || dropped.tree.Len() != 0 {
		t.Errorf("a dropped table keeps %d bytes in %d chunks, %d rows", dropped.slab.mapped, len(dropped.slab.byID), dropped.tree.Len())
	}
}

// Tests zero dead records (see ZeroFreed).
func init() { ZeroFreed = true }
