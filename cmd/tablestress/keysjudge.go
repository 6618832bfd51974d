package main

import (
	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// keysAnalysis is what keys shows of one scheme: the simulation's
// measurements, and the judge's figures and findings on the seeded table
// and at the horizon (none for a closed loop).
type keysAnalysis struct {
	*plan.Analysis
	// BusiestPartition, BusiestEntitiesPerSec and OverTarget are the
	// judge's at the horizon (what advise judges), the same figures as
	// Judged's; OverTarget is its finding of the busiest partition.
	BusiestPartition      string            `json:"busiest_partition"`
	BusiestEntitiesPerSec float64           `json:"busiest_entities_per_sec"`
	OverTarget            bool              `json:"over_target"`
	Judged                *judge.Prediction `json:"judged"`
	// Findings are the judge's findings over their limits: at the horizon,
	// then those of the seeded table that the horizon does not share;
	// Verdicts say them in the judge's words.
	Findings []judge.Finding `json:"findings"`
	Verdicts []string        `json:"verdicts"`
	target   float64
}

// keysLimits are what keys holds a scheme to: each target whole (no
// headroom), the refusals advise's proof allows, no bound on a question
// or a partition's rows.
var keysLimits = judge.Limits{Headroom: 1, MaxThrottled: advise.MaxThrottled}

// judged takes the judge's figures of the busiest partition and its
// findings over their limits.
func (ka *keysAnalysis) judged(in *judge.Input) {
	p := ka.Judged
	ka.target = in.Target()
	ka.BusiestPartition, ka.BusiestEntitiesPerSec = p.BusiestPartition, p.BusiestEntitiesPerSec
	over := map[judge.Kind]bool{}
	for _, f := range judge.Problems(in.Findings(p, keysLimits)) {
		over[f.Kind] = true
		ka.Findings = append(ka.Findings, f)
	}
	ka.OverTarget = over[judge.HotPartition] || over[judge.HotLogical]
	if p.Seeded != nil {
		for _, f := range judge.Problems(in.FindingsAt(p, p.Seeded, keysLimits)) {
			if f.Sized() && !over[f.Kind] {
				ka.Findings = append(ka.Findings, f)
			}
		}
	}
	ka.Verdicts = []string{}
	for _, f := range ka.Findings {
		ka.Verdicts = append(ka.Verdicts, in.Words(f))
	}
}

// judgeOptions are what keys judges at: the rate, --horizon and
// --retention, under the scenario's model (Azure's when it names none or
// turns it off).
func (kf *keysFlags) judgeOptions(s *scenario.Scenario, rate float64) (judge.Options, error) {
	o := judge.Options{Rate: rate, Horizon: judge.DefaultHorizon, Model: model.Default()}
	var err error
	if o.Horizon, err = parseHorizon(kf.horizon); err != nil {
		return o, usageError("--horizon: %v", err)
	}
	if kf.retention != "" {
		if o.Retention, err = parseHorizon(kf.retention); err != nil {
			return o, usageError("--retention: %v", err)
		}
	}
	if s.Embedded.Model != "" {
		if m, err := model.Parse(s.Embedded.Model); err == nil && m.Enabled {
			o.Model = m
		}
	}
	return o, nil
}
