package judge

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// Options are what the judge is asked to judge at.
type Options struct {
	// Rate is the peak rate in operations/s; 0 takes the scenario's rate,
	// or its stages' highest.
	Rate float64
	// Horizon is how long the table grows, in event time, at the
	// workload's write rate.
	Horizon time.Duration
	// Retention, when set, deletes data older than it: the table holds
	// at most Retention of event time.
	Retention time.Duration
	// Model is the service: Azure Table Storage or Cosmos DB, with its
	// targets and latencies.
	Model model.Config
}

// DefaultHorizon is a year.
const DefaultHorizon = 365 * 24 * time.Hour

// ErrInput is wrapped by every problem with what the judge was given.
var ErrInput = errors.New("judge")

// Input is a scenario prepared for judging: its population, schemes and
// questions, and its mix at the peak. It is immutable once prepared (its
// caches are guarded) and safe for concurrent use.
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
	// Notes say what of the scenario the judge set aside, and why.
	Notes []string

	mu   sync.Mutex
	laws map[string]*fieldLaw
	sels map[selKey]float64 // filters' selectivity (selectivity.go)
}

// Prepare compiles a validated scenario for judging with opts.
func Prepare(sc *scenario.Scenario, opts Options) (*Input, error) {
	if opts.Horizon <= 0 {
		return nil, fmt.Errorf("%w: the horizon must be positive", ErrInput)
	}
	if opts.Retention < 0 {
		return nil, fmt.Errorf("%w: the retention must not be negative", ErrInput)
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
	in := &Input{Scenario: sc, Pop: pop, Own: own, Questions: qs, Opts: opts, Seeded: int64(sc.Population.Entities), Notes: notes, laws: map[string]*fieldLaw{}}
	in.Peak = opts.Rate
	if in.Peak == 0 {
		in.Peak = plan.PeakRate(sc.Workload)
	}
	if !(in.Peak > 0) {
		return nil, fmt.Errorf("%w: the workload has no rate (a closed loop): give workload.rate or stages, or --rate, the peak to judge", ErrInput)
	}
	if in.Mix, err = mixRates(sc, in.Peak); err != nil {
		return nil, err
	}
	if n := in.intervalNote(); n != "" {
		in.Notes = append(in.Notes, n)
	}
	return in, nil
}

// intervalNote says when the population's interval and the write rate
// disagree on how fast event time moves: the seeded table follows the
// interval, the horizon the write rate.
func (in *Input) intervalNote() string {
	iv := in.Pop.Spec().Interval
	w := in.insertRate()
	if iv <= 0 || !(w > 0) {
		return ""
	}
	e := float64(time.Second) / float64(iv)
	if r := e / w; r > 0.5 && r < 2 {
		return ""
	}
	return fmt.Sprintf("population.interval (%s) moves event time by %s entities a second while the workload writes %s a second: the seeded table and the proof follow the interval, the table at the horizon the write rate",
		iv, textfit.Rate(e), textfit.Rate(w))
}

// PartitionTarget is the service's per-partition target in entities/s
// (the model's; by default azure.PartitionEntitiesPerSec).
func (in *Input) PartitionTarget() float64 { return in.Opts.Model.PartitionTarget }

// bucketCap is the entities a partition's bucket holds when full: the
// model's burst of its target, at least an entity group transaction's
// 100 (the service model's bucket).
func (in *Input) bucketCap() float64 {
	b := in.Opts.Model.Burst
	if b <= 0 {
		b = 100 * time.Millisecond
	}
	return math.Max(in.PartitionTarget()*b.Seconds(), 100)
}

// PassLimit is the most rows one query can visit in a partition at once
// under the service model: a query's page is admitted while the
// partition owes at most a second of its target past its full bucket,
// and pages come in 1,000 entities, so the last page starts at the
// largest multiple of 1,000 within the target and the bucket (2,000 of
// Azure's 2,200) and the pass reads 1,000 more (3,000 rows; a fourth page
// would start 800 entities, 0.4 s of the target, into debt). What the
// partition earns back while the pages are served (about 0.2 s for three)
// is not counted: the limit errs low.
func (in *Input) PassLimit() float64 {
	return math.Floor((in.PartitionTarget()+in.bucketCap())/azure.PageRows)*azure.PageRows + azure.PageRows
}

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
