package question

import (
	"context"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Estimate is a plan's predicted cost per question, from asking it on a
// Model of the seeded table: the figures `tablestress keys` shows and
// advise ranks schemes by.
type Estimate struct {
	Name  string `json:"name"`
	Plan  Kind   `json:"plan"`
	Scope string `json:"scope,omitempty"`
	Index string `json:"index,omitempty"`
	Why   string `json:"why"`
	// The means over the sampled questions.
	PartitionsPerQuestion   float64 `json:"partitions_per_question"`
	RequestsPerQuestion     float64 `json:"requests_per_question"`
	RowsVisitedPerQuestion  float64 `json:"rows_visited_per_question"`
	RowsReturnedPerQuestion float64 `json:"rows_returned_per_question"`
	// Samples is how many questions were asked, each for an entity picked
	// by the question's request distribution.
	Samples int `json:"samples"`
}

// Predict asks the plan samples times on the model, each time for an
// entity of [0, n) picked by dist from a stream seeded with seed, and
// returns the mean cost. n is the model's population.
func Predict(m *Model, p *Plan, dist keygen.Distribution, n int64, samples int, seed uint64) (Estimate, error) {
	est := Estimate{Name: p.Question.Name, Plan: p.Kind, Scope: p.Scope, Index: p.Index, Why: p.Why}
	if n <= 0 || samples <= 0 {
		return est, nil
	}
	st := keygen.NewStream(seed, keygen.NameHash(p.Question.Name))
	b := BoundsOf(m.pop, n)
	var e keygen.Entity
	var sum Cost
	for k := 0; k < samples; k++ {
		m.pop.Entity(dist.Pick(&st, n), &e)
		_, c, err := m.Ask(context.Background(), p, &e, b)
		if err != nil {
			return est, err
		}
		sum.Requests += c.Requests
		sum.Partitions += c.Partitions
		sum.Visited += c.Visited
		sum.Returned += c.Returned
	}
	f := float64(samples)
	est.Samples = samples
	est.PartitionsPerQuestion = float64(sum.Partitions) / f
	est.RequestsPerQuestion = float64(sum.Requests) / f
	est.RowsVisitedPerQuestion = float64(sum.Visited) / f
	est.RowsReturnedPerQuestion = float64(sum.Returned) / f
	return est, nil
}
