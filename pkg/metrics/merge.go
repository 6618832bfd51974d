package metrics

import (
	"errors"
	"fmt"
	"time"
)

// ErrIncompatible is returned when two summaries cannot be merged.
var ErrIncompatible = errors.New("metrics: summaries cannot be merged")

// Merge adds o, the summary of another shard of the same run, to s. Shards
// should share their start (Options.Start): intervals and series are aligned
// by second index. The merged summary runs from the earlier start to the
// later end.
//
// What is exact: every counter and status map (they add); the per-operation
// and total HDR histograms and the partitions' and intervals' Compact
// histograms (they merge bucket for bucket, so every quantile is what one
// registry fed both streams would report); intervals (they add by second).
//
// Peaks: a partition present in one shard keeps its peak. A partition present
// in both is recomputed from its merged one-second series when both shards
// have one (1 s bins, and the partition among their Series, which
// SeriesPartitions < 0 guarantees for runs up to 4 minutes); otherwise its
// peak is the larger of the two, a lower bound (the true peak is at most
// their sum), and PeakExact is false. Each second's hottest partition is
// recomputed likewise when every partition has a one-second series in both
// shards, and is otherwise the hotter of the two shards' (a lower bound).
//
// Series keep the bin width of the coarser shard (doubled further if needed
// to stay within 240 bins); a partition keeps its series only when every
// shard that served entities for it has one.
func (s *Summary) Merge(o *Summary) error {
	if o == nil {
		return fmt.Errorf("%w: nil summary", ErrIncompatible)
	}
	if s.PartitionTarget != o.PartitionTarget {
		return fmt.Errorf("%w: partition targets %v and %v differ; merge shards of one run", ErrIncompatible,
			s.PartitionTarget, o.PartitionTarget)
	}
	if !validBinWidth(s.BinWidth) || !validBinWidth(o.BinWidth) {
		return fmt.Errorf("%w: series bin widths %v and %v; want a power of two seconds", ErrIncompatible, s.BinWidth, o.BinWidth)
	}
	a, b := newSeriesIndex(s), newSeriesIndex(o)
	mergeTimes(s, o)
	s.Totals.merge(&o.Totals)
	if s.Ops == nil {
		s.Ops = map[Op]Stats{}
	}
	for op, st := range o.Ops {
		cur := s.Ops[op]
		cur.merge(&st)
		s.Ops[op] = cur
	}
	s.Ignored += o.Ignored
	s.mergePartitions(o, a, b)
	s.mergeIntervals(o)
	s.mergeHottest(o, a, b)
	s.finish()
	s.mergeSeries(o, a, b)
	return nil
}

func validBinWidth(w time.Duration) bool {
	return w >= time.Second && w%time.Second == 0 && (w/time.Second)&(w/time.Second-1) == 0
}

func mergeTimes(s, o *Summary) {
	if o.Start.Before(s.Start) {
		s.Start = o.Start
	}
	if o.End.After(s.End) {
		s.End = o.End
	}
	s.SeriesLimit = mergeLimit(s.SeriesLimit, o.SeriesLimit)
}

// mergeLimit keeps the larger series limit (negative is unlimited).
func mergeLimit(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	return max(a, b)
}

// mergePartitions adds o's partitions to s's, recomputing peaks.
func (s *Summary) mergePartitions(o *Summary, a, b *seriesIndex) {
	at := make(map[string]int, len(s.Partitions))
	for i := range s.Partitions {
		at[s.Partitions[i].Key] = i
	}
	for k := range o.Partitions {
		q := &o.Partitions[k]
		i, ok := at[q.Key]
		if !ok {
			p := *q
			p.Status = make(map[string]int64, len(q.Status))
			addMap(p.Status, q.Status)
			if q.Latency != nil {
				p.Latency = q.Latency.Clone()
			}
			s.Partitions = append(s.Partitions, p)
			continue
		}
		p := &s.Partitions[i]
		peak, exact := mergedPeak(p, q, a, b)
		p.Ops += q.Ops
		p.Requests += q.Requests
		p.Entities += q.Entities
		p.Throttled += q.Throttled
		p.Errors += q.Errors
		p.Failed += q.Failed
		p.Retries += q.Retries
		p.Pages += q.Pages
		p.Peak, p.PeakExact = peak, exact
		if p.Status == nil {
			p.Status = map[string]int64{}
		}
		addMap(p.Status, q.Status)
		if p.Latency == nil {
			p.Latency = NewCompact(DefaultCompactBits)
		}
		p.Latency.Merge(q.Latency)
	}
}

// mergedPeak is the peak of a partition present in both shards.
func mergedPeak(p, q *PartitionStats, a, b *seriesIndex) (int64, bool) {
	switch {
	case q.Entities == 0:
		return p.Peak, p.PeakExact
	case p.Entities == 0:
		return q.Peak, q.PeakExact
	}
	sa, okA := a.perSecond(p.Key)
	sb, okB := b.perSecond(q.Key)
	if !okA || !okB {
		return max(p.Peak, q.Peak), false
	}
	var peak int64
	for i := range max(len(sa), len(sb)) {
		peak = max(peak, binAt(sa, i)+binAt(sb, i))
	}
	return peak, true
}

func binAt(xs []int64, i int) int64 {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

// mergeIntervals adds o's intervals to s's by second.
func (s *Summary) mergeIntervals(o *Summary) {
	for len(s.Intervals) < len(o.Intervals) {
		s.Intervals = append(s.Intervals, Interval{Second: len(s.Intervals)})
	}
	for i := range o.Intervals {
		p, q := &s.Intervals[i], &o.Intervals[i]
		exactHist := (p.Latency != nil || p.Ops == 0) && (q.Latency != nil || q.Ops == 0)
		p.Ops += q.Ops
		p.Requests += q.Requests
		p.Entities += q.Entities
		p.Throttled += q.Throttled
		p.Errors += q.Errors
		p.Failed += q.Failed
		p.Dropped += q.Dropped
		p.Retries += q.Retries
		p.Pages += q.Pages
		switch {
		case !exactHist: // a shard without its histogram: keep the larger quantiles
			p.P50, p.P90, p.P99, p.Max = max(p.P50, q.P50), max(p.P90, q.P90), max(p.P99, q.P99), max(p.Max, q.Max)
			p.Latency = nil
		case q.Latency == nil:
		case p.Latency == nil:
			p.Latency = q.Latency.Clone()
		default:
			p.Latency.Merge(q.Latency)
		}
	}
}
