package advise

import (
	"context"
	"slices"
	"strings"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// Exception is a question no design serves, beside advice for the rest
// of the load: what it costs under the design recommended for the rest
// (when that design is among those judged for the whole load) and why
// no design serves it, with what would change it.
type Exception struct {
	Question string `json:"question"`
	// Why is what decides it and what would change it (unservable's
	// words).
	Why string `json:"why"`
	// Plan is the question's plan under the design recommended for the
	// rest, RowsVisited, RowsReturned and Requests its cost a question at
	// the horizon, EntitiesPerSec its rows visited a second at its rate
	// (0 when that design was not judged with the question).
	Plan           string  `json:"plan,omitempty"`
	RowsVisited    float64 `json:"rows_visited_per_question,omitempty"`
	RowsReturned   float64 `json:"rows_returned_per_question,omitempty"`
	Requests       float64 `json:"requests_per_question,omitempty"`
	EntitiesPerSec float64 `json:"entities_per_sec,omitempty"`
}

// exceptions is the load recommended with exceptions: the questions
// named (each unservable or hot with why) as exceptions beside the
// advice for the rest of the load, the reason their whys; nil when
// nothing serves the rest.
func (in *Input) exceptions(ctx context.Context, cs []*Candidate, names, whys []string) (*Infeasible, *Advice, error) {
	rest, ex, err := in.servedRest(ctx, cs, names, whys)
	if err != nil || rest == nil {
		return nil, nil, err
	}
	inf := &Infeasible{Exceptions: ex}
	for _, e := range ex {
		inf.Questions = append(inf.Questions, e.Why)
	}
	inf.Reason = strings.Join(inf.Questions, "; ")
	return inf, rest, nil
}

// servedRest advises the load without the questions named (each
// unservable with why), and returns that advice with the exceptions
// when it recommends a design; nil when it does not either. When the
// rest is itself recommended with exceptions (a question that stands in
// the way only once these are gone), its exceptions join these and its
// rest is the advice returned.
func (in *Input) servedRest(ctx context.Context, cs []*Candidate, names, whys []string) (*Advice, []Exception, error) {
	rest, ok := without(in.Scenario, names)
	if !ok {
		return nil, nil, nil
	}
	a, err := again(ctx, rest, in.Opts)
	if err != nil || a.Recommended == nil {
		return nil, nil, err
	}
	var more []Exception
	switch {
	case a.WithExceptions() && a.Split != nil:
		more, a = a.Infeasible.Exceptions, a.Split
	case a.Infeasible != nil:
		return nil, nil, nil
	}
	var under *Candidate
	for _, c := range cs {
		if sameDesign(c, a.Recommended) {
			under = c
		}
	}
	var out []Exception
	for i, name := range names {
		e := Exception{Question: name, Why: whys[i]}
		if under != nil {
			for _, qc := range under.Prediction.Questions {
				if qc.Name == name {
					e.Plan, e.RowsVisited, e.RowsReturned, e.Requests = qc.Label, qc.RowsVisitedPerQuestion, qc.RowsPerQuestion, qc.RequestsPerQuestion
					e.EntitiesPerSec = qc.RowsVisitedPerQuestion * qc.PerSec
				}
			}
		}
		out = append(out, e)
	}
	return a, append(out, more...), nil
}

// sameDesign reports whether candidate c is the design p recommends: the
// same keys, secondary rows and index tables.
func sameDesign(c *Candidate, p *Pick) bool {
	if c.Spec.PartitionKey != p.PartitionKey || c.Spec.RowKey != p.RowKey || !slices.Equal(c.Spec.Rows, p.Rows) || len(c.Spec.Indexes) != len(p.Indexes) {
		return false
	}
	for k, ix := range c.Spec.Indexes {
		if ix.PartitionKey != p.Indexes[k].PartitionKey || ix.RowKey != p.Indexes[k].RowKey {
			return false
		}
	}
	return true
}

// without is scenario sc without the questions named: their entries of
// the mix go, and the rate (each stage's) keeps the rest's share, so the
// rest is asked as often as before. ok is false when nothing of the mix
// is left.
func without(sc *scenario.Scenario, names []string) (*scenario.Scenario, bool) {
	s := *sc
	s.Questions = nil
	for _, q := range sc.Questions {
		if !slices.Contains(names, q.Name) {
			s.Questions = append(s.Questions, q)
		}
	}
	s.Workload.Mix = nil
	all, kept := 0.0, 0.0
	for _, o := range sc.Workload.Mix {
		w := o.Weight
		if w == 0 {
			w = 1
		}
		all += w
		if o.Question != "" && slices.Contains(names, strings.TrimSpace(o.Question)) {
			continue
		}
		kept += w
		s.Workload.Mix = append(s.Workload.Mix, o)
	}
	if kept == 0 || len(s.Workload.Mix) == 0 {
		return nil, false
	}
	f := kept / all
	s.Workload.Rate = scenario.Rate(float64(s.Workload.Rate) * f)
	s.Workload.Stages = append([]scenario.Stage(nil), sc.Workload.Stages...)
	for i := range s.Workload.Stages {
		s.Workload.Stages[i].Rate = scenario.Rate(float64(s.Workload.Stages[i].Rate) * f)
	}
	return &s, true
}
