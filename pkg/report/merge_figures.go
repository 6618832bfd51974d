package report

import (
	"fmt"
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// mergeStats adds the totals (op "") or one operation of every report,
// with latency from the merged histograms.
func mergeStats(reps []*Report, op string, secs float64) (Stats, string, error) {
	var out Stats
	out.Status = map[string]int64{}
	var hist *hdrhistogram.Histogram
	key := op
	if key == "" {
		key = "total"
	}
	for _, r := range reps {
		s := r.Totals
		if op != "" {
			var ok bool
			if s, ok = r.Operations[op]; !ok {
				continue
			}
		}
		out.Counts.Add(s.Counts)
		for k, n := range s.Status {
			out.Status[k] += n
		}
		enc, ok := r.Histograms[key]
		if !ok {
			if s.Ops > 0 {
				return Stats{}, "", fmt.Errorf("%w: a report has no latency histogram for %s (it was not written by tablestress run)", ErrMerge, key)
			}
			continue
		}
		h, err := hdrhistogram.Decode([]byte(enc))
		if err != nil {
			return Stats{}, "", fmt.Errorf("%w: histogram of %s: %v", ErrMerge, key, err)
		}
		if hist == nil {
			hist = h
		} else {
			hist.Merge(h)
		}
	}
	out.setRates(secs)
	out.RequestUnitsPerSec = unitsRate(out.Counts, secs)
	enc := ""
	if hist != nil {
		ms := metrics.Stats{Latency: hist}
		out.Latency = Latency{P50: ms.LatencyMs(50), P90: ms.LatencyMs(90), P99: ms.LatencyMs(99), P999: ms.LatencyMs(99.9), Max: ms.LatencyMs(100)}
		b, err := hist.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			return Stats{}, "", err
		}
		enc = string(b)
	}
	return out, enc, nil
}

// mergePartitions unions the partitions of every report, busiest first
// (entities, then requests, then key).
func mergePartitions(reps []*Report, secs float64) ([]Partition, error) {
	pm := partitionMerge{byKey: map[string]*Partition{}, hists: map[string]*metrics.Compact{}, count: map[string]int{}}
	for _, r := range reps {
		for _, p := range r.Partitions {
			if err := pm.add(p); err != nil {
				return nil, err
			}
		}
	}
	out := pm.partitions(secs)
	sortPartitions(out)
	return out, nil
}

// mergeOthers adds up the partitions the shards' summarised reports left
// out of their lists (nil when none did). A partition one shard lists and
// another sums stays in both: its figures add up all the same.
func mergeOthers(reps []*Report, secs float64) *OtherPartitions {
	var out *OtherPartitions
	for _, r := range reps {
		if r.OtherPartitions == nil {
			continue
		}
		if out == nil {
			out = &OtherPartitions{}
		}
		out.merge(r.OtherPartitions)
	}
	if out != nil {
		out.EntitiesPerSec = perSec(out.Entities, secs)
	}
	return out
}

// partitionMerge gathers the partitions of several shards by key: the
// merged figures, the merged latency histograms and how many shards
// reported each.
type partitionMerge struct {
	byKey map[string]*Partition
	hists map[string]*metrics.Compact
	count map[string]int
}

// add adds one shard's partition: the first copy is kept (with a status
// map of its own), later ones add their counters, request units and
// status counts, keep the larger peaks and any over-target flag; its
// latency histogram, if any, is merged.
func (pm *partitionMerge) add(p Partition) error {
	pm.count[p.PartitionKey]++
	if q := pm.byKey[p.PartitionKey]; q == nil {
		cp := p
		cp.Status = map[string]int64{}
		for k, n := range p.Status {
			cp.Status[k] = n
		}
		pm.byKey[p.PartitionKey] = &cp
	} else {
		q.Counts.Add(p.Counts)
		q.PeakEntitiesPerSec = max(q.PeakEntitiesPerSec, p.PeakEntitiesPerSec)
		q.ThrottledPeakEntitiesPerSec = max(q.ThrottledPeakEntitiesPerSec, p.ThrottledPeakEntitiesPerSec)
		q.mergeUnits(p)
		q.OverTarget = q.OverTarget || p.OverTarget
		for k, n := range p.Status {
			q.Status[k] += n
		}
	}
	if p.Hist == "" {
		return nil
	}
	h, err := metrics.DecodeCompact(p.Hist)
	if err != nil {
		return fmt.Errorf("%w: partition %q histogram: %v", ErrMerge, p.PartitionKey, err)
	}
	if pm.hists[p.PartitionKey] == nil {
		pm.hists[p.PartitionKey] = h
	} else {
		pm.hists[p.PartitionKey].Merge(h)
	}
	return nil
}

// partitions are the merged partitions, unsorted, with rates over secs; a
// partition several shards reported takes its percentiles from the merged
// histogram, one reported once keeps its own.
func (pm *partitionMerge) partitions(secs float64) []Partition {
	out := make([]Partition, 0, len(pm.byKey))
	for k, p := range pm.byKey {
		p.EntitiesPerSec = perSec(p.Entities, secs)
		if p.Charged > 0 {
			p.RequestUnitsPerSec = unitsRate(p.Counts, secs)
		}
		if pm.count[k] > 1 {
			if h := pm.hists[k]; h != nil {
				p.Latency = Latency{P50: usMs(h.Quantile(0.5)), P90: usMs(h.Quantile(0.9)), P99: usMs(h.Quantile(0.99)),
					P999: usMs(h.Quantile(0.999)), Max: usMs(h.Max())}
				p.Hist = h.Encode()
			}
		}
		out = append(out, *p)
	}
	return out
}

// sortPartitions orders partitions busiest first: by entities, then
// requests, descending, then by key.
func sortPartitions(out []Partition) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Entities != b.Entities {
			return a.Entities > b.Entities
		}
		if a.Requests != b.Requests {
			return a.Requests > b.Requests
		}
		return a.PartitionKey < b.PartitionKey
	})
}

// mergeIntervals adds the shards' seconds.
func mergeIntervals(reps []*Report) []Interval {
	var out []Interval
	for _, r := range reps {
		for _, iv := range r.Intervals {
			for len(out) <= iv.Second {
				out = append(out, Interval{Second: len(out)})
			}
			o := &out[iv.Second]
			o.Counts.Add(iv.Counts)
			o.P50, o.P90, o.P99, o.Max = max(o.P50, iv.P50), max(o.P90, iv.P90), max(o.P99, iv.P99), max(o.Max, iv.Max)
			if iv.HottestEntities > o.HottestEntities {
				o.Hottest, o.HottestEntities = iv.Hottest, iv.HottestEntities
			}
		}
	}
	return out
}

// mergeHeatmaps adds the shards' partition series (same bin width only).
func mergeHeatmaps(reps []*Report) *Heatmap {
	var out *Heatmap
	index := map[string]int{}
	for _, r := range reps {
		h := r.Heatmap
		if h == nil {
			continue
		}
		if out == nil {
			out = &Heatmap{BinSeconds: h.BinSeconds}
		}
		if h.BinSeconds != out.BinSeconds {
			continue
		}
		for i, p := range h.Partitions {
			k, ok := index[p]
			if !ok {
				k = len(out.Partitions)
				index[p] = k
				out.Partitions = append(out.Partitions, p)
				out.Entities = append(out.Entities, nil)
			}
			for b, n := range h.Entities[i] {
				for len(out.Entities[k]) <= b {
					out.Entities[k] = append(out.Entities[k], 0)
				}
				out.Entities[k][b] += n
			}
		}
	}
	return out
}
