package report

import (
	"errors"
	"fmt"
	"strings"
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
	for k, sh := range shards {
		reps[k] = sh.Report
	}
	missing := missingShards(reps, n)
	if len(missing) > 0 && !partial {
		return nil, fmt.Errorf("%w: %d of %d shards given; missing %s (merge a partial set with --partial)",
			ErrMerge, len(shards), n, strings.Join(missing, ", "))
	}
	m := mergedHeader(reps[0], len(shards), missing)
	for _, r := range reps {
		m.addRun(r)
		m.addSeed(r.Seed)
	}
	if err := m.mergeFigures(reps); err != nil {
		return nil, err
	}
	if _, err := m.EvaluateThresholds(thresholdExprs(reps[0])); err != nil {
		return nil, err
	}
	return m, nil
}

// missingShards names ("I/N") the shards of n that no report is, in order.
// The reports' shards are known to parse (checkShards).
func missingShards(reps []*Report, n int) []string {
	have := map[int]bool{}
	for _, r := range reps {
		i, _, _ := ParseShard(r.Run.Shard)
		have[i] = true
	}
	var missing []string
	for i := 0; i < n; i++ {
		if !have[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	return missing
}

// mergedHeader is the merged report before any shard is added: first's
// identity (scenario, scheme, target, table, run settings) with the summed
// run settings (rate, warm-up rate, stage rates, workers, operation cap)
// zeroed and its stages copied, so adding never writes into a shard.
func mergedHeader(first *Report, shards int, missing []string) *Report {
	m := &Report{Schema: SchemaReport, Scenario: first.Scenario, Scheme: first.Scheme, Target: first.Target, Model: first.Model, Table: first.Table,
		StartedAt: first.StartedAt, Run: first.Run, ScenarioSource: first.ScenarioSource,
		Operations: map[string]Stats{}, Histograms: map[string]string{}, Thresholds: []Threshold{},
		MergedShards: shards, MissingShards: missing}
	m.Run.Shard, m.Run.Rate, m.Run.Workers, m.Run.MaxOps, m.Run.WarmupRate = "", 0, 0, 0, 0
	m.Run.Stages = append([]Stage(nil), first.Run.Stages...)
	for k := range m.Run.Stages {
		m.Run.Stages[k].Rate = 0
	}
	return m
}

// addRun adds one shard's run: the earliest start and the longest duration
// win, the planned rates, workers and operation caps add (the shards split
// the load), failures are joined with "; ", the first abort is kept and
// outages are appended. The shards' stage lists are the same (sameRun).
func (m *Report) addRun(r *Report) {
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
	m.Interrupted = m.Interrupted || r.Interrupted
	if r.Failure != "" {
		m.Failure = strings.TrimPrefix(m.Failure+"; "+r.Failure, "; ")
	}
	if r.Aborted != "" && m.Aborted == "" {
		m.Aborted = r.Aborted
	}
	m.Outages = append(m.Outages, r.Outages...)
}

// addSeed adds one shard's seed phase: counts add, but a reused table
// (--skip-seed) is one table every shard counted, so its rows are the
// largest count; the phase lasted as long as the slowest shard's.
func (m *Report) addSeed(s SeedInfo) {
	m.Seed.Entities += s.Entities
	if s.Reused {
		m.Seed.Reused, m.Seed.Rows = true, max(m.Seed.Rows, s.Rows)
	} else {
		m.Seed.Rows += s.Rows
	}
	m.Seed.Partitions += s.Partitions
	m.Seed.Throttled += s.Throttled
	for k, v := range s.Status {
		if m.Seed.Status == nil {
			m.Seed.Status = map[string]int64{}
		}
		m.Seed.Status[k] += v
	}
	m.Seed.DurationS = max(m.Seed.DurationS, s.DurationS)
}

// mergeFigures merges the measured figures over m's merged duration: the
// totals and every operation any shard ran (from their histograms), the
// questions, partitions, intervals and heatmap.
func (m *Report) mergeFigures(reps []*Report) error {
	secs := m.DurationS
	var err error
	if m.Totals, m.Histograms["total"], err = mergeStats(reps, "", secs); err != nil {
		return err
	}
	ops := map[string]bool{}
	for _, r := range reps {
		for op := range r.Operations {
			ops[op] = true
		}
	}
	for op := range ops {
		if m.Operations[op], m.Histograms[op], err = mergeStats(reps, op, secs); err != nil {
			return err
		}
	}
	if err := m.mergeQuestions(reps, secs); err != nil {
		return err
	}
	m.OtherPartitions = mergeOthers(reps, secs)
	if m.Partitions, err = mergePartitions(reps, secs); err != nil {
		return err
	}
	m.Intervals = mergeIntervals(reps)
	m.Heatmap = mergeHeatmaps(reps)
	return nil
}

// thresholdExprs are the expressions of r's thresholds, in order: a merged
// report is judged by the thresholds its shards were.
func thresholdExprs(r *Report) []string {
	exprs := make([]string, len(r.Thresholds))
	for i, t := range r.Thresholds {
		exprs[i] = t.Expr
	}
	return exprs
}
