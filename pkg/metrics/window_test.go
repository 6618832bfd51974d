package metrics

import (
	"testing"
)

// The measured window has exactly its own seconds: what completes after the
// end (in-flight operations draining) counts in the last second, so no
// interval or series bin is plotted past the end and a partition's average
// never exceeds its peak.
func TestWindowEndFoldsTheDrain(t *testing.T) {
	reg := NewRegistry(Options{Start: t0, End: sec(3, 0)})
	rec := reg.NewRecorder()
	for s := 0; s < 3; s++ {
		for k := 0; k < 20; k++ {
			insert(rec, "P", 100, sec(s, 50*k)) // 2,000 entities in each second
		}
	}
	insert(rec, "P", 100, sec(3, 5))   // the drain: sent before the end, completed after it
	insert(rec, "P", 100, sec(3, 400)) // a straggler
	rec.Done(Insert, "P", sec(2, 900), sec(3, 20), true)
	s := reg.Finish(sec(3, 0))
	if len(s.Intervals) != 3 {
		t.Fatalf("%d intervals, want the window's 3", len(s.Intervals))
	}
	if last := s.Intervals[2]; last.Entities != 2200 || last.Ops != 1 {
		t.Errorf("last second: %d entities, %d ops; want 2,200 and 1 (the drain folded in)", last.Entities, last.Ops)
	}
	p := find(t, s, "P")
	if p.Entities != 6200 || p.Peak != 2200 {
		t.Errorf("P: %d entities, peak %d; want 6,200 and 2,200", p.Entities, p.Peak)
	}
	if p.EntitiesPerSec > float64(p.Peak) {
		t.Errorf("P: %.1f entities/s on average above its peak %d", p.EntitiesPerSec, p.Peak)
	}
	if len(s.Series) != 1 || len(s.Series[0].Entities) != 3 || s.Series[0].Entities[2] != 2200 {
		t.Errorf("series %+v, want 3 bins ending in 2,200", s.Series)
	}
}

// A run that stops early (Ctrl-C, an abort) moves the end: records after it
// count in its last second, and seconds a tick merged before the move are
// folded into that second too.
func TestSetEndFoldsLaterSeconds(t *testing.T) {
	reg := NewRegistry(Options{Start: t0, End: sec(10, 0)})
	rec := reg.NewRecorder()
	insert(rec, "P", 5, sec(0, 100))
	insert(rec, "P", 7, sec(2, 600)) // merged by the tick below, before the end moves
	reg.Tick(sec(2, 700))
	reg.SetEnd(sec(2, 500))
	insert(rec, "P", 11, sec(2, 900)) // after the new end
	s := reg.Finish(sec(2, 500))
	if len(s.Intervals) != 3 {
		t.Fatalf("%d intervals, want 3 (2.5 s)", len(s.Intervals))
	}
	if got := s.Intervals[2].Entities; got != 18 {
		t.Errorf("last second: %d entities, want 18", got)
	}
	var total int64
	for _, iv := range s.Intervals {
		total += iv.Entities
	}
	if total != s.Totals.Entities || total != 23 {
		t.Errorf("intervals hold %d entities, totals %d; want 23", total, s.Totals.Entities)
	}
}

// A run interrupted during its warm-up measured nothing.
func TestEndBeforeStartMeasuresNothing(t *testing.T) {
	reg := NewRegistry(Options{Start: sec(5, 0), End: sec(2, 0)})
	rec := reg.NewRecorder()
	insert(rec, "P", 5, sec(6, 0))
	s := reg.Finish(sec(2, 0))
	if s.Totals.Requests != 0 || len(s.Intervals) != 0 {
		t.Errorf("%d requests in %d intervals, want none", s.Totals.Requests, len(s.Intervals))
	}
}

// OverTarget: a peak over the target, or throttling in a second in which
// the partition served at least 95% of it. Throttling at a low load (a
// move, the account) is not the partition's target.
func TestOverTargetRule(t *testing.T) {
	const target = 2000
	reg := NewRegistry(Options{Start: t0, PartitionTarget: target})
	rec := reg.NewRecorder()
	throttle := func(part string, at int) {
		rec.Request(Request{Op: Insert, Partition: part, Outcome: busy, At: sec(at, 10)})
	}
	insert(rec, "over", 2100, sec(0, 0))         // peak over the target
	insert(rec, "at", 1900, sec(1, 0))           // 95% of the target, and throttled in that second
	throttle("at", 1)                            //
	insert(rec, "at", 1999, sec(2, 0))           // more in a second without throttling
	insert(rec, "low", 1500, sec(0, 0))          // throttled, but at 75%
	throttle("low", 0)                           //
	insert(rec, "split", 1950, sec(3, 0))        // near the target in one second,
	throttle("split", 4)                         // throttled in another, nearly idle one
	insert(rec, "split", 10, sec(4, 0))          //
	insert(rec, CrossPartition, 9000, sec(0, 0)) // never a partition's target
	throttle(CrossPartition, 0)
	s := reg.Finish(sec(5, 0))
	for key, want := range map[string]bool{"over": true, "at": true, "low": false, "split": false, CrossPartition: false} {
		p := find(t, s, key)
		if p.OverTarget != want {
			t.Errorf("%s: over_target %v, want %v (peak %d, throttled peak %d, throttled %d)", key, p.OverTarget, want, p.Peak, p.ThrottledPeak, p.Throttled)
		}
	}
	if p := find(t, s, "at"); p.ThrottledPeak != 1900 || p.Peak != 1999 {
		t.Errorf("at: throttled peak %d, peak %d; want 1,900 and 1,999", p.ThrottledPeak, p.Peak)
	}
}

// An operation belongs to the window it started in: one started in the
// warm-up is excluded with all its requests however late it completes.
func TestWarmupOperationsExcludedWhole(t *testing.T) {
	reg := NewRegistry(Options{Start: sec(2, 0), End: sec(4, 0)})
	rec := reg.NewRecorder()
	started := sec(1, 990) // in the warm-up
	rec.Request(Request{Op: Insert, Partition: "P", Outcome: busy, At: sec(1, 995), Start: started})
	rec.Request(Request{Op: Insert, Partition: "P", Outcome: ok201, Entities: 1, Retry: true, At: sec(2, 40), Start: started})
	rec.Done(Insert, "P", started, sec(2, 40), true)
	measured := sec(2, 10)
	rec.Request(Request{Op: Insert, Partition: "P", Outcome: ok201, Entities: 1, At: sec(2, 20), Start: measured})
	rec.Done(Insert, "P", measured, sec(2, 20), true)
	s := reg.Finish(sec(4, 0))
	if c := s.Totals.Counts; c.Ops != 1 || c.Requests != 1 || c.Entities != 1 || c.Retries != 0 {
		t.Errorf("totals %+v, want the measured operation's 1 op, 1 request, 1 entity", c)
	}
}
