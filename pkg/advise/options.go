package advise

import (
	"errors"
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/workload"
)

// Options are the advisor's settings.
type Options struct {
	// Rate is the peak rate in operations/s; 0 takes the scenario's rate,
	// or its stages' highest.
	Rate float64
	// Headroom is the share of a target the busiest partition (and the
	// account) may use at the peak: 0.7 leaves 30% for what the model does
	// not know (a burst, a partition moved by load balancing).
	Headroom float64
	// Horizon is how long partitions keep growing, in event time: rows
	// and bytes per partition are judged after it, the population growing
	// by an entity per interval (the peak write rate without one).
	Horizon time.Duration
	// MaxPartitionRows bounds one partition's rows after the horizon when
	// choosing a time bucket: 1,000,000, after the design guidance (seed
	// 000: "If you expect millions of entities in one partition, consider
	// adding a secondary dimension"). Under Cosmos DB the 20 GB logical
	// partition limit bounds it too.
	MaxPartitionRows int64
	// MaxQuestionRequests and MaxQuestionRows bound what one question may
	// cost (requests, rows visited); 0 is no bound. A candidate over a
	// bound is not recommended; when every candidate is, the load is
	// infeasible.
	MaxQuestionRequests float64
	MaxQuestionRows     float64
	// Model is the service: Azure Table Storage (the default) or Cosmos
	// DB, with its targets.
	Model model.Config
}

// Defaults are the documented defaults: 70% headroom, a year's horizon,
// 1,000,000 rows per partition, no question bound, Azure's model.
func Defaults() Options {
	return Options{Headroom: 0.7, Horizon: 365 * 24 * time.Hour, MaxPartitionRows: 1_000_000, Model: model.Default()}
}

// ErrInput is wrapped by every problem with what advise was given.
var ErrInput = errors.New("advise")

// Input is a scenario prepared for judging: its population, its own
// schemes, its questions, and the rates of its mix at the peak. It is
// immutable once prepared and safe for concurrent use.
type Input struct {
	Scenario  *scenario.Scenario
	Pop       *keygen.Population
	Own       []*keygen.Scheme
	Questions []*question.Question
	Opts      Options
	// Peak is the rate judged, in operations/s.
	Peak float64
	// Mix is every entry of the workload's mix at the peak.
	Mix []OpRate
	// Seeded is the entities the seed phase writes.
	Seeded int64
	// Notes say what of the scenario the advisor set aside, and why.
	Notes []string
}

// Prepare compiles a validated scenario for judging with opts.
func Prepare(sc *scenario.Scenario, opts Options) (*Input, error) {
	if !(opts.Headroom > 0 && opts.Headroom <= 1) {
		return nil, fmt.Errorf("%w: headroom %v: want a share above 0 and at most 1, like 0.7", ErrInput, opts.Headroom)
	}
	if opts.Horizon <= 0 || opts.MaxPartitionRows < 1 {
		return nil, fmt.Errorf("%w: the horizon and the partition size bound must be positive", ErrInput)
	}
	var notes []string
	if pins := sc.Workload.TargetPartitions; len(pins) > 0 {
		// A pin is the stress-test procedure's, not the application's
		// load, and names partitions of the scenario's own schemes only.
		unpinned := *sc
		unpinned.Workload.TargetPartitions = nil
		sc = &unpinned
		notes = append(notes, fmt.Sprintf("workload.target_partitions %q is set aside: it pins a stress test to partitions of the scenario's own schemes, and the advice judges the application's load as its fields spread it (the proof runs without it)", pins))
	}
	pop, own, err := sc.Compile()
	if err != nil {
		return nil, err
	}
	qs, err := sc.CompileQuestions(pop)
	if err != nil {
		return nil, err
	}
	in := &Input{Scenario: sc, Pop: pop, Own: own, Questions: qs, Opts: opts, Seeded: int64(sc.Population.Entities), Notes: notes}
	in.Peak = opts.Rate
	if in.Peak == 0 {
		in.Peak = workload.PeakRate(sc.Workload)
	}
	if !(in.Peak > 0) {
		return nil, fmt.Errorf("%w: the workload has no rate (a closed loop): give workload.rate or stages, or --rate, the peak to judge", ErrInput)
	}
	if in.Mix, err = mixRates(sc, in.Peak); err != nil {
		return nil, err
	}
	return in, nil
}

// PartitionTarget is the service's per-partition target in entities/s
// (Azure's 2,000), from the model.
func (in *Input) PartitionTarget() float64 { return in.Opts.Model.PartitionTarget }

// Cosmos reports whether the service is the Cosmos DB Table API.
func (in *Input) Cosmos() bool { return in.Opts.Model.Kind == model.Cosmos }

// Target is what the busiest partition is judged against: the partition
// target in entities/s, or under Cosmos DB a logical partition's RU/s.
func (in *Input) Target() float64 {
	if in.Cosmos() {
		return in.Opts.Model.Cosmos.LogicalRU
	}
	return in.PartitionTarget()
}
