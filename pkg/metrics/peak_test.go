package metrics

import (
	"testing"
	"time"
)

// sec is t0 plus s seconds and ms milliseconds.
func sec(s, ms int) time.Time {
	return t0.Add(time.Duration(s)*time.Second + time.Duration(ms)*time.Millisecond)
}

func insert(rec *Recorder, part string, n int, t time.Time) {
	rec.Request(Request{Op: Insert, Partition: part, Outcome: ok201, Entities: n, At: t})
}

func find(t *testing.T, s *Summary, key string) PartitionStats {
	t.Helper()
	for _, p := range s.Partitions {
		if p.Key == key {
			return p
		}
	}
	t.Fatalf("partition %q missing", key)
	return PartitionStats{}
}

// Peaks are exact maxima over one-second intervals even when a worker hands
// a second's data over several ticks late, while other workers have moved
// on; the hottest partition of a second follows late data too.
func TestPeakExactWithLateData(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	fast, slow := reg.NewRecorder(), reg.NewRecorder()
	for s := 0; s < 20; s++ {
		insert(fast, "P", 10, sec(s, 100))
		insert(fast, "R", 55, sec(3, 0)) // R: 55 in second 3, recorded every second: ends at 20*55
		reg.Tick(sec(s+1, 1))
		if s == 9 {
			// Second 3's 50 entities of P arrive 6 s late (inside the window): P's second 3 is 60.
			insert(slow, "P", 50, sec(3, 999))
			// Q's newest second is 12; its second 2 arrives 10 s behind it: only a lower bound.
			insert(slow, "Q", 5, sec(12, 0))
			insert(slow, "Q", 7, sec(2, 0))
		}
		if s == 10 {
			insert(slow, "Q", 1, sec(12, 500))
		}
	}
	s := reg.Finish(sec(20, 0))
	p := find(t, s, "P")
	if p.Peak != 60 || !p.PeakExact || p.Entities != 250 {
		t.Errorf("P: peak %d exact %v entities %d; want 60, exact, 250", p.Peak, p.PeakExact, p.Entities)
	}
	if r := find(t, s, "R"); r.Peak != 20*55 || !r.PeakExact {
		t.Errorf("R: peak %d exact %v; want %d", r.Peak, r.PeakExact, 20*55)
	}
	if q := find(t, s, "Q"); q.Peak != 7 || q.PeakExact {
		t.Errorf("Q: peak %d exact %v; want 7 as a lower bound", q.Peak, q.PeakExact)
	}
	if iv := s.Intervals[3]; iv.Hottest != "R" || iv.HottestEntities != 20*55 || iv.Entities != 20*55+60 {
		t.Errorf("second 3: hottest %q %d, %d entities", iv.Hottest, iv.HottestEntities, iv.Entities)
	}
	if iv := s.Intervals[5]; iv.Hottest != "P" || iv.HottestEntities != 10 {
		t.Errorf("second 5: hottest %q %d", iv.Hottest, iv.HottestEntities)
	}
}

// The hottest partition of a second changes when a late worker's data makes
// another partition busier; ties go to the smaller key.
func TestHottestFollowsLateData(t *testing.T) {
	reg := NewRegistry(Options{Start: t0})
	a, b := reg.NewRecorder(), reg.NewRecorder()
	insert(a, "x", 30, sec(0, 100))
	insert(a, "y", 40, sec(0, 200))
	if iv := reg.Tick(sec(1, 0)); iv.Hottest != "y" || iv.HottestEntities != 40 {
		t.Errorf("tick: hottest %q %d, want y 40", iv.Hottest, iv.HottestEntities)
	}
	insert(b, "x", 10, sec(0, 900)) // x ties y at 40: the smaller key wins
	insert(b, "z", 39, sec(0, 900))
	s := reg.Finish(sec(1, 0))
	if iv := s.Intervals[0]; iv.Hottest != "x" || iv.HottestEntities != 40 {
		t.Errorf("final: hottest %q %d, want x 40", iv.Hottest, iv.HottestEntities)
	}
}

func TestPeakWindow(t *testing.T) {
	steps := []struct {
		sec   int32
		n     int64
		count int64 // the second's count after the step
		max   int64
		late  bool
	}{
		{5, 3, 3, 3, false},       // first second
		{5, 2, 5, 5, false},       // same second
		{4, 9, 9, 9, false},       // one second late
		{12, 1, 1, 9, false},      // second 4 leaves the window, folded into the peak
		{5, 100, 105, 105, false}, // 7 s behind the newest: still in the window
		{4, 1, 1, 105, true},      // 8 s behind: out of the window, a lower bound
		{40, 2, 2, 105, true},     // a jump beyond the window folds everything
		{40, 200, 202, 202, true},
	}
	var w peakWindow
	for i, s := range steps {
		if got := w.add(s.sec, s.n, false); got != s.count || w.max() != s.max || w.late != s.late {
			t.Errorf("step %d: count %d max %d late %v; want %d %d %v", i, got, w.max(), w.late, s.count, s.max, s.late)
		}
	}
}

// Series bins are 1 s up to 240 s, then double; the peak stays the
// one-second peak whatever the bin width.
func TestSeriesBinsDouble(t *testing.T) {
	tests := []struct {
		seconds int
		width   time.Duration
		bins    int
	}{
		{10, time.Second, 10},       // short run: one bin per second
		{240, time.Second, 240},     // exactly 4 minutes
		{241, 2 * time.Second, 121}, // one second more doubles the width
		{600, 4 * time.Second, 150}, // 10 minutes
	}
	for _, tt := range tests {
		reg := NewRegistry(Options{Start: t0})
		rec := reg.NewRecorder()
		for s := 0; s < tt.seconds; s++ {
			insert(rec, "P", 1+s%3, sec(s, 0))
			if s%50 == 0 {
				reg.Tick(sec(s, 1))
			}
		}
		s := reg.Finish(sec(tt.seconds, 0))
		if s.BinWidth != tt.width || len(s.Series) != 1 || len(s.Series[0].Entities) != tt.bins {
			t.Errorf("%d s: width %v, %d series of %d bins; want %v, %d bins", tt.seconds, s.BinWidth, len(s.Series),
				len(s.Series[0].Entities), tt.width, tt.bins)
			continue
		}
		var total, first int64
		per := int(tt.width / time.Second)
		for i := range per {
			first += int64(1 + i%3)
		}
		for _, n := range s.Series[0].Entities {
			total += n
		}
		if total != s.Partitions[0].Entities || s.Series[0].Entities[0] != first || s.Partitions[0].Peak != 3 {
			t.Errorf("%d s: series sum %d (entities %d), first bin %d (want %d), peak %d", tt.seconds, total,
				s.Partitions[0].Entities, s.Series[0].Entities[0], first, s.Partitions[0].Peak)
		}
	}
}

// Only the SeriesPartitions busiest partitions keep a series; a negative
// limit keeps all.
func TestSeriesLimit(t *testing.T) {
	for _, tt := range []struct{ limit, want int }{{0, 50}, {3, 3}, {-1, 80}} {
		reg := NewRegistry(Options{Start: t0, SeriesPartitions: tt.limit})
		rec := reg.NewRecorder()
		for p := range 80 {
			insert(rec, string(rune('A'+p)), p+1, sec(0, p))
		}
		s := reg.Finish(sec(1, 0))
		if len(s.Series) != tt.want || s.Series[0].Partition != s.Partitions[0].Key || s.Series[0].Entities[0] != 80 {
			t.Errorf("limit %d: %d series, first %+v", tt.limit, len(s.Series), s.Series[0])
		}
	}
}
