package model

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// unlimited is Default with targets no benchmark reaches, so every Admit
// takes the full path: account, partition, server, charge.
func unlimited() Config {
	c := Default()
	c.PartitionTarget, c.AccountTarget, c.ServerTarget, c.RangeTarget = 1e12, 1e12, 1e12, 1e12
	return c
}

// partitionLimited is unlimited but for the partition target.
func partitionLimited() Config {
	c := unlimited()
	c.PartitionTarget = defaultPartitionTarget
	return c
}

// BenchmarkAdmit is Admit on the hot path, from all Ps in parallel, with the
// real clock: one partition or 100,000 with every request admitted (the
// full path); one partition at its 2,000/s target, nearly every request
// refused by the partition; and Default, nearly every request refused by
// the account's 20,000/s.
func BenchmarkAdmit(b *testing.B) {
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = fmt.Sprintf("partition-%06d", i)
	}
	tests := []struct {
		name  string
		cfg   Config
		parts int
	}{
		{"partitions=1", unlimited(), 1},
		{"partitions=100000", unlimited(), 100_000},
		{"partitions=1/partition-throttled", partitionLimited(), 1},
		{"partitions=100000/account-throttled", Default(), 100_000},
		{"cosmos/partitions=100000", func() Config {
			c := CosmosDefault()
			c.Cosmos.RU, c.Cosmos.PartitionRU, c.Cosmos.LogicalRU = 1e12, 1e12, 1e12
			return c
		}(), 100_000},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			m := New(tt.cfg, nil)
			var worker atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				i := int(worker.Add(1)) * 7919
				for pb.Next() {
					m.Admit(Request{Table: "bench", Partition: keys[i%tt.parts], Op: OpWrite, Entities: 1, Bytes: 1000, Write: true})
					i++
				}
			})
		})
	}
}

// BenchmarkCharge is the billing of a query's entities per partition.
func BenchmarkCharge(b *testing.B) {
	m := New(unlimited(), nil)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.ChargePage("bench", []Visit{{Partition: "partition", Visited: 10, Returned: 10}})
			i++
		}
	})
}

// BenchmarkPartitionMemory reports the heap held per tracked partition
// (keys of 16 bytes, table "bench"), measured after 100,000 partitions.
func BenchmarkPartitionMemory(b *testing.B) {
	const n = 100_000
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("partition-%06d", i)
	}
	var perPart float64
	for range b.N {
		c := newClock()
		m := New(unlimited(), c.now)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, k := range keys {
			m.Admit(Request{Table: "bench", Partition: k, Entities: 1})
			c.add(time.Microsecond)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if m.State().Partitions != n {
			b.Fatal("partitions were evicted")
		}
		perPart = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(m)
	}
	b.ReportMetric(perPart, "B/partition")
}
