package metrics

import (
	"sync"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

var (
	ok201   = outcome.New(201, "")
	busy    = outcome.New(503, "ServerBusy")
	timeout = outcome.New(500, "OperationTimedOut")
	exists  = outcome.New(409, "EntityAlreadyExists")
	dropped = outcome.Outcome{Class: outcome.Transport}
)

// A scripted run: warm-up, retries, pages, drops, two partitions, a request
// taken over a tick late. Every figure is known exactly.
func TestExactCounting(t *testing.T) {
	reg := NewRegistry(Options{Start: at(1000)}) // one second of warm-up
	rec := reg.NewRecorder()
	// Warm-up: never counted.
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, At: at(500)})
	rec.Done(Insert, "A", at(400), at(500), true)
	rec.Dropped(Insert, at(900))
	// Second 0 (t = 1.0 .. 2.0 s): an insert throttled twice, then created.
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: busy, At: at(1100)})
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: timeout, Retry: true, At: at(1200)})
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, Retry: true, At: at(1300)})
	rec.Done(Insert, "A", at(1050), at(1300), true) // 250 ms from its scheduled start
	// A batch of 100 entities on B.
	rec.Request(Request{Op: Batch, Partition: "B", Outcome: outcome.New(202, ""), Entities: 100, At: at(1400)})
	rec.Done(Batch, "B", at(1390), at(1400), true)
	// A table scan of two pages, 1000 + 500 entities.
	rec.Request(Request{Op: TableScan, Partition: CrossPartition, Outcome: outcome.New(200, ""), Entities: 1000, Page: true, At: at(1500)})
	reg.Tick(at(2001)) // the tick comes between the pages
	rec.Request(Request{Op: TableScan, Partition: CrossPartition, Outcome: outcome.New(200, ""), Entities: 500, Page: true, At: at(2100)})
	rec.Done(TableScan, CrossPartition, at(1450), at(2100), true)
	// Second 1: a conflict (failed operation), a dropped insert, a lost connection.
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: exists, At: at(2200)})
	rec.Done(Insert, "A", at(2190), at(2200), false)
	rec.Dropped(Insert, at(2300))
	rec.Request(Request{Op: Batch, Partition: "B", Outcome: dropped, At: at(2400)})
	rec.Done(Batch, "B", at(2350), at(2400), false)
	// A request completing in second 0 but recorded after a tick (late arrival).
	reg.Tick(at(2500))
	rec.Request(Request{Op: Batch, Partition: "B", Outcome: outcome.New(202, ""), Entities: 50, At: at(1999)})
	rec.Done(Batch, "B", at(1990), at(1999), true)
	s := reg.Finish(at(3000))

	tot := s.Totals
	want := [9]int64{6, 9, 1651, 2, 4, 2, 1, 2, 2} // ops requests entities throttled errors failed dropped retries pages
	got := [9]int64{tot.Ops, tot.Requests, tot.Entities, tot.Throttled, tot.Errors, tot.Failed, tot.Dropped, tot.Retries, tot.Pages}
	if got != want {
		t.Errorf("totals %+v\nwant   %+v", got, want)
	}
	var sum int64
	for _, n := range tot.Status {
		sum += n
	}
	if sum != tot.Requests || tot.Status["503 ServerBusy"] != 1 || tot.Status["500 OperationTimedOut"] != 1 || tot.Status["transport"] != 1 || tot.Status["202"] != 2 {
		t.Errorf("status %v (sum %d, requests %d)", tot.Status, sum, tot.Requests)
	}
	if ins := s.Ops[Insert]; ins.Ops != 2 || ins.Requests != 4 || ins.Failed != 1 || ins.Dropped != 1 || ins.LatencyMs(100) < 249 || ins.LatencyMs(100) > 251 {
		t.Errorf("insert %+v max %.1fms", ins, ins.LatencyMs(100))
	}
	if len(s.Partitions) != 3 || s.Partitions[0].Key != CrossPartition || s.Partitions[1].Key != "B" || s.Partitions[2].Key != "A" {
		t.Fatalf("partitions %+v", s.Partitions)
	}
	b := s.Partitions[1]
	if b.Entities != 150 || b.Requests != 3 || b.Errors != 1 || b.Peak != 150 || b.Ops != 3 || b.Failed != 1 {
		t.Errorf("B %+v", b)
	}
	if cp := s.Partitions[0]; cp.Peak != 1000 || cp.Entities != 1500 {
		t.Errorf("cross-partition peak %d (entities %d), want 1000 in second 0", cp.Peak, cp.Entities)
	}
	if len(s.Intervals) != 3 {
		t.Fatalf("%d intervals", len(s.Intervals))
	}
	i0, i1 := s.Intervals[0], s.Intervals[1]
	if i0.Requests != 6 || i0.Entities != 1151 || i0.Throttled != 2 || i0.Hottest != CrossPartition || i0.HottestEntities != 1000 {
		t.Errorf("second 0: %+v", i0)
	}
	if i1.Requests != 3 || i1.Entities != 500 || i1.Dropped != 1 || i1.Ops != 3 || i1.Failed != 2 {
		t.Errorf("second 1: %+v", i1)
	}
	if s.Duration() != 2*time.Second {
		t.Errorf("duration %v", s.Duration())
	}
}

func TestPeakIsBusiestSecond(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	for sec, n := range []int{3, 9, 4} {
		for k := 0; k < n; k++ {
			rec.Request(Request{Op: Insert, Partition: "P", Outcome: ok201, Entities: 10, At: t0.Add(time.Duration(sec)*time.Second + time.Duration(k)*time.Millisecond)})
		}
		reg.Tick(t0.Add(time.Duration(sec+1)*time.Second + time.Millisecond))
	}
	s := reg.Finish(t0.Add(3 * time.Second))
	if p := s.Partitions[0]; p.Peak != 90 || p.Entities != 160 {
		t.Errorf("peak %d entities %d, want 90 and 160", p.Peak, p.Entities)
	}
	if len(s.Series) != 1 || len(s.Series[0].Entities) != 3 || s.Series[0].Entities[1] != 90 || s.BinWidth != time.Second {
		t.Errorf("series %+v width %v", s.Series, s.BinWidth)
	}
}

func TestSeriesBinsDoubleForLongRuns(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	for sec := 0; sec < 600; sec++ {
		rec.Request(Request{Op: Insert, Partition: "P", Outcome: ok201, Entities: 1, At: t0.Add(time.Duration(sec) * time.Second)})
	}
	s := reg.Finish(t0.Add(600 * time.Second))
	if s.BinWidth != 4*time.Second || len(s.Series[0].Entities) != 150 || s.Series[0].Entities[0] != 4 {
		t.Errorf("width %v, %d bins, first %d", s.BinWidth, len(s.Series[0].Entities), s.Series[0].Entities[0])
	}
	if s.Partitions[0].Peak != 1 {
		t.Errorf("peak %d: coarse bins must not change the one-second peak", s.Partitions[0].Peak)
	}
}

func TestConcurrentRecording(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	const workers, per = 32, 5000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var ticker sync.WaitGroup
	ticker.Add(1)
	go func() {
		defer ticker.Done()
		for k := 1; ; k++ {
			select {
			case <-stop:
				return
			default:
				reg.Tick(t0.Add(time.Duration(k%3) * time.Second))
			}
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rec := reg.NewRecorder()
			for i := 0; i < per; i++ {
				at := t0.Add(time.Duration(i%2000) * time.Millisecond)
				part := string(rune('a' + (w+i)%20))
				rec.Request(Request{Op: Op(i % int(NumOps)), Partition: part, Outcome: ok201, Entities: 2, At: at})
				rec.Done(Op(i%int(NumOps)), part, at, at.Add(time.Millisecond), true)
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	ticker.Wait()
	s := reg.Finish(t0.Add(2 * time.Second))
	if s.Totals.Requests != workers*per || s.Totals.Entities != 2*workers*per || s.Totals.Ops != workers*per {
		t.Errorf("totals %+v", s.Totals)
	}
	var parts int64
	for _, p := range s.Partitions {
		parts += p.Requests
	}
	var ivs int64
	for _, iv := range s.Intervals {
		ivs += iv.Requests
	}
	if parts != workers*per || ivs != workers*per {
		t.Errorf("partitions sum %d, intervals sum %d, want %d", parts, ivs, workers*per)
	}
}

func BenchmarkRecordSinglePartition(b *testing.B) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		at := t0.Add(time.Duration(i) * time.Microsecond)
		rec.Request(Request{Op: PointRead, Partition: "hot", Outcome: ok201, Entities: 1, At: at})
		rec.Done(PointRead, "hot", at, at.Add(900*time.Microsecond), true)
		if i%100_000 == 0 {
			reg.Tick(at)
		}
	}
}

func BenchmarkRecord100kPartitions(b *testing.B) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = "p" + string(rune(i))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		at := t0.Add(time.Duration(i) * time.Microsecond)
		k := keys[i%len(keys)]
		rec.Request(Request{Op: Insert, Partition: k, Outcome: ok201, Entities: 1, At: at})
		rec.Done(Insert, k, at, at.Add(time.Millisecond), true)
		if i%100_000 == 0 {
			reg.Tick(at)
		}
	}
}

func BenchmarkRecordParallel(b *testing.B) {
	reg := NewRegistry(Options{Start: t0})
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
				reg.Tick(t0.Add(time.Hour))
			}
		}
	}()
	b.RunParallel(func(pb *testing.PB) {
		rec := reg.NewRecorder()
		i := 0
		for pb.Next() {
			at := t0.Add(time.Duration(i) * time.Microsecond)
			rec.Request(Request{Op: Insert, Partition: "p", Outcome: ok201, Entities: 1, At: at})
			rec.Done(Insert, "p", at, at.Add(time.Millisecond), true)
			i++
		}
	})
	close(done)
}
