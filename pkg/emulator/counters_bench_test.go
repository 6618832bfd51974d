package emulator

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// BenchmarkRecord counts answers from every CPU at once over 200
// partitions of one table, as a closed-loop run of point reads does.
func BenchmarkRecord(b *testing.B) {
	s := newCounters()
	parts := make([]string, 200)
	for i := range parts {
		parts[i] = fmt.Sprintf("dev-%03d", i)
	}
	var worker atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := int(worker.Add(1)) * 101 // workers count in different partitions, mostly
		for pb.Next() {
			s.record("bench", parts[i%len(parts)], "200", 1, false)
			i += 7
		}
	})
}
