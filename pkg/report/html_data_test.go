package report

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// The page's spread curve keeps at most 400 points of any number of
// partitions, from the busiest peak to the quietest, leaving out the
// cross-partition row.
func TestSpreadIsBounded(t *testing.T) {
	var parts []Partition
	for i := 0; i < 30_000; i++ {
		parts = append(parts, Partition{PartitionKey: "p", PeakEntitiesPerSec: float64(30_000 - i)})
	}
	parts = append(parts, Partition{PartitionKey: metrics.CrossPartition, PeakEntitiesPerSec: 1e9})
	s := spreadOf(parts, 400)
	if len(s) > 400 || len(s) < 300 {
		t.Fatalf("%d points, want at most 400", len(s))
	}
	if first, last := s[0], s[len(s)-1]; first != [2]float64{0, 30_000} || last != [2]float64{100, 1} {
		t.Errorf("the curve runs from %v to %v, want from [0 30000] to [100 1]", first, last)
	}
	if one := spreadOf(parts[:1], 400); len(one) != 1 || one[0] != [2]float64{0, 30_000} {
		t.Errorf("one partition: %v", one)
	}
}

// A long run's seconds are binned to at most 600 points, each the sum of
// its seconds' counts and the highest of their latencies; nothing is lost.
func TestPageIntervalsAreBounded(t *testing.T) {
	var ivs []Interval
	var all metrics.Counts
	for s := 0; s < 3601; s++ {
		iv := Interval{Second: s, Counts: metrics.Counts{Ops: int64(s), Entities: 2 * int64(s), Dropped: 1}, P99: float64(s % 10)}
		all.Add(iv.Counts)
		ivs = append(ivs, iv)
	}
	bins, secs := pageIntervals(ivs, 600)
	if len(bins) > 600 || secs != 7 || bins[1].Second != 7 {
		t.Fatalf("%d bins of %v s (the second starts at %d), want at most 600 of 7 s", len(bins), secs, bins[1].Second)
	}
	var got metrics.Counts
	for _, b := range bins {
		got.Add(b.Counts)
	}
	if got != all || bins[0].P99 != 6 {
		t.Errorf("binned counts %+v, want %+v; first bin's p99 %v, want 6", got, all, bins[0].P99)
	}
	if short, secs := pageIntervals(ivs[:5], 600); len(short) != 5 || secs != 1 {
		t.Errorf("a short run's seconds are binned: %d of %v s", len(short), secs)
	}
}

// The heatmap names its first 20 partitions; the rest are one row, their
// mean: what the seconds measured less what the named rows served.
func TestHeatmapSummarisesTheRest(t *testing.T) {
	r := &Report{Heatmap: &Heatmap{BinSeconds: 1}}
	for p := 0; p < 50; p++ {
		r.Heatmap.Partitions = append(r.Heatmap.Partitions, "p")
		r.Heatmap.Entities = append(r.Heatmap.Entities, []int64{10, 20})
	}
	r.Partitions = make([]Partition, 120)
	r.Intervals = []Interval{{Second: 0, Counts: metrics.Counts{Entities: 1200}}, {Second: 1, Counts: metrics.Counts{Entities: 500}}}
	h := pageHeatmapOf(r, 20)
	if len(h.Partitions) != 20 || len(h.Entities) != 20 || h.OtherCount != 100 {
		t.Fatalf("%d rows named, %d others, want 20 and 100", len(h.Partitions), h.OtherCount)
	}
	// Bin 0: 1,200 - 20 x 10 = 1,000 over 100; bin 1: 500 - 20 x 20 = 100 over 100.
	if h.Other[0] != 10 || h.Other[1] != 1 {
		t.Errorf("the other partitions' mean: %v, want [10 1]", h.Other)
	}
}
