package metrics

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// One request and one operation on a single hot partition; a tick every
// 100,000 records.
func BenchmarkRecordSinglePartition(b *testing.B) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i) * time.Microsecond)
		rec.Request(Request{Op: PointRead, Partition: "hot", Outcome: ok200, Entities: 1, At: at})
		rec.Done(PointRead, "hot", at.Add(-900*time.Microsecond), at, true)
		if i%100_000 == 0 {
			reg.Tick(at)
		}
	}
}

// BenchmarkRecordSinglePartition with each request carrying its
// operation's scheduled start, as the runner's do: the entities the
// request served are held until Done credits them to the answered
// operation (Counts.AnsweredEntities).
func BenchmarkRecordSinglePartitionAnswered(b *testing.B) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i) * time.Microsecond)
		start := at.Add(-900 * time.Microsecond)
		rec.Request(Request{Op: PointRead, Partition: "hot", Outcome: ok200, Entities: 1, At: at, Start: start})
		rec.Done(PointRead, "hot", start, at, true)
		if i%100_000 == 0 {
			reg.Tick(at)
		}
	}
}

func partitionKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "tenant-" + strconv.Itoa(i)
	}
	return keys
}

// One request and one operation per partition, round robin over 100,000
// partitions, in steady state (the recorder has seen every partition); a
// tick every 100,000 records merges every partition, and its cost is
// included.
func BenchmarkRecord100kPartitions(b *testing.B) {
	keys := partitionKeys(100_000)
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	i := 0
	record := func() {
		at := t0.Add(time.Duration(i) * time.Microsecond)
		k := keys[i%len(keys)]
		rec.Request(Request{Op: Insert, Partition: k, Outcome: ok201, Entities: 1, At: at})
		rec.Done(Insert, k, at.Add(-time.Duration(500+i%3000)*time.Microsecond), at, true)
		if i%100_000 == 0 {
			reg.Tick(at)
		}
		i++
	}
	for range 4 * len(keys) { // both of the recorder's buffers see every partition
		record()
	}
	b.ReportAllocs()
	for b.Loop() {
		record()
	}
}

// A tick merging 32 recorders that each touched 1,000 partitions.
func BenchmarkTick32x1000(b *testing.B) {
	keys := partitionKeys(1000)
	reg := NewRegistry(Options{Start: t0})
	recs := make([]*Recorder, 32)
	for i := range recs {
		recs[i] = reg.NewRecorder()
	}
	b.ReportAllocs()
	for n := 0; b.Loop(); n++ {
		b.StopTimer()
		at := t0.Add(time.Duration(n) * time.Second)
		for _, rec := range recs {
			for _, k := range keys {
				rec.Request(Request{Op: Insert, Partition: k, Outcome: ok201, Entities: 1, At: at})
				rec.Done(Insert, k, at.Add(-time.Millisecond), at, true)
			}
		}
		b.StartTimer()
		reg.Tick(at.Add(time.Second))
	}
}

// Memory per partition of a run touching 100,000 partitions with 10
// requests (and operations) each, over 100 s: the registry's heap once the
// recorder has forgotten the idle partitions, and the part of it that is
// the partitions' latency histograms.
func BenchmarkPartitionMemory(b *testing.B) {
	const parts, per = 100_000, 10
	keys := partitionKeys(parts)
	for b.Loop() {
		reg, grown := liveHeapOf(func(reg *Registry) {
			rec := reg.NewRecorder()
			for k := range per {
				for p, key := range keys {
					at := t0.Add(time.Duration(k)*10*time.Second + time.Duration(p)*100*time.Microsecond)
					rec.Request(Request{Op: Insert, Partition: key, Outcome: ok201, Entities: 1, At: at})
					rec.Done(Insert, key, at.Add(-time.Duration(800+(p*7+k*131)%4000)*time.Microsecond), at, true)
				}
				reg.Tick(t0.Add(time.Duration(k+1) * 10 * time.Second))
			}
			for k := range 3 * evictEvery * evictAfter { // idle ticks: the recorder forgets the partitions
				reg.Tick(t0.Add(time.Duration(100+k) * time.Second))
			}
		})
		hist := 0
		for _, p := range reg.parts {
			hist += p.lat.Bytes()
		}
		b.ReportMetric(grown/parts, "bytes/partition")
		b.ReportMetric(float64(hist)/parts, "hist-bytes/partition")
	}
}

// liveHeapOf returns a new registry after fill, and how much the live heap
// grew from before its creation to after fill.
func liveHeapOf(fill func(*Registry)) (*Registry, float64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	reg := NewRegistry(Options{Start: t0})
	fill(reg)
	runtime.GC()
	runtime.ReadMemStats(&after)
	return reg, float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

func BenchmarkCompactRecord(b *testing.B) {
	c := NewCompact(DefaultCompactBits)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.Record(int64(500 + i%5000))
	}
}

// Memory per second of a long run: 1,000 operations a second over 16
// partitions with latencies spread over 0.5 to 20 ms, ticked every second
// for an hour. It is what a soak's RSS grows by once the partitions and
// operations are known.
func BenchmarkSecondMemory(b *testing.B) {
	const secs, perSec = 3600, 1000
	keys := partitionKeys(16)
	for b.Loop() {
		_, grown := liveHeapOf(func(reg *Registry) {
			rec := reg.NewRecorder()
			x := uint64(1)
			for s := range secs {
				for i := range perSec {
					x ^= x << 13
					x ^= x >> 7
					x ^= x << 17
					at := t0.Add(time.Duration(s)*time.Second + time.Duration(i)*time.Millisecond)
					k := keys[i%len(keys)]
					lat := 500*time.Microsecond + time.Duration(x%uint64(4*time.Millisecond)) + time.Duration(x>>60)*time.Millisecond
					rec.Request(Request{Op: PointRead, Partition: k, Outcome: ok200, Entities: 1, At: at})
					rec.Done(PointRead, k, at.Add(-lat), at, true)
				}
				reg.Tick(t0.Add(time.Duration(s+1) * time.Second))
			}
		})
		b.ReportMetric(grown/secs, "bytes/second")
	}
}
