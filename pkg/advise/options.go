package advise

import (
	"errors"
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// Options are the advisor's settings: what the judge judges at (the
// peak, the horizon, the retention, the service) and the bounds a
// recommendation keeps.
type Options struct {
	judge.Options
	// Headroom is the share of a target the busiest partition (and the
	// account) may use at the peak: 0.7 leaves 30% for what the model does
	// not know (a burst, a partition moved by load balancing).
	Headroom float64
	// MaxPartitionRows bounds one partition's rows after the horizon:
	// 1,000,000: a partition that grows without end is split by a second
	// dimension of its key (Azure Storage "Table design patterns", "Compound
	// key pattern"). Under Cosmos DB the 20 GB logical partition limit bounds
	// it too. A candidate whose partitions outgrow it is not recommended
	// while one that stays under exists.
	MaxPartitionRows int64
	// MaxQuestionRequests and MaxQuestionRows bound what one question may
	// cost at the horizon (requests, rows visited); 0 is no bound. A
	// candidate over a bound is not recommended; when every candidate is,
	// the load is infeasible.
	MaxQuestionRequests float64
	MaxQuestionRows     float64
}

// Defaults are the documented defaults: 70% headroom, a year's horizon,
// no retention, 1,000,000 rows per partition, no question bound, Azure's
// model.
func Defaults() Options {
	return Options{Options: judge.Options{Horizon: judge.DefaultHorizon, Model: model.Default()}, Headroom: 0.7, MaxPartitionRows: 1_000_000}
}

// ErrInput is wrapped by every problem with what advise was given.
var ErrInput = errors.New("advise")

// Input is a scenario prepared for advising: the judge's input, and the
// advisor's options. It is safe for concurrent use.
type Input struct {
	*judge.Input
	Opts Options
	// serial judges the candidates one by one, with no workers ahead
	// (ahead.go): what the workers' advice must equal.
	serial bool
}

// Prepare compiles a validated scenario for advising with opts.
func Prepare(sc *scenario.Scenario, opts Options) (*Input, error) {
	if !(opts.Headroom > 0 && opts.Headroom <= 1) {
		return nil, fmt.Errorf("%w: headroom %v: want a share above 0 and at most 1, like 0.7", ErrInput, opts.Headroom)
	}
	if opts.Horizon <= 0 || opts.MaxPartitionRows < 1 {
		return nil, fmt.Errorf("%w: the horizon and the partition size bound must be positive", ErrInput)
	}
	in, err := judge.Prepare(sc, opts.Options)
	if err != nil {
		return nil, err
	}
	return &Input{Input: in, Opts: opts}, nil
}

// Prediction is the judge's prediction of a candidate.
type Prediction = judge.Prediction

// QuestionCost is one question's cost under a candidate.
type QuestionCost = judge.QuestionCost

// horizonLife is the event time the table at the horizon spans: the
// horizon, or the retention when shorter.
func (in *Input) horizonLife() time.Duration {
	if r := in.Opts.Retention; r > 0 && r < in.Opts.Horizon {
		return r
	}
	return in.Opts.Horizon
}
