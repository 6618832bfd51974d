package main

import (
	"context"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/report"
)

// compareFacts are what compare's decision knows of each scheme besides
// its run: its index tables, and what the judge finds in its keys at the
// runs' rate (what keys and advise judge): its keyFindings, and, when the
// runs offered a rate (an open loop), its largest partition after a year
// of growth against advise's bound of rows per partition. A closed loop is
// judged at the rate its first run measured, for its keys only (no
// horizon figure: the rate was the target's, not the application's). A
// scheme the judge cannot judge gets no findings, and the decision then
// reads no growth bound.
func compareFacts(ctx context.Context, e *env, path string, reps []*report.Report) map[string]report.SchemeFacts {
	s, _, err := loadScenario(e, path)
	if err != nil || len(reps) == 0 {
		return nil
	}
	_, schemes, err := s.Compile()
	if err != nil {
		return nil
	}
	facts := map[string]report.SchemeFacts{}
	for _, sc := range schemes {
		facts[sc.Name] = report.SchemeFacts{Indexes: len(sc.Indexes)}
	}
	rate, open := peakOf(reps[0].Run), true
	if rate <= 0 {
		rate, open = measuredRate(reps[0]), false
	}
	if rate <= 0 {
		return facts
	}
	opts, err := (&keysFlags{horizon: "1y"}).judgeOptions(s, rate)
	if err != nil {
		return facts
	}
	in, err := judge.Prepare(s, opts)
	if err != nil {
		return facts
	}
	bound := float64(advise.Defaults().MaxPartitionRows)
	for _, sc := range schemes {
		p, err := in.Judge(ctx, sc)
		if err != nil {
			continue
		}
		f := facts[sc.Name]
		f.Findings = keyFindings(in, p)
		if open {
			f.Horizon, f.LargestPartition, f.LargestPartitionRows, f.MaxPartitionRows = "a year", p.LargestPartition, p.LargestPartitionRows, bound
		}
		facts[sc.Name] = f
	}
	return facts
}

// keyFindings are the judge's findings over their limits that a run does
// not show as a failure: an entity group transaction's fill (a run's
// transactions succeed however few entities they hold) and PartitionKeys
// that only grow or shrink under writes (a run too short or too light
// shows no throttling on the end range). The load's findings (hot
// partitions, the account) the decision reads from the runs themselves.
func keyFindings(in *judge.Input, p *judge.Prediction) []report.KeyFinding {
	var out []report.KeyFinding
	for _, f := range judge.Problems(in.Findings(p, judge.Limits{Headroom: 1})) {
		if f.Kind == judge.BatchFill || f.Kind == judge.Monotonic {
			out = append(out, report.KeyFinding{Kind: f.Kind.String(), Words: in.Words(f), Ratio: f.Ratio()})
		}
	}
	return out
}

// measuredRate is the operations a second a run measured (those it
// completed, failed or not), 0 when it measured none.
func measuredRate(r *report.Report) float64 {
	if r.DurationS <= 0 {
		return 0
	}
	return float64(r.Totals.Ops) / r.DurationS
}

// peakOf is the highest rate an open-loop run offered (its rate, or its
// stages' highest); 0 for a closed loop.
func peakOf(r report.RunInfo) float64 {
	if r.Mode != "open" {
		return 0
	}
	peak := r.Rate
	for _, st := range r.Stages {
		peak = max(peak, st.Rate)
	}
	return peak
}
