package metrics

import (
	"sort"
	"time"
)

// Summary is everything a run measured: plain data, JSON-encodable and
// decodable without loss, mergeable with the summaries of the run's other
// shards (Merge).
type Summary struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// DurationS is the measured duration, End - Start, in seconds; rates are
	// per second of it.
	DurationS       float64 `json:"duration_s"`
	PartitionTarget float64 `json:"partition_target"`
	// PartitionUnits is Options.PartitionUnits: the RU/s charged
	// partitions are judged against (0: none).
	PartitionUnits float64 `json:"partition_request_units,omitempty"`
	Totals         Stats   `json:"totals"`
	// Ops has the operations that ran (requested, completed or dropped).
	Ops map[Op]Stats `json:"operations"`
	// Questions has the application's questions that ran, by name.
	Questions map[string]QuestionStats `json:"questions,omitempty"`
	// Partitions has every partition touched, busiest first (SortPartitions).
	Partitions []PartitionStats `json:"partitions"`
	// Intervals has one entry per second of the measured run, Intervals[i]
	// for second i, including a final partial second and any second in
	// which late operations completed (nil in a Registry.Snapshot).
	Intervals []Interval `json:"intervals"`
	// BinWidth is the width of a Series bin: a power of two seconds, 1 s for
	// runs up to 4 minutes, at most 240 bins.
	BinWidth time.Duration `json:"bin_width_ns"`
	// SeriesLimit is how many partitions keep a series (negative: all).
	SeriesLimit int `json:"series_limit"`
	// Series has the entities per bin of the busiest partitions, in
	// Partitions order, for a partition x time heatmap (nil in a
	// Registry.Snapshot).
	Series []Series `json:"series"`
	// Ignored counts records that were dropped as invalid: an Op that is not
	// an operation, or a time beyond MaxRunSeconds.
	Ignored int64 `json:"ignored,omitempty"`
}

// Duration is the measured time.
func (s *Summary) Duration() time.Duration { return s.End.Sub(s.Start) }

// PartitionStats are one partition's figures.
type PartitionStats struct {
	Key string `json:"partition_key"`
	Counts
	// EntitiesPerSec is Entities per second of the measured duration.
	EntitiesPerSec float64 `json:"entities_per_sec"`
	// Peak is the entities served in the partition's busiest one-second
	// interval (its peak entities/s). PeakExact is false when Peak is only
	// a lower bound (see peakWindow).
	Peak      int64 `json:"peak_entities_per_sec"`
	PeakExact bool  `json:"peak_exact"`
	// ThrottledPeak is the most entities the partition served in a second
	// in which one of its requests was throttled.
	ThrottledPeak int64 `json:"throttled_peak_entities_per_sec"`
	// PeakUnits is the request units charged in the partition's busiest
	// second (its peak RU/s), ThrottledPeakUnits the most charged in a
	// second in which it was throttled; zero when it was never charged.
	PeakUnits          float64 `json:"peak_request_units_per_sec,omitempty"`
	ThrottledPeakUnits float64 `json:"throttled_peak_request_units_per_sec,omitempty"`
	// OverTarget says the partition's load reached its target (OverTarget).
	OverTarget bool             `json:"over_target"`
	Status     map[string]int64 `json:"status"`
	// Quantiles are Latency's, in milliseconds (Compact precision).
	Quantiles Percentiles `json:"latency_ms"`
	// Latency holds the latencies (µs) of the partition's answered
	// (completed, not failed) operations.
	Latency *Compact `json:"latency_hist"`
}

// Series is one partition's entities per bin.
type Series struct {
	Partition string  `json:"partition_key"`
	Entities  []int64 `json:"entities"`
}

// Finish merges what the recorders still hold and returns the summary of
// the run measured from the start to end. Call it after every worker has
// stopped; operations completing after end (a grace period) still count,
// in intervals past the end.
func (r *Registry) Finish(end time.Time) *Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collect()
	return r.summary(end, true)
}

// Snapshot returns the figures so far without ending the run, for checks
// made during it (thresholds with abort_on_fail, a Prometheus scrape): the
// totals, operations and partitions, but neither Intervals nor Series (nil),
// so that its cost follows the partitions touched, not the run's length. It
// costs a copy of every partition's figures.
func (r *Registry) Snapshot(now time.Time) *Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collect()
	return r.summary(now, false)
}

// summary builds a Summary from the merged data, with the per-second
// intervals and series when withSeconds; r.mu is held.
func (r *Registry) summary(end time.Time, withSeconds bool) *Summary {
	start := r.Start()
	if start.IsZero() || end.Before(start) {
		start = end
	}
	s := &Summary{Start: start, End: end, PartitionTarget: r.opts.PartitionTarget, PartitionUnits: r.opts.PartitionUnits, SeriesLimit: r.opts.SeriesPartitions,
		Ops: map[Op]Stats{}, Partitions: make([]PartitionStats, 0, len(r.parts)), Ignored: r.ignored.Load()}
	s.Totals = r.total.stats()
	for i := range r.ops {
		if o := &r.ops[i]; !o.c.IsZero() {
			s.Ops[Op(i)] = o.stats()
		}
	}
	s.Questions = r.questionStats()
	for _, p := range r.parts {
		s.Partitions = append(s.Partitions, p.stats())
	}
	if !withSeconds {
		s.finish()
		return s
	}
	// The measured window's seconds, the last one partial when the window
	// is; records a tick merged before an early end moved the window
	// (Registry.SetEnd) are folded into its last second.
	nsecs := int((end.Sub(start) + time.Second - 1) / time.Second)
	nsecs = min(max(nsecs, min(r.secs.len(), 1)), MaxRunSeconds+1)
	if nsecs > 0 {
		r.widen(int32(nsecs - 1))
	}
	s.Intervals = make([]Interval, nsecs)
	for i := range s.Intervals {
		s.Intervals[i] = Interval{Second: i}
	}
	for i := 0; i < r.secs.len(); i++ {
		iv := r.secs.at(i).interval(i, true)
		if i < nsecs {
			s.Intervals[i] = iv
			continue
		}
		s.Intervals[nsecs-1].fold(iv)
	}
	s.BinWidth = time.Duration(r.binWidth) * time.Second
	SortPartitions(s.Partitions)
	nbins := (nsecs + int(r.binWidth) - 1) / int(r.binWidth)
	for _, ps := range s.Partitions[:seriesCount(len(s.Partitions), s.SeriesLimit)] {
		s.Series = append(s.Series, Series{Partition: ps.Key, Entities: r.parts[ps.Key].dense(nbins)})
	}
	s.finish()
	return s
}

// seriesCount is how many of n partitions keep a series under limit.
func seriesCount(n, limit int) int {
	if limit < 0 {
		return n
	}
	return min(n, limit)
}

// finish computes every derived figure: duration, rates, quantiles, peaks
// against the target, and the partitions' order.
func (s *Summary) finish() {
	secs := s.Duration().Seconds()
	s.DurationS = secs
	s.Totals.finish(secs)
	for op, st := range s.Ops {
		st.finish(secs)
		s.Ops[op] = st
	}
	for name, q := range s.Questions {
		q.finish(secs)
		s.Questions[name] = q
	}
	for i := range s.Partitions {
		p := &s.Partitions[i]
		if p.Latency == nil {
			p.Latency = NewCompact(DefaultCompactBits)
		}
		if p.Status == nil {
			p.Status = map[string]int64{}
		}
		p.EntitiesPerSec = perSec(p.Entities, secs)
		p.OverTarget = s.overTarget(p, secs)
		h := p.Latency
		p.Quantiles = Percentiles{P50: usToMs(h.Quantile(0.5)), P90: usToMs(h.Quantile(0.9)), P99: usToMs(h.Quantile(0.99)),
			P999: usToMs(h.Quantile(0.999)), Max: usToMs(h.Max())}
	}
	SortPartitions(s.Partitions)
	for i := range s.Intervals {
		if iv := &s.Intervals[i]; iv.Latency != nil {
			iv.setQuantiles(iv.Latency)
		}
	}
}

// overTarget applies OverTarget to a partition: by its request units
// against PartitionUnits when it was charged and they are set, else by its
// entities against PartitionTarget.
func (s *Summary) overTarget(p *PartitionStats, secs float64) bool {
	if s.PartitionUnits > 0 && p.Charged > 0 {
		return OverTarget(p.Key, max(p.PeakUnits, UnitsPerSec(p.RequestUnits, secs)), p.ThrottledPeakUnits, s.PartitionUnits)
	}
	return OverTarget(p.Key, PeakRate(p.Peak, p.EntitiesPerSec), float64(p.ThrottledPeak), s.PartitionTarget)
}

// UnitsPerSec is ru request units over secs seconds as a rate (0 for no
// time).
func UnitsPerSec(ru, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return ru / secs
}

// PeakRate is a partition's peak entities/s: the most entities it served
// in a one-second interval, and never less than its average over the
// measured window (a window shorter than a second, or ending in a partial
// second denser than any whole one, has no whole second that busy).
func PeakRate(peak int64, perSec float64) float64 { return max(float64(peak), perSec) }

// AtTargetShare is the share of the partition target a partition must serve
// in a second in which it is throttled for that throttling to count as the
// partition's own limit (rather than, say, the account's or a move's).
const AtTargetShare = 0.95

// OverTarget is the one rule for a partition at or over its target: its
// peak second served more than the target, or it was throttled in a second
// in which it served at least AtTargetShare of the target. Requests
// spanning partitions (CrossPartition) are never over a partition's target.
// The report's over_target field and its HOT verdicts both follow it.
func OverTarget(key string, peak, throttledPeak, target float64) bool {
	if key == CrossPartition || !(target > 0) {
		return false
	}
	return peak > target || throttledPeak >= AtTargetShare*target
}

// SortPartitions orders partitions busiest first: by entities, then
// requests, then key.
func SortPartitions(ps []PartitionStats) {
	sort.Slice(ps, func(i, j int) bool {
		a, b := &ps[i], &ps[j]
		if a.Entities != b.Entities {
			return a.Entities > b.Entities
		}
		if a.Requests != b.Requests {
			return a.Requests > b.Requests
		}
		return a.Key < b.Key
	})
}
