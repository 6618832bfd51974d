package judge

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// OpRate is one entry of the mix at the peak rate.
type OpRate struct {
	Spec scenario.Operation
	Kind metrics.Op
	// Rate is the entry's operations per second: the peak times its
	// weight's share of the mix.
	Rate float64
	// Dist picks the existing entities it reads or writes.
	Dist keygen.Distribution
	// Question is the index of the question it asks, or -1.
	Question int
}

// mixRates spreads the peak over the mix by weight.
func mixRates(sc *scenario.Scenario, peak float64) ([]OpRate, error) {
	total := 0.0
	for _, op := range sc.Workload.Mix {
		total += op.Weight
	}
	if !(total > 0) {
		return nil, fmt.Errorf("%w: the workload's mix is empty", ErrInput)
	}
	out := make([]OpRate, 0, len(sc.Workload.Mix))
	names := make([]string, len(sc.Questions))
	for k, q := range sc.Questions {
		names[k] = q.Name
	}
	for i, op := range sc.Workload.Mix {
		mo, err := plan.CompileOp(i, op, string(sc.Workload.Distribution), names)
		if err != nil {
			return nil, err
		}
		out = append(out, OpRate{Spec: op, Kind: mo.Kind, Rate: peak * op.Weight / total, Dist: mo.Dist, Question: mo.Question})
	}
	return out, nil
}

// QuestionWeights is each question's weight in the mix; a question the
// mix does not ask weighs as the least-asked one does (1 when none is
// asked), so its plan still counts in a scheme's cost.
func (in *Input) QuestionWeights() []float64 {
	w := make([]float64, len(in.Questions))
	least := 0.0
	for _, o := range in.Mix {
		if o.Question >= 0 {
			w[o.Question] += o.Spec.Weight
		}
	}
	for _, v := range w {
		if v > 0 && (least == 0 || v < least) {
			least = v
		}
	}
	if least == 0 {
		least = 1
	}
	for k := range w {
		if w[k] == 0 {
			w[k] = least
		}
	}
	return w
}

// questionRate is the rate the mix asks question k and the distribution
// it picks entities with (its first entry's own, else the workload's).
func (in *Input) questionRate(k int) (float64, keygen.Distribution) {
	rate := 0.0
	var dist keygen.Distribution
	for _, o := range in.Mix {
		if o.Question == k {
			rate += o.Rate
			if dist == nil {
				dist = o.Dist
			}
		}
	}
	if dist == nil {
		dist, _ = keygen.ParseDistribution(string(in.Scenario.Workload.Distribution))
	}
	return rate, dist
}

// insertRate is the new entities written a second at the peak, taking a
// batch entry at its asked size (the judge's batches() measures the fill
// a scheme gets).
func (in *Input) insertRate() float64 {
	w := 0.0
	for _, o := range in.Mix {
		switch o.Kind {
		case metrics.Insert:
			w += o.Rate
		case metrics.Batch:
			w += o.Rate * float64(max(o.Spec.Size, 1))
		}
	}
	return w
}
