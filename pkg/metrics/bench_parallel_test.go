package metrics

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRecordParallel32 is 32 goroutines, a run's workers, each with
// its own recorder, recording a request and an operation per record over
// 1,000 partitions, while the registry ticks once per simulated second (see
// recordParallel). ns/op is wall time per record, so it depends on the
// cores: with 2 recording in parallel it is about half of what one core
// spends on a record.
func BenchmarkRecordParallel32(b *testing.B) { recordParallel(b, 32) }

// BenchmarkRecordParallel2 is the same with two goroutines, whose
// recorders are made one after the other and so are neighbours in memory:
// with both recording at once on two cores, it shows whether they share a
// cache line (they would ping-pong it on every record).
func BenchmarkRecordParallel2(b *testing.B) { recordParallel(b, 2) }

// simStep is the simulated time a record takes: 1,000,000 records a second.
const simStep = time.Microsecond

// simBlock is how many records a goroutine takes from the shared simulated
// clock at once: sharing it record by record would bounce its cache line
// between the cores on every record, a cost of the benchmark, not of the
// recorder (workers read time.Now, which every core has to itself).
const simBlock = 1024

// recordParallel runs b.N records split evenly over n goroutines, each
// with its own recorder, made beforehand one after the other. Each record
// is a request and its operation on the next of 1,000 partitions (each
// goroutine goes round them all from its own starting point), completing
// at the simulated clock's time. When the clock passes a second another
// goroutine ticks the registry, merging every recorder, as a run does once
// a second; the time includes every tick (b.N/1,000,000 of them).
func recordParallel(b *testing.B, n int) {
	keys := partitionKeys(1000)
	reg := NewRegistry(Options{Start: t0})
	recs := make([]*Recorder, n)
	for i := range recs {
		recs[i] = reg.NewRecorder()
	}
	var clock atomic.Int64 // simulated nanoseconds since t0
	// Each take of a block passes at most one second: the channel holds a
	// tick for every second the run can pass, so no sender ever waits.
	ticks := make(chan time.Duration, b.N/int(time.Second/simStep)+n+2)
	var ticker, workers sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	ticker.Go(func() {
		for now := range ticks {
			reg.Tick(t0.Add(now))
		}
	})
	for w, rec := range recs {
		count := b.N / n
		if w < b.N%n {
			count++
		}
		workers.Go(func() {
			var at time.Time
			for i := range count {
				if i%simBlock == 0 {
					end := time.Duration(clock.Add(int64(simBlock * simStep)))
					start := end - simBlock*simStep
					if end/time.Second != start/time.Second {
						ticks <- end
					}
					at = t0.Add(start)
				}
				k := keys[(w*37+i)%len(keys)]
				rec.Request(Request{Op: Insert, Partition: k, Outcome: ok201, Entities: 1, At: at})
				rec.Done(Insert, k, at.Add(-time.Millisecond), at, true)
			}
		})
	}
	workers.Wait()
	close(ticks)
	ticker.Wait()
}
