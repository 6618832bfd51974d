package advise

import (
	"context"
	"math"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// Advise generates, judges and ranks the candidates and picks the
// recommendation and the runner-up; when none can be recommended it says
// why and what would serve the load (and, for several accounts or more
// request units, the advice for that).
func (in *Input) Advise(ctx context.Context) (*Advice, error) {
	cs, err := in.Candidates(ctx)
	if err != nil {
		return nil, err
	}
	in.outgrown(cs)
	in.rank(cs)
	front := in.front(cs)
	a := &Advice{Schema: Schema, Scenario: in.Scenario.DisplayName(), Model: in.Opts.Model.String(), Peak: in.Peak,
		Headroom: in.Opts.Headroom, Horizon: textfit.Duration(in.Opts.Horizon), Notes: in.Notes, Ranked: cs, Input: in}
	if r := in.Opts.Retention; r > 0 {
		a.Retention = textfit.Duration(r)
	}
	var ok []*Candidate
	for k, c := range cs {
		a.Candidates = append(a.Candidates, CandidateView{Rank: k + 1, Name: c.Spec.Name, Own: c.Own, Pattern: c.Pattern,
			PartitionKey: c.Spec.PartitionKey, RowKey: c.Spec.RowKey, Rows: c.Spec.Rows, Indexes: indexViews(c.Spec.Indexes),
			Front: front[c], Problems: in.words(c.Problems), Predicted: c.Prediction})
		if len(c.Problems) == 0 {
			ok = append(ok, c)
		}
	}
	switch {
	case len(ok) > 0:
		a.Recommended = in.pick(ok[0], cs)
		if len(ok) > 1 {
			a.RunnerUp = in.pick(ok[1], cs)
		}
	default:
		if a.Infeasible, a.Split, err = in.infeasible(ctx, cs); err != nil {
			return nil, err
		}
		if a.Split != nil {
			a.Recommended, a.RunnerUp = a.Split.Recommended, a.Split.RunnerUp
		}
	}
	a.Lost = in.lost(cs, a.Recommended)
	return a, nil
}

// outgrown marks, when some candidate serves the load with every
// partition of its tables within MaxPartitionRows over the horizon, every
// other that serves it with partitions past the bound: it is not
// recommended while one that stays under exists.
func (in *Input) outgrown(cs []*Candidate) {
	var under *Candidate
	for _, c := range cs {
		if len(c.Problems) == 0 && in.bounded(c.Prediction) && (under == nil || c.Prediction.QuestionMs < under.Prediction.QuestionMs) {
			under = c
		}
	}
	if under == nil {
		return
	}
	for _, c := range cs {
		if rows := in.finding(c.Prediction, judge.PartitionRows); len(c.Problems) == 0 && rows.Over() {
			rows.Of = under.Spec.Name
			c.Problems = append(c.Problems, rows)
			c.Over = rows.Ratio()
			c.outgrown = true
		}
	}
}

// pick is candidate c as the recommendation (or runner-up).
func (in *Input) pick(c *Candidate, all []*Candidate) *Pick {
	return &Pick{Name: c.Spec.Name, PartitionKey: c.Spec.PartitionKey, RowKey: c.Spec.RowKey, Rows: c.Spec.Rows,
		Indexes: indexViews(c.Spec.Indexes), Why: in.why(c, all), Costs: in.costs(c), YAML: SchemeYAML(c.Spec),
		Predicted: c.Prediction, Candidate: c}
}

func pctText(h float64) string { return textfit.Float(h*100) + "%" }

// needed is the request units a table must be provisioned for a
// prediction's workload to use at most the headroom share of them,
// rounded up to 100 RU/s.
func (in *Input) needed(p *Prediction) float64 {
	if p.Cosmos == nil {
		return 0
	}
	return math.Ceil(p.Cosmos.TotalPerSec/in.Opts.Headroom/100) * 100
}
