package metrics

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// at is t0 plus ms milliseconds.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

var (
	ok200      = outcome.New(200, "")
	ok201      = outcome.New(201, "")
	ok202      = outcome.New(202, "")
	busy       = outcome.New(503, "ServerBusy")
	opTimedOut = outcome.New(500, "OperationTimedOut")
	exists     = outcome.New(409, "EntityAlreadyExists")
	notFound   = outcome.New(404, "ResourceNotFound")
	connReset  = outcome.Outcome{Class: outcome.Transport}
)

// counts is the Counts of a Stats, PartitionStats or Interval in one
// comparable value: ops requests entities throttled errors failed dropped
// retries pages.
type counts [9]int64

func statsCounts(s Stats) counts {
	return counts{s.Ops, s.Requests, s.Entities, s.Throttled, s.Errors, s.Failed, s.Dropped, s.Retries, s.Pages}
}

func partCounts(p PartitionStats) counts {
	return counts{p.Ops, p.Requests, p.Entities, p.Throttled, p.Errors, p.Failed, 0, p.Retries, p.Pages}
}

func ivCounts(iv Interval) counts {
	return counts{iv.Ops, iv.Requests, iv.Entities, iv.Throttled, iv.Errors, iv.Failed, iv.Dropped, iv.Retries, iv.Pages}
}

func sum(m map[string]int64) (n int64) {
	for _, v := range m {
		n += v
	}
	return n
}

// A scripted run: warm-up, retries, pages, drops, a table-level request,
// four partitions, data arriving a tick late and from a second worker.
// Every figure is worked out by hand in the comments.
func TestExactCounting(t *testing.T) {
	s := scriptedRun(t)
	checkTotals(t, s)
	checkOps(t, s)
	checkPartitions(t, s)
	checkIntervals(t, s)
}

// scriptedRun records the script of TestExactCounting.
func scriptedRun(t *testing.T) *Summary {
	reg := NewRegistry(Options{Start: at(1000), PartitionTarget: 120}) // one second of warm-up
	rec, rec2 := reg.NewRecorder(), reg.NewRecorder()
	// Warm-up: never counted.
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, At: at(500)})
	rec.Done(Insert, "A", at(400), at(500), true)
	rec.Dropped(Insert, at(900))
	// Second 0: an insert throttled twice, then created, 250 ms after its scheduled start.
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: busy, At: at(1100)})
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: opTimedOut, Retry: true, At: at(1200)})
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, Retry: true, At: at(1300)})
	rec.Done(Insert, "A", at(1050), at(1300), true)
	// A batch of 100 entities on B.
	rec.Request(Request{Op: Batch, Partition: "B", Outcome: ok202, Entities: 100, At: at(1400)})
	rec.Done(Batch, "B", at(1390), at(1400), true)
	// A table scan of two pages, 1000 entities in second 0 and 500 in second 1.
	rec.Request(Request{Op: TableScan, Partition: CrossPartition, Outcome: ok200, Entities: 1000, Page: true, At: at(1500)})
	if iv := reg.Tick(at(2001)); iv.Second != 0 || iv.Requests != 5 || iv.Entities != 1101 || iv.Hottest != "B" || iv.HottestEntities != 100 {
		t.Errorf("first tick's interval %+v: want second 0, 5 requests, 1101 entities, hottest B 100", iv)
	}
	rec.Request(Request{Op: TableScan, Partition: CrossPartition, Outcome: ok200, Entities: 500, Page: true, At: at(2100)})
	rec.Done(TableScan, CrossPartition, at(1450), at(2100), true)
	// Second 1: a conflict (failed operation), a dropped insert, a reset connection.
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: exists, At: at(2200)})
	rec.Done(Insert, "A", at(2190), at(2200), false)
	rec.Dropped(Insert, at(2300))
	rec.Request(Request{Op: Batch, Partition: "B", Outcome: connReset, At: at(2400)})
	rec.Done(Batch, "B", at(2350), at(2400), false)
	reg.Tick(at(2500))
	// Late: second 0 data recorded after two ticks, by both workers.
	rec.Request(Request{Op: Batch, Partition: "B", Outcome: ok202, Entities: 50, At: at(1999)})
	rec.Done(Batch, "B", at(1990), at(1999), true)
	rec2.Request(Request{Op: PointRead, Partition: "C", Outcome: ok200, Entities: 1, At: at(1700)})
	rec2.Done(PointRead, "C", at(1650), at(1700), true)
	// A table-level request: totals and operations only.
	rec2.Request(Request{Op: PointRead, Outcome: notFound, At: at(2600)})
	rec2.Done(PointRead, "", at(2590), at(2600), false)
	if lv := reg.Live(); lv.Second != 0 || lv.Hottest != "B" || lv.EntitiesPerSec != 1101 {
		t.Errorf("live %+v: want the last tick's second 0", lv)
	}
	return reg.Finish(at(3000))
}

func checkTotals(t *testing.T, s *Summary) {
	// 8 operations, 11 requests, 1+100+1000+500+50+1 entities, 2 throttled,
	// 3 errors (409, transport, 404), 3 failed, 1 drop, 2 retries, 2 pages.
	if got, want := statsCounts(s.Totals), (counts{8, 11, 1652, 2, 3, 3, 1, 2, 2}); got != want {
		t.Errorf("totals %v, want %v", got, want)
	}
	wantStatus := map[string]int64{"503 ServerBusy": 1, "500 OperationTimedOut": 1, "201": 1, "202": 2, "200": 3,
		"409 EntityAlreadyExists": 1, "transport": 1, "404 ResourceNotFound": 1}
	if !equalMaps(s.Totals.Status, wantStatus) || sum(s.Totals.Status) != s.Totals.Requests {
		t.Errorf("status %v, want %v", s.Totals.Status, wantStatus)
	}
	if s.Duration() != 2*time.Second || s.DurationS != 2 || s.Totals.OpsPerSec != 4 || s.Totals.EntitiesPerSec != 826 {
		t.Errorf("duration %v (%v s), %v ops/s, %v entities/s", s.Duration(), s.DurationS, s.Totals.OpsPerSec, s.Totals.EntitiesPerSec)
	}
}

func checkOps(t *testing.T, s *Summary) {
	ops := []struct {
		op   Op
		want counts
		max  float64 // ms
	}{
		{Insert, counts{2, 4, 1, 2, 1, 1, 1, 2, 0}, 250},       // created after two throttles; conflict; one drop
		{Batch, counts{3, 3, 150, 0, 1, 1, 0, 0, 0}, 10},       // 100 + late 50; reset connection (failed: its 50 ms in no latency)
		{TableScan, counts{1, 2, 1500, 0, 0, 0, 0, 0, 2}, 650}, // two pages
		{PointRead, counts{2, 2, 1, 0, 1, 1, 0, 0, 0}, 50},     // C, and the table-level 404
	}
	if len(s.Ops) != len(ops) {
		t.Errorf("%d operations ran, want %d", len(s.Ops), len(ops))
	}
	for _, o := range ops {
		st := s.Ops[o.op]
		if got := statsCounts(st); got != o.want || sum(st.Status) != st.Requests {
			t.Errorf("%v: %v (status %v), want %v", o.op, got, st.Status, o.want)
		}
		// Latency is the answered operations': the failed ones' time is in none.
		if math.Abs(st.Quantiles.Max-o.max) > o.max/1000 || st.Latency.TotalCount() != st.Ops-st.Failed {
			t.Errorf("%v: max latency %v ms over %d ops, want %v ms over %d", o.op, st.Quantiles.Max, st.Latency.TotalCount(), o.max, st.Ops-st.Failed)
		}
	}
}

func checkPartitions(t *testing.T, s *Summary) {
	parts := []struct {
		key       string
		want      counts
		peak      int64
		over      bool
		statusLen int
	}{
		{CrossPartition, counts{1, 2, 1500, 0, 0, 0, 0, 0, 2}, 1000, false, 1}, // above target, but not a partition
		{"B", counts{3, 3, 150, 0, 1, 1, 0, 0, 0}, 150, true, 2},               // 100 + 50 late, both in second 0
		{"A", counts{2, 4, 1, 2, 1, 1, 0, 2, 0}, 1, false, 4},                  // more requests than C
		{"C", counts{1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, false, 1},
	}
	if len(s.Partitions) != len(parts) {
		t.Fatalf("partitions %+v", s.Partitions)
	}
	for i, w := range parts {
		p := s.Partitions[i]
		if p.Key != w.key || partCounts(p) != w.want || p.Peak != w.peak || !p.PeakExact || p.OverTarget != w.over ||
			len(p.Status) != w.statusLen || sum(p.Status) != p.Requests || p.Latency.Count() != p.Ops-p.Failed {
			t.Errorf("partition %d: %q %v peak %d exact %v over %v status %v; want %q %v peak %d over %v",
				i, p.Key, partCounts(p), p.Peak, p.PeakExact, p.OverTarget, p.Status, w.key, w.want, w.peak, w.over)
		}
	}
	if b := s.Partitions[1]; b.EntitiesPerSec != 75 || math.Abs(b.Quantiles.Max-10) > 10*CompactPrecision { // the failed batch's 50 ms is not B's
		t.Errorf("B: %v entities/s, max %v ms", b.EntitiesPerSec, b.Quantiles.Max)
	}
}

func checkIntervals(t *testing.T, s *Summary) {
	ivs := []struct {
		want    counts
		hottest string
		hotN    int64
	}{
		// requests: 3 insert attempts, batch, page 1, late batch, C; ops: insert, batch, late batch, C.
		{counts{4, 7, 1152, 2, 0, 0, 0, 2, 1}, "B", 150},
		// requests: page 2, conflict, reset, 404; ops: scan, insert, batch, table-level; cross-partition is never hottest.
		{counts{4, 4, 500, 0, 3, 3, 1, 0, 1}, "", 0},
	}
	if len(s.Intervals) != len(ivs) {
		t.Fatalf("%d intervals, want %d", len(s.Intervals), len(ivs))
	}
	for i, w := range ivs {
		iv := s.Intervals[i]
		if iv.Second != i || ivCounts(iv) != w.want || iv.Hottest != w.hottest || iv.HottestEntities != w.hotN {
			t.Errorf("second %d: %v hottest %q %d; want %v hottest %q %d", i, ivCounts(iv), iv.Hottest, iv.HottestEntities, w.want, w.hottest, w.hotN)
		}
	}
	// Second 0's latencies are 9, 10, 50 and 250 ms: p50 is the second.
	if iv := s.Intervals[0]; math.Abs(iv.P50-10) > 10*CompactPrecision || math.Abs(iv.Max-250) > 0.001 || iv.Latency.Count() != 4 {
		t.Errorf("second 0 latency p50 %v max %v", iv.P50, iv.Max)
	}
}

func equalMaps(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Without a start nothing is measured; SetStart discards what was recorded
// before it and measures from t on.
func TestSetStart(t *testing.T) {
	reg := NewRegistry(Options{})
	rec := reg.NewRecorder()
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, At: at(100)})
	rec.Done(Insert, "A", at(50), at(100), true)
	if s := reg.Snapshot(at(200)); s.Totals.Requests != 0 || !s.Start.Equal(at(200)) || len(s.Intervals) != 0 {
		t.Errorf("before SetStart: %d requests, start %v, %d intervals", s.Totals.Requests, s.Start, len(s.Intervals))
	}
	reg.SetStart(at(1000))
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, At: at(900)}) // still warm-up
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, At: at(1100)})
	reg.Tick(at(1200))
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: 1, At: at(1300)})
	// The warm-up ends later than planned: what was recorded so far is discarded.
	reg.SetStart(at(2000))
	rec.Request(Request{Op: Insert, Partition: "B", Outcome: ok201, Entities: 1, At: at(2500)})
	s := reg.Finish(at(3000))
	if s.Totals.Requests != 1 || len(s.Partitions) != 1 || s.Partitions[0].Key != "B" || !s.Start.Equal(at(2000)) || len(s.Intervals) != 1 {
		t.Errorf("after SetStart: %d requests, partitions %+v, start %v", s.Totals.Requests, s.Partitions, s.Start)
	}
	if !reg.Start().Equal(at(2000)) {
		t.Errorf("Start() = %v", reg.Start())
	}
}

// Invalid records are ignored and counted, never a panic.
func TestIgnoredRecords(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	rec.Request(Request{Op: NumOps, Partition: "A", Outcome: ok201, At: at(10)})
	rec.Done(Op(200), "A", at(0), at(10), true)
	rec.Dropped(NumOps+1, at(10))
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, At: t0.Add(31 * 24 * time.Hour)})
	rec.Request(Request{Op: Insert, Partition: "A", Outcome: ok201, Entities: -5, At: at(10)}) // negative: no entities
	rec.Done(Insert, "A", at(10), at(5), true)                                                 // clock step: 0 latency
	s := reg.Finish(at(1000))
	if s.Ignored != 4 || s.Totals.Requests != 1 || s.Totals.Entities != 0 || s.Totals.Quantiles.Max != 0 || s.Totals.Ops != 1 {
		t.Errorf("ignored %d, requests %d, entities %d, max %v", s.Ignored, s.Totals.Requests, s.Totals.Entities, s.Totals.Quantiles.Max)
	}
}

// After a recorder has seen its partitions and outcomes (in both of its
// buffers), recording allocates nothing, across ticks and seconds.
func TestHotPathDoesNotAllocate(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	keys := []string{"a", "b", CrossPartition}
	i := 0
	record := func() {
		at := sec(i/50, i%50)
		k := keys[i%len(keys)]
		rec.Request(Request{Op: Op(i % int(NumOps)), Partition: k, Outcome: mixOutcomes[i%len(mixOutcomes)], Entities: 3, Page: i%2 == 0, At: at})
		rec.Done(Op(i%int(NumOps)), k, at.Add(-time.Duration(i%7000)*time.Microsecond), at, i%5 > 0)
		rec.Dropped(Insert, at)
		i++
	}
	for range 2 {
		for range 8000 {
			record()
		}
		reg.Tick(sec(i/50, 0))
	}
	if n := testing.AllocsPerRun(5000, record); n != 0 {
		t.Errorf("%v allocations per record", n)
	}
}

// A recorder forgets partitions it no longer touches (its slot table
// shrinks) and counts them correctly when they come back; freed slots are
// reused.
func TestRecorderForgetsIdlePartitions(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	touch := func(from, to, s int) {
		for p := from; p < to; p++ {
			insert(rec, strconv.Itoa(p), 1, sec(s, 0))
			rec.Done(Insert, strconv.Itoa(p), sec(s, 0), sec(s, 1), true)
		}
	}
	touch(0, 1000, 0)
	reg.Tick(sec(1, 0))
	touch(0, 1000, 1)
	for s := 2; s < 22; s++ { // idle, but for partition "0"
		touch(0, 1, s)
		reg.Tick(sec(s, 0))
	}
	for _, d := range []*tickData{rec.d, rec.spare} {
		if len(d.parts) != 1 || len(d.slots) > 1+shrinkMin {
			t.Errorf("after idle ticks: %d partitions, %d slots", len(d.parts), len(d.slots))
		}
	}
	touch(500, 700, 30) // back, into reused or new slots
	touch(500, 700, 30)
	s := reg.Finish(sec(31, 0))
	if len(s.Partitions) != 1000 || s.Totals.Requests != 2000+20+400 {
		t.Fatalf("%d partitions, %d requests", len(s.Partitions), s.Totals.Requests)
	}
	for _, p := range s.Partitions {
		want, peak := int64(2), int64(1)
		switch n, _ := strconv.Atoi(p.Key); {
		case n == 0: // one a second for 22 seconds
			want = 22
		case n >= 500 && n < 700: // and two in second 30
			want, peak = 4, 2
		}
		if p.Requests != want || p.Ops != want || p.Latency.Count() != want || p.Peak != peak {
			t.Errorf("%q: %d requests, %d ops, peak %d; want %d, peak %d", p.Key, p.Requests, p.Ops, p.Peak, want, peak)
		}
	}
}
