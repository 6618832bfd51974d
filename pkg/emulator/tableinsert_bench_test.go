package emulator

import (
	"strconv"
	"testing"
)

// BenchmarkTableInsertIn1M times table.insert alone (the B-tree, the key
// index and the slab; no HTTP, no parsing) of entities with 1 KiB of
// properties into a table of a million, under keys as the insert
// benchmarks make them (bench/bareclient): 200 partitions "dev-NNN" and
// RowKeys of inverted ticks that share their first ten digits, then a
// suffix. Every search down the tree compares keys that tie on the
// B-tree items' prefixes, so it reads a record at every step: what a
// large table's insert costs beyond what a small one's does.
func BenchmarkTableInsertIn1M(b *testing.B) { benchTableInsert(b, 1_000_000) }

// BenchmarkTableInsertIn20k is BenchmarkTableInsertIn1M into a table of
// 20,000 (bench/scenarios/point-read-1k.yaml's), whose records and tree
// the processor's caches hold.
func BenchmarkTableInsertIn20k(b *testing.B) { benchTableInsert(b, 20_000) }

func benchTableInsert(b *testing.B, n int) {
	t := newTable("bench")
	b.Cleanup(t.clear)
	props := make([]byte, 1024)
	rk := func(i int) string {
		return strconv.FormatInt(2516000000000000000-int64(i)*10007, 10) + "-n-" + strconv.Itoa(i%32)
	}
	e := &entity{props: props, names: t.names}
	for i := range n {
		e.pk, e.rk = "dev-"+strconv.Itoa(100+i%200), rk(i)
		if !t.insert(e) {
			b.Fatal("a key stored twice")
		}
	}
	b.ResetTimer()
	for i := range b.N {
		e.pk, e.rk = "dev-"+strconv.Itoa(100+(i*7)%200), rk(n+i)
		if !t.insert(e) {
			b.Fatal("a key stored twice")
		}
	}
}
