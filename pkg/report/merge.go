package report

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// ErrMerge is returned when reports cannot be merged.
var ErrMerge = errors.New("report: cannot merge")

// Merge combines the reports of the shards of one run (tablestress run
// --shard i/N) into the report of the whole run. It is exact where the
// reports carry what is needed: counters and status counts add, latency
// percentiles come from the merged HDR histograms of every operation and of
// the totals, a partition served by one shard keeps its figures, a
// partition reported by several has its counters added and its percentiles
// from the merged partition histograms; its peak is then the largest shard
// peak, a lower bound of the true one. Per-second intervals add; their
// percentiles are the shards' worst.
func Merge(reps []*Report) (*Report, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("%w: no report", ErrMerge)
	}
	first := reps[0]
	for _, r := range reps[1:] {
		if r.Scenario != first.Scenario || r.Scheme != first.Scheme || r.Run.Seed != first.Run.Seed {
			return nil, fmt.Errorf("%w: %s/%s seed %d and %s/%s seed %d are not shards of one run",
				ErrMerge, first.Scenario, first.Scheme, first.Run.Seed, r.Scenario, r.Scheme, r.Run.Seed)
		}
	}
	m := &Report{Schema: SchemaReport, Scenario: first.Scenario, Scheme: first.Scheme, Target: first.Target, Table: first.Table,
		StartedAt: first.StartedAt, Run: first.Run, ScenarioSource: first.ScenarioSource,
		Operations: map[string]Stats{}, Histograms: map[string]string{}, Thresholds: []Threshold{}}
	m.Run.Shard, m.Run.Rate, m.Run.Workers = "", 0, 0
	for _, r := range reps {
		if r.StartedAt.Before(m.StartedAt) {
			m.StartedAt = r.StartedAt
		}
		m.DurationS = max(m.DurationS, r.DurationS)
		m.Run.Rate += r.Run.Rate
		m.Run.Workers += r.Run.Workers
		m.Seed.Entities += r.Seed.Entities
		m.Seed.Rows += r.Seed.Rows
		m.Seed.Partitions += r.Seed.Partitions
		m.Seed.Throttled += r.Seed.Throttled
		m.Seed.DurationS = max(m.Seed.DurationS, r.Seed.DurationS)
		m.Interrupted = m.Interrupted || r.Interrupted
		if r.Failure != "" {
			m.Failure = strings.TrimPrefix(m.Failure+"; "+r.Failure, "; ")
		}
		if r.Aborted != "" && m.Aborted == "" {
			m.Aborted = r.Aborted
		}
		m.Outages = append(m.Outages, r.Outages...)
	}
	secs := m.DurationS
	var err error
	if m.Totals, m.Histograms["total"], err = mergeStats(reps, "", secs); err != nil {
		return nil, err
	}
	ops := map[string]bool{}
	for _, r := range reps {
		for op := range r.Operations {
			ops[op] = true
		}
	}
	for op := range ops {
		if m.Operations[op], m.Histograms[op], err = mergeStats(reps, op, secs); err != nil {
			return nil, err
		}
	}
	if m.Partitions, err = mergePartitions(reps, secs); err != nil {
		return nil, err
	}
	m.Intervals = mergeIntervals(reps)
	m.Heatmap = mergeHeatmaps(reps)
	for _, t := range first.Thresholds {
		m.Thresholds = append(m.Thresholds, Threshold{Expr: t.Expr})
	}
	exprs := make([]string, len(m.Thresholds))
	for i, t := range m.Thresholds {
		exprs[i] = t.Expr
	}
	if _, err := m.EvaluateThresholds(exprs); err != nil {
		return nil, err
	}
	return m, nil
}

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
		out.Ops += s.Ops
		out.Requests += s.Requests
		out.Entities += s.Entities
		out.Throttled += s.Throttled
		out.Errors += s.Errors
		out.Failed += s.Failed
		out.Dropped += s.Dropped
		out.Retries += s.Retries
		out.Pages += s.Pages
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
	out.OpsPerSec, out.EntitiesPerSec = perSec(out.Ops, secs), perSec(out.Entities, secs)
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

// mergePartitions unions the partitions of every report.
func mergePartitions(reps []*Report, secs float64) ([]Partition, error) {
	byKey := map[string]*Partition{}
	hists := map[string]*metrics.Compact{}
	count := map[string]int{}
	for _, r := range reps {
		for _, p := range r.Partitions {
			count[p.PartitionKey]++
			q := byKey[p.PartitionKey]
			if q == nil {
				cp := p
				cp.Status = map[string]int64{}
				for k, n := range p.Status {
					cp.Status[k] = n
				}
				byKey[p.PartitionKey] = &cp
			} else {
				q.Ops += p.Ops
				q.Requests += p.Requests
				q.Entities += p.Entities
				q.Throttled += p.Throttled
				q.Errors += p.Errors
				q.PeakEntitiesPerSec = max(q.PeakEntitiesPerSec, p.PeakEntitiesPerSec)
				q.OverTarget = q.OverTarget || p.OverTarget
				for k, n := range p.Status {
					q.Status[k] += n
				}
			}
			if p.Hist != "" {
				h, err := metrics.DecodeCompact(p.Hist)
				if err != nil {
					return nil, fmt.Errorf("%w: partition %q histogram: %v", ErrMerge, p.PartitionKey, err)
				}
				if hists[p.PartitionKey] == nil {
					hists[p.PartitionKey] = h
				} else {
					hists[p.PartitionKey].Merge(h)
				}
			}
		}
	}
	out := make([]Partition, 0, len(byKey))
	for k, p := range byKey {
		p.EntitiesPerSec = perSec(p.Entities, secs)
		if count[k] > 1 {
			if h := hists[k]; h != nil {
				p.Latency = Latency{P50: usMs(h.Quantile(0.5)), P90: usMs(h.Quantile(0.9)), P99: usMs(h.Quantile(0.99)),
					P999: usMs(h.Quantile(0.999)), Max: usMs(h.Max())}
				p.Hist = h.Encode()
			}
		}
		out = append(out, *p)
	}
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
	return out, nil
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
			o.Ops += iv.Ops
			o.Requests += iv.Requests
			o.Entities += iv.Entities
			o.Throttled += iv.Throttled
			o.Errors += iv.Errors
			o.Dropped += iv.Dropped
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
