package main

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// keysAnalysis is what keys shows of one scheme: the simulation's
// analysis, and the judge's figures on the seeded table and at the
// horizon (nil for a closed loop).
type keysAnalysis struct {
	*plan.Analysis
	// BusiestPartition, BusiestEntitiesPerSec and OverTarget are the
	// judge's at the horizon (what advise judges), the same figures as
	// Judged's.
	BusiestPartition      string            `json:"busiest_partition"`
	BusiestEntitiesPerSec float64           `json:"busiest_entities_per_sec"`
	OverTarget            bool              `json:"over_target"`
	Judged                *judge.Prediction `json:"judged"`
	target                float64
}

// judged fills the busiest partition's figures from the judge, and its
// verdicts: a partition over the target, on the seeded table or at the
// horizon.
func (ka *keysAnalysis) judged(in *judge.Input) {
	p := ka.Judged
	ka.target = in.Target()
	ka.BusiestPartition, ka.BusiestEntitiesPerSec = p.BusiestPartition, p.BusiestEntitiesPerSec
	ka.OverTarget = p.BusiestEntitiesPerSec > ka.target
	var v []string
	if ka.OverTarget {
		v = append(v, fmt.Sprintf("hot partition: %q would take %s entities/s at %s ops/s at the horizon, over the %s/s partition target",
			p.BusiestPartition, textfit.Rate(p.BusiestEntitiesPerSec), textfit.Rate(in.Peak), textfit.Rate(ka.target)))
	} else if s := p.Seeded; s != nil && s.BusiestEntitiesPerSec > ka.target {
		v = append(v, fmt.Sprintf("hot partition on the seeded table: %q would take %s entities/s at %s ops/s, over the %s/s partition target",
			s.BusiestPartition, textfit.Rate(s.BusiestEntitiesPerSec), textfit.Rate(in.Peak), textfit.Rate(ka.target)))
	}
	for _, sv := range ka.Verdicts {
		seededOnly := strings.HasPrefix(sv, "one partition per entity") || strings.HasPrefix(sv, "most partitions hold one entity")
		if seededOnly && p.RowsAfterHorizon > 2*float64(ka.Population.Max) {
			// The seeded table's verdict; its partitions grow.
			sv = fmt.Sprintf("about one partition per entity on the seeded table (%s rows in %s partitions); at the horizon the largest holds %s rows",
				textfit.Int(ka.Population.Entities), textfit.Int(int64(ka.Population.Partitions)), textfit.Rate(p.RowsAfterHorizon))
		}
		v = append(v, sv)
	}
	ka.Verdicts = v
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
