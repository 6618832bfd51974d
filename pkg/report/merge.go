package report

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// ErrMerge is returned when reports cannot be merged.
var ErrMerge = errors.New("report: cannot merge")

// Shard is one report to merge and where it came from (a file name, for
// errors).
type Shard struct {
	Name   string
	Report *Report
}

// Merge combines the reports of the shards of one run (tablestress run
// --shard I/N) into the report of the whole run. It refuses what is not the
// shards of one run: a report that is not a shard, shards of different
// runs (another scenario file, scheme, table, target, shard count, run
// settings, run id, or measured windows that do not overlap), and the same
// shard twice. An incomplete set of shards is refused unless partial, and
// the merged report then lists the missing shards.
//
// It is exact where the reports carry what is needed: counters and status
// counts add, latency percentiles come from the merged HDR histograms of
// every operation and of the totals, a partition served by one shard (every
// partition but "*": shards split the partitions) keeps its figures, and a
// partition reported by several has its counters added and its
// percentiles from the merged partition histograms; its peak is then the
// largest shard peak, a lower bound of the true one. Per-second intervals
// add; their percentiles are the shards' worst.
func Merge(shards []Shard, partial bool) (*Report, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("%w: no report", ErrMerge)
	}
	n, err := checkShards(shards)
	if err != nil {
		return nil, err
	}
	reps := make([]*Report, len(shards))
	have := map[int]bool{}
	for k, sh := range shards {
		reps[k] = sh.Report
		i, _, _ := ParseShard(sh.Report.Run.Shard)
		have[i] = true
	}
	var missing []string
	for i := 0; i < n; i++ {
		if !have[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 && !partial {
		return nil, fmt.Errorf("%w: %d of %d shards given; missing %s (merge a partial set with --partial)",
			ErrMerge, len(shards), n, strings.Join(missing, ", "))
	}
	first := reps[0]
	m := &Report{Schema: SchemaReport, Scenario: first.Scenario, Scheme: first.Scheme, Target: first.Target, Model: first.Model, Table: first.Table,
		StartedAt: first.StartedAt, Run: first.Run, ScenarioSource: first.ScenarioSource,
		Operations: map[string]Stats{}, Histograms: map[string]string{}, Thresholds: []Threshold{},
		MergedShards: len(shards), MissingShards: missing}
	m.Run.Shard, m.Run.Rate, m.Run.Workers, m.Run.MaxOps, m.Run.WarmupRate = "", 0, 0, 0, 0
	m.Run.Stages = append([]Stage(nil), first.Run.Stages...)
	for k := range m.Run.Stages {
		m.Run.Stages[k].Rate = 0
	}
	for _, r := range reps {
		if r.StartedAt.Before(m.StartedAt) {
			m.StartedAt = r.StartedAt
		}
		m.DurationS = max(m.DurationS, r.DurationS)
		m.Run.Rate += r.Run.Rate
		m.Run.WarmupRate += r.Run.WarmupRate
		for k := range m.Run.Stages {
			m.Run.Stages[k].Rate += r.Run.Stages[k].Rate
		}
		m.Run.Workers += r.Run.Workers
		m.Run.MaxOps += r.Run.MaxOps
		m.Seed.Entities += r.Seed.Entities
		if r.Seed.Reused { // each shard counted the one table they share
			m.Seed.Reused, m.Seed.Rows = true, max(m.Seed.Rows, r.Seed.Rows)
		} else {
			m.Seed.Rows += r.Seed.Rows
		}
		m.Seed.Partitions += r.Seed.Partitions
		m.Seed.Throttled += r.Seed.Throttled
		for k, v := range r.Seed.Status {
			if m.Seed.Status == nil {
				m.Seed.Status = map[string]int64{}
			}
			m.Seed.Status[k] += v
		}
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
	if err := m.mergeQuestions(reps, secs); err != nil {
		return nil, err
	}
	if m.Partitions, err = mergePartitions(reps, secs); err != nil {
		return nil, err
	}
	m.Intervals = mergeIntervals(reps)
	m.Heatmap = mergeHeatmaps(reps)
	exprs := make([]string, len(first.Thresholds))
	for i, t := range first.Thresholds {
		exprs[i] = t.Expr
	}
	if _, err := m.EvaluateThresholds(exprs); err != nil {
		return nil, err
	}
	return m, nil
}

// checkShards checks that the reports are distinct shards of one run and
// returns their shard count.
func checkShards(shards []Shard) (int, error) {
	first := shards[0]
	seen := map[int]string{}
	n := 0
	for _, sh := range shards {
		r := sh.Report
		if r == nil {
			return 0, fmt.Errorf("%w: %s holds no report", ErrMerge, sh.Name)
		}
		if r.Run.Shard == "" {
			return 0, fmt.Errorf("%w: %s is not a shard (it was run without --shard); merge takes the reports of the shards of one run", ErrMerge, sh.Name)
		}
		i, count, err := ParseShard(r.Run.Shard)
		if err != nil {
			return 0, fmt.Errorf("%w: %s: shard %v", ErrMerge, sh.Name, err)
		}
		if n == 0 {
			n = count
		}
		if count != n {
			return 0, fmt.Errorf("%w: %s is shard %s but %s is shard %s: not the same number of shards", ErrMerge, sh.Name, r.Run.Shard, first.Name, first.Report.Run.Shard)
		}
		if other, dup := seen[i]; dup {
			return 0, fmt.Errorf("%w: %s and %s are both shard %s", ErrMerge, other, sh.Name, r.Run.Shard)
		}
		seen[i] = sh.Name
		if why := sameRun(first.Report, r); why != "" {
			return 0, fmt.Errorf("%w: %s and %s are not shards of one run: %s", ErrMerge, first.Name, sh.Name, why)
		}
	}
	for _, a := range shards {
		for _, b := range shards {
			if !overlap(a.Report, b.Report) {
				return 0, fmt.Errorf("%w: %s and %s are not shards of one run: they measured %s and %s, which do not overlap",
					ErrMerge, a.Name, b.Name, window(a.Report), window(b.Report))
			}
		}
	}
	return n, nil
}

// sameRun says how two shards' reports differ in what the shards of one run
// share, or "" when they do not.
func sameRun(a, b *Report) string {
	switch {
	case a.Scenario != b.Scenario:
		return fmt.Sprintf("scenario %q and %q", a.Scenario, b.Scenario)
	case a.Scheme != b.Scheme:
		return fmt.Sprintf("scheme %q and %q", a.Scheme, b.Scheme)
	case a.Table != b.Table:
		return fmt.Sprintf("table %q and %q", a.Table, b.Table)
	case a.Target != b.Target:
		return fmt.Sprintf("target %s %s and %s %s", a.Target.Kind, a.Target.Endpoint, b.Target.Kind, b.Target.Endpoint)
	case a.Run.ID != b.Run.ID:
		return fmt.Sprintf("run id %q and %q", a.Run.ID, b.Run.ID)
	case a.Run.ScenarioSHA256 != b.Run.ScenarioSHA256 || a.ScenarioSource != b.ScenarioSource:
		return "the scenario files differ"
	}
	ra, rb := a.Run, b.Run
	ra.Shard, rb.Shard = "", ""
	if !reflect.DeepEqual(ra, rb) {
		return fmt.Sprintf("run settings differ (%s versus %s)", runLine(a.Run), runLine(b.Run))
	}
	return ""
}

// runLine is a short description of run settings, for errors.
func runLine(r RunInfo) string {
	return fmt.Sprintf("%s loop, %d workers, rate %g, %d stages, warm-up %gs, seed %d, retry %s", r.Mode, r.Workers, r.Rate, len(r.Stages), r.WarmupS, r.Seed, r.Retry)
}

// overlap reports whether two reports' measured windows overlap (a report
// that measured nothing overlaps everything).
func overlap(a, b *Report) bool {
	if a.StartedAt.IsZero() || b.StartedAt.IsZero() {
		return true
	}
	aEnd := a.StartedAt.Add(time.Duration(a.DurationS * float64(time.Second)))
	bEnd := b.StartedAt.Add(time.Duration(b.DurationS * float64(time.Second)))
	return !a.StartedAt.After(bEnd) && !b.StartedAt.After(aEnd)
}

func window(r *Report) string {
	end := r.StartedAt.Add(time.Duration(r.DurationS * float64(time.Second)))
	return r.StartedAt.UTC().Format(time.RFC3339) + " to " + end.UTC().Format("15:04:05")
}

// ParseShard reads "I/N" with 0 <= I < N.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%q: write it as I/N with 0 <= I < N, like 0/3", s)
	}
	return i, n, nil
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
	out.OpsPerSec, out.EntitiesPerSec = perSec(out.Ops, secs), perSec(out.Entities, secs)
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
				q.Counts.Add(p.Counts)
				q.PeakEntitiesPerSec = max(q.PeakEntitiesPerSec, p.PeakEntitiesPerSec)
				q.ThrottledPeakEntitiesPerSec = max(q.ThrottledPeakEntitiesPerSec, p.ThrottledPeakEntitiesPerSec)
				q.mergeUnits(p)
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
		if p.Charged > 0 {
			p.RequestUnitsPerSec = unitsRate(p.Counts, secs)
		}
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
