package main

import (
	"context"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/report"
)

// compareFacts are what compare's decision knows of each scheme besides
// its run: its index tables, and, when the runs offered a rate (an open
// loop), what the judge finds at that rate (what keys and advise judge):
// the entities its batches ask, whether its PartitionKeys only grow or
// shrink under the writes, and its largest partition after a year of
// growth against advise's bound of rows per partition. A scheme the judge cannot judge, or a closed loop, gets no
// horizon figure, and the decision then reads no growth bound.
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
	rate := peakOf(reps[0].Run)
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
		f.Horizon, f.LargestPartition, f.LargestPartitionRows, f.MaxPartitionRows = "a year", p.LargestPartition, p.LargestPartitionRows, bound
		f.BatchSize = p.BatchSize
		if p.Monotonic && p.WriteEntitiesPerSec > 0 { // advise never recommends it for a load that writes
			f.Monotonic = p.MonotonicOrder
		}
		facts[sc.Name] = f
	}
	return facts
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
