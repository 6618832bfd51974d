package metrics

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Seconds older than sealAfter are sealed at each tick, late data unseals
// and merges into them, and the Summary's intervals are exactly what
// recording every latency into one Compact per second gives.
func TestSealedSecondsKeepFigures(t *testing.T) {
	const secs = 40
	reg := NewRegistry(Options{Start: t0})
	rec, late := reg.NewRecorder(), reg.NewRecorder()
	want := make([]*Compact, secs)
	for i := range want {
		want[i] = NewCompact(DefaultCompactBits)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	done := func(r *Recorder, sec int) {
		lat := time.Duration(200+rng.IntN(30_000)) * time.Microsecond
		end := t0.Add(time.Duration(sec)*time.Second + time.Duration(rng.IntN(1000))*time.Millisecond)
		lat = min(lat, end.Sub(t0)) // started in the measured window
		r.Request(Request{Op: PointRead, Partition: "p", Outcome: ok200, Entities: 1, At: end})
		r.Done(PointRead, "p", end.Add(-lat), end, true)
		want[sec].Record(lat.Microseconds())
	}
	for s := range secs {
		for range 50 + rng.IntN(200) {
			done(rec, s)
		}
		if s == 30 { // seconds 2 and 3 were sealed long ago: these arrive late
			for range 25 {
				done(late, 2)
				done(late, 3)
			}
		}
		reg.Tick(t0.Add(time.Duration(s+1) * time.Second))
		if s == 29 {
			for k := range 30 - sealAfter {
				if !reg.secs.at(k).sealed() {
					t.Fatalf("after the tick at second %d, second %d is not sealed", s+1, k)
				}
			}
			if reg.secs.at(30 - sealAfter).sealed() {
				t.Fatalf("second %d sealed within %d s of the tick", 30-sealAfter, sealAfter)
			}
		}
		if s == 30 && (!reg.secs.at(2).sealed() || !reg.secs.at(3).sealed() || len(reg.reseal) != 0) {
			t.Fatalf("late seconds not sealed again: 2 %v, 3 %v, reseal %v", reg.secs.at(2).sealed(), reg.secs.at(3).sealed(), reg.reseal)
		}
	}
	sum := reg.Finish(t0.Add(secs * time.Second))
	if len(sum.Intervals) != secs {
		t.Fatalf("%d intervals, want %d", len(sum.Intervals), secs)
	}
	for i, iv := range sum.Intervals {
		w := want[i]
		if iv.Ops != w.Count() || iv.Latency == nil || iv.Latency.Encode() != w.Encode() {
			t.Fatalf("second %d: %d ops, histogram %v; want %d ops, %s", i, iv.Ops, iv.Latency, w.Count(), w.Encode())
		}
		if iv.P99 != usToMs(w.Quantile(0.99)) || iv.Max != usToMs(w.Max()) {
			t.Errorf("second %d: p99 %g max %g, want %g %g", i, iv.P99, iv.Max, usToMs(w.Quantile(0.99)), usToMs(w.Max()))
		}
	}
	// Finish reads sealed seconds without unsealing them.
	if !reg.secs.at(0).sealed() {
		t.Error("Finish unsealed second 0")
	}
}

// A second without latencies (only dropped operations, or nothing) is never
// sealed and reports no histogram.
func TestSealEmptySecond(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	rec.Dropped(PointRead, at(500))
	for s := 1; s <= 20; s++ {
		reg.Tick(t0.Add(time.Duration(s) * time.Second))
	}
	if reg.secs.at(0).sealed() {
		t.Fatal("second without latencies sealed")
	}
	sum := reg.Finish(t0.Add(20 * time.Second))
	if iv := sum.Intervals[0]; iv.Dropped != 1 || iv.Latency != nil || iv.P99 != 0 {
		t.Errorf("second 0: %+v", iv)
	}
}

// A Snapshot has the run's figures but none of its seconds.
func TestSnapshotWithoutSeconds(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	rec := reg.NewRecorder()
	for s := range 30 {
		end := t0.Add(time.Duration(s)*time.Second + 10*time.Millisecond)
		rec.Request(Request{Op: Insert, Partition: "p", Outcome: ok201, Entities: 1, At: end})
		rec.Done(Insert, "p", end.Add(-time.Millisecond), end, true)
		reg.Tick(t0.Add(time.Duration(s+1) * time.Second))
	}
	snap := reg.Snapshot(t0.Add(30 * time.Second))
	if snap.Intervals != nil || snap.Series != nil {
		t.Errorf("snapshot has %d intervals and %d series", len(snap.Intervals), len(snap.Series))
	}
	if snap.Totals.Ops != 30 || len(snap.Partitions) != 1 || snap.Partitions[0].Entities != 30 || snap.Partitions[0].Peak != 1 {
		t.Errorf("snapshot totals %+v partitions %+v", snap.Totals, snap.Partitions)
	}
	if sum := reg.Finish(t0.Add(30 * time.Second)); len(sum.Intervals) != 30 || len(sum.Series) != 1 {
		t.Errorf("finish after a snapshot: %d intervals, %d series", len(sum.Intervals), len(sum.Series))
	}
}

// The table of seconds grows in chunks and keeps every second in place.
func TestSecondTable(t *testing.T) {
	var tab secondTable
	tab.grow(3)
	tab.at(2).c.Ops = 7
	p := tab.at(2)
	tab.grow(secondsPerChunk*2 + 5)
	if tab.len() != secondsPerChunk*2+5 || len(tab.chunks) != 3 || tab.at(2) != p || p.c.Ops != 7 {
		t.Fatalf("len %d, %d chunks, second 2 moved or lost", tab.len(), len(tab.chunks))
	}
	tab.grow(4)
	if tab.len() != secondsPerChunk*2+5 {
		t.Fatalf("grow to less shrank the table to %d", tab.len())
	}
}
