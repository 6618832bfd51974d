package advise

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/scenario"
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
		Headroom: in.Opts.Headroom, Horizon: durationText(in.Opts.Horizon), Notes: in.Notes, Ranked: cs, Input: in}
	var ok []*Candidate
	for k, c := range cs {
		a.Candidates = append(a.Candidates, CandidateView{Rank: k + 1, Name: c.Spec.Name, Own: c.Own, Pattern: c.Pattern,
			PartitionKey: c.Spec.PartitionKey, RowKey: c.Spec.RowKey, Rows: c.Spec.Rows, Indexes: indexViews(c.Spec.Indexes),
			Front: front[c], Problems: append([]string{}, c.Problems...), Predicted: c.Prediction})
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
		if len(c.Problems) == 0 && !in.bounded(c.Prediction) {
			c.Problems = append(c.Problems, in.growth(c)+"; "+under.Spec.Name+" stays under it")
		}
	}
}

// pick is candidate c as the recommendation (or runner-up).
func (in *Input) pick(c *Candidate, all []*Candidate) *Pick {
	return &Pick{Name: c.Spec.Name, PartitionKey: c.Spec.PartitionKey, RowKey: c.Spec.RowKey, Rows: c.Spec.Rows,
		Indexes: indexViews(c.Spec.Indexes), Why: in.why(c, all), Costs: in.costs(c), YAML: SchemeYAML(c.Spec),
		Predicted: c.Prediction, Candidate: c}
}

// infeasible says why no candidate can be recommended (cs ranked, the
// one with the fewest problems first) and what would serve the load:
// several accounts when every candidate asks more of one than its target
// (then the advice for one account's share), more request units under
// Cosmos DB (then the advice at that throughput), or nothing when a
// question cannot be answered within the bound.
func (in *Input) infeasible(ctx context.Context, cs []*Candidate) (*Infeasible, *Advice, error) {
	h := in.Opts.Headroom
	if qs := in.unanswerable(cs); len(qs) > 0 {
		return &Infeasible{Reason: strings.Join(qs, "; "), Questions: qs}, nil, nil
	}
	if in.Cosmos() && all(cs, func(c *Candidate) bool { return c.Prediction.Cosmos.TotalPerSec > h*in.Opts.Model.Cosmos.RU }) {
		need := math.Inf(1)
		for _, c := range cs {
			need = math.Min(need, in.needed(c.Prediction))
		}
		opts := in.Opts
		opts.Model.Cosmos.RU, opts.Model.Cosmos.Partitions = need, 0
		split, err := again(ctx, in.Scenario, opts)
		why := fmt.Sprintf("the workload is charged over %s of the %s RU/s provisioned under every scheme; the table needs %s RU/s",
			pctText(h), textfit.Rate(in.Opts.Model.Cosmos.RU), textfit.Rate(need))
		return &Infeasible{Reason: why, RequestUnits: need}, split, err
	}
	target := in.Opts.Model.AccountTarget
	if !in.Cosmos() && all(cs, func(c *Candidate) bool { return c.Prediction.AccountRequestsPerSec > h*target }) {
		least := math.Inf(1)
		for _, c := range cs {
			least = math.Min(least, c.Prediction.AccountRequestsPerSec)
		}
		k := int(math.Ceil(least / (h * target)))
		why := fmt.Sprintf("at its peak the workload asks at least %s requests/s of the account under every scheme, over %s of the %s requests/s a storage account serves (Azure Storage scalability targets); %d accounts, each taking an equal share of the entities, bring each under it",
			textfit.Rate(least), pctText(h), textfit.Rate(target), k)
		split, err := again(ctx, share(in.Scenario, k), shareOpts(in.Opts, k))
		return &Infeasible{Reason: why, Accounts: k}, split, err
	}
	return &Infeasible{Reason: "no scheme can serve the load: the closest, " + cs[0].Spec.Name + ", is " + strings.Join(cs[0].Problems, "; ")}, nil, nil
}

// unanswerable are the questions over a bound under every candidate, each
// with the cheapest plan any has.
func (in *Input) unanswerable(cs []*Candidate) []string {
	var out []string
	for k, q := range in.Questions {
		best, who := math.Inf(1), ""
		over := true
		for _, c := range cs {
			qc := c.Prediction.Questions[k]
			over = over && ((in.Opts.MaxQuestionRequests > 0 && qc.RequestsPerQuestion > in.Opts.MaxQuestionRequests) ||
				(in.Opts.MaxQuestionRows > 0 && qc.RowsVisitedPerQuestion > in.Opts.MaxQuestionRows))
			if qc.RequestsPerQuestion < best {
				best, who = qc.RequestsPerQuestion, c.Spec.Name+"'s "+qc.Label
			}
		}
		if over {
			out = append(out, fmt.Sprintf("no scheme answers %s within the bound: the cheapest plan is %s, %s request%s a question", q.Name, who, textfit.Float(round1(best)), s(best)))
		}
	}
	return out
}

func all(cs []*Candidate, f func(*Candidate) bool) bool {
	for _, c := range cs {
		if !f(c) {
			return false
		}
	}
	return len(cs) > 0
}

// again prepares and advises a changed scenario or model.
func again(ctx context.Context, sc *scenario.Scenario, opts Options) (*Advice, error) {
	in, err := Prepare(sc, opts)
	if err != nil {
		return nil, err
	}
	return in.Advise(ctx)
}

// share is the scenario of one of k accounts: every k-th entity (the same
// law), so a k times longer interval, a k-th of the seeded entities and of
// the rate.
func share(sc *scenario.Scenario, k int) *scenario.Scenario {
	s := *sc
	s.Population.Interval = scenario.Duration(s.Population.Interval.D() * time.Duration(k))
	s.Population.Entities = scenario.Count(max(int64(s.Population.Entities)/int64(k), 1))
	s.Workload.Rate = scenario.Rate(float64(s.Workload.Rate) / float64(k))
	s.Workload.Stages = append([]scenario.Stage(nil), sc.Workload.Stages...)
	for i := range s.Workload.Stages {
		s.Workload.Stages[i].Rate /= scenario.Rate(k)
	}
	return &s
}

func shareOpts(o Options, k int) Options {
	o.Rate /= float64(k)
	return o
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
