package metrics

import (
	"sort"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Summary is everything a run measured, ready for the report.
type Summary struct {
	Start, End      time.Time
	PartitionTarget float64
	Totals          Stats
	Ops             map[Op]Stats // operations that ran
	Partitions      []PartitionStats
	Intervals       []Interval
	// BinWidth is the width of a heatmap bin; Series holds the busiest
	// partitions' entities per bin, in Partitions order.
	BinWidth time.Duration
	Series   []Series
}

// Duration is the measured time.
func (s *Summary) Duration() time.Duration { return s.End.Sub(s.Start) }

// Stats are the totals of the run or of one operation.
type Stats struct {
	Ops, Requests, Entities, Throttled, Errors, Failed, Dropped, Retries, Pages int64
	Status                                                                      map[string]int64
	// Latency holds every completed operation's latency in microseconds.
	Latency *hdrhistogram.Histogram
}

// LatencyMs returns the latency quantile q (0..100 as hdrhistogram takes it)
// in milliseconds.
func (s Stats) LatencyMs(q float64) float64 {
	if s.Latency == nil || s.Latency.TotalCount() == 0 {
		return 0
	}
	if q >= 100 {
		return usToMs(s.Latency.Max())
	}
	return usToMs(s.Latency.ValueAtQuantile(q))
}

// PartitionStats are one partition's figures.
type PartitionStats struct {
	Key                                        string
	Ops, Requests, Entities, Throttled, Errors int64
	Failed                                     int64
	Status                                     map[string]int64
	Peak                                       int64 // entities in the busiest one-second interval
	Latency                                    *Compact
}

// Series is one partition's entities per heatmap bin.
type Series struct {
	Partition string
	Entities  []int64
}

// Finish collects what is left, seals every second and returns the summary.
// Call it after every worker has stopped.
func (r *Registry) Finish(end time.Time) *Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collect()
	last, ok := r.second(end)
	if !ok {
		last = -1
	}
	for s := range r.seconds {
		if s >= r.sealed {
			last = max(last, s)
		}
	}
	// A final partial second is kept: it is part of the measured time.
	r.sealThrough(last)
	return r.summary(end)
}

// Snapshot returns the figures so far without ending the run, for checks
// made during it (thresholds with abort_on_fail). Peaks cover sealed seconds.
func (r *Registry) Snapshot(now time.Time) *Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collect()
	return r.summary(now)
}

// summary builds a Summary from the merged data; r.mu is held.
func (r *Registry) summary(end time.Time) *Summary {
	start := r.Start()
	if end.Before(start) {
		end = start
	}
	s := &Summary{Start: start, End: end, PartitionTarget: r.opts.PartitionTarget, Ops: map[Op]Stats{},
		Intervals: append([]Interval(nil), r.intervals...), BinWidth: time.Duration(r.binWidth) * time.Second}
	s.Totals = r.total.stats()
	for i := range r.ops {
		if o := r.ops[i]; o.requests > 0 || o.ops > 0 || o.dropped > 0 {
			s.Ops[Op(i)] = o.stats()
		}
	}
	for _, p := range r.parts {
		lat := NewCompact(DefaultCompactBits)
		lat.Merge(&p.lat)
		s.Partitions = append(s.Partitions, PartitionStats{Key: p.key, Ops: p.ops, Requests: p.requests, Entities: p.entities,
			Throttled: p.throttled, Errors: p.errors, Failed: p.failed, Status: copyMap(p.status), Peak: p.peak, Latency: lat})
	}
	SortPartitions(s.Partitions)
	for i := 0; i < len(s.Partitions) && i < r.opts.SeriesPartitions; i++ {
		p := r.parts[s.Partitions[i].Key]
		s.Series = append(s.Series, Series{Partition: p.key, Entities: append([]int64(nil), p.series...)})
	}
	return s
}

// SortPartitions orders partitions busiest first: by entities, then
// requests, then key.
func SortPartitions(ps []PartitionStats) {
	sort.Slice(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Entities != b.Entities {
			return a.Entities > b.Entities
		}
		if a.Requests != b.Requests {
			return a.Requests > b.Requests
		}
		return a.Key < b.Key
	})
}

func (o *opTotal) stats() Stats {
	h := hdrhistogram.New(hdrMin, hdrMax, hdrDigits)
	h.Merge(o.hist)
	return Stats{Ops: o.ops, Requests: o.requests, Entities: o.entities, Throttled: o.throttled, Errors: o.errors,
		Failed: o.failed, Dropped: o.dropped, Retries: o.retries, Pages: o.pages, Status: copyMap(o.status), Latency: h}
}

func copyMap(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
