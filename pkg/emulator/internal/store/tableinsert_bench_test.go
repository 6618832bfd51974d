package store

import (
	"strconv"
	"testing"
)

// BenchmarkTableInsertIn1M times table.insert alone (the B-tree, the key
// index and the slab; no HTTP, no parsing) of entities with 1 KiB of
// properties into a table of a million, under keys as the insert
// benchmarks make them (bench/bareclient): 200 partitions "dev-NNN" and
// RowKeys of inverted ticks that share their first ten digits, then a
// suffix. The B-tree's item prefixes are taken past the shared bytes
// (keyOrder), so a search reads a record only where two keys agree past
// them; the tree's nodes and the new records' memory are what a large
// table's insert costs beyond what a small one's does.
func BenchmarkTableInsertIn1M(b *testing.B) { benchTableInsert(b, 1_000_000) }

// BenchmarkTableInsertIn20k is BenchmarkTableInsertIn1M into a table of
// 20,000 (bench/scenarios/point-read-1k.yaml's), whose records and tree
// the processor's caches hold.
func BenchmarkTableInsertIn20k(b *testing.B) { benchTableInsert(b, 20_000) }

func benchTableInsert(b *testing.B, n int) {
	t := NewTable("bench")
	b.Cleanup(t.clear)
	props := make([]byte, 1024)
	rk := func(i int) string {
		return strconv.FormatInt(2516099000000000000+int64(uint64(i)*2654435761%1e9), 10) + "-n-" + strconv.Itoa(i)
	}
	e := &Entity{props: props, names: t.Names()}
	for i := range n {
		e.pk, e.rk = "dev-"+strconv.Itoa(100+i%200), rk(i)
		if !t.Insert(e) {
			b.Fatal("a key stored twice")
		}
	}
	b.ResetTimer()
	for i := range b.N {
		e.pk, e.rk = "dev-"+strconv.Itoa(100+(i*7)%200), rk(n+i)
		if !t.Insert(e) {
			b.Fatal("a key stored twice")
		}
	}
}

// BenchmarkTableReorder times building a table's tree of reorderMax
// entries again (table.reorder), what its write lock is held for when the
// tree's prefixes went stale (keyOrder): here the PartitionKeys' shared
// prefix is a byte shorter for each build. The figure is ns per build.
func BenchmarkTableReorder(b *testing.B) {
	t := NewTable("bench")
	b.Cleanup(t.clear)
	e := &Entity{props: make([]byte, 256), names: t.Names()}
	for i := range reorderMax {
		e.pk, e.rk = "dev-"+strconv.Itoa(1000+i%1000), strconv.FormatInt(2516099999000000000+int64(i)*100, 10)
		t.Insert(e)
	}
	for b.Loop() {
		t.order.clamped = reorderMax                // as many new keys without the prefixes
		t.order.sharePK = max(t.order.sharePK-1, 0) // and a shorter prefix
		t.reorder()
		if t.tree.Len() != reorderMax || t.order.clamped != 0 {
			b.Fatalf("%d entries after building the tree again, %d clamped", t.tree.Len(), t.order.clamped)
		}
	}
}
