package advise

import (
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// ProofScenarioValue is the scenario the proof runs, as a value to compile
// with plan.Build and run (pkg/session): the run ProofScenario writes as a
// file (TestProofValueIsTheProofFile holds them equal), derived from the
// advised scenario a.Input.Scenario (scenario.Derive) without writing or
// reading YAML. The scenario a came from is not modified.
func ProofScenarioValue(a *Advice, p *Proof) (*scenario.Scenario, error) {
	var schemes []scenario.SchemeFrom
	for _, r := range p.Schemes {
		own := -1
		if r.cand.Own {
			own = ownIndex(a, r.cand)
		}
		schemes = append(schemes, scenario.SchemeFrom{Own: own, Scheme: schemeOf(r.cand.Spec)})
	}
	var drop []string
	if a.WithExceptions() {
		for _, e := range a.Infeasible.Exceptions {
			drop = append(drop, e.Question)
		}
	}
	sc := a.Input.Scenario.Derive(schemes, drop)
	w := &sc.Workload
	// The rate, duration and warm-up read as the file spells them, so that
	// the value and the file run the same load to the nanosecond.
	rate, err := scenario.ParseRate(fmt.Sprintf("%g/s", p.Rate))
	if err != nil {
		return nil, err
	}
	w.Rate, w.Stages, w.MaxOperations, w.TargetPartitions = scenario.Rate(rate), nil, 0, nil
	if w.Duration, err = seconds(p.DurationS); err != nil {
		return nil, err
	}
	if w.Warmup, err = seconds(p.WarmupS); err != nil {
		return nil, err
	}
	sc.Embedded.Model, sc.Embedded.Models = a.ProofModel(), nil
	if a.Split != nil {
		sc.Population.Interval = a.Split.Input.Scenario.Population.Interval
	}
	sc.Population.Entities = scenario.Count(p.Entities)
	return sc, nil
}

// seconds is a duration of s seconds as a scenario file spells it ("%gs").
func seconds(s float64) (scenario.Duration, error) {
	d, err := time.ParseDuration(fmt.Sprintf("%gs", s))
	return scenario.Duration(d), err
}

// schemeOf is a generated scheme as the scenario's Scheme.
func schemeOf(spec keygen.SchemeSpec) scenario.Scheme {
	s := scenario.Scheme{Name: spec.Name, Description: spec.Description, PartitionKey: spec.PartitionKey, RowKey: spec.RowKey}
	if len(spec.Rows) > 0 {
		s.Rows = spec.Rows
	}
	for _, ix := range spec.Indexes {
		x := scenario.Index{Name: ix.Name, PartitionKey: ix.PartitionKey, RowKey: ix.RowKey}
		switch {
		case ix.CarriesAll:
			x.Carries.All = true
		case len(ix.Carries) > 0:
			x.Carries.Fields = ix.Carries
		}
		s.Indexes = append(s.Indexes, x)
	}
	return s
}
