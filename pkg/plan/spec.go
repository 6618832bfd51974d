package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// Overrides are a run's changes to its scenario, from the command line. A
// nil (or zero) field keeps the scenario's value.
type Overrides struct {
	Seed     *uint64
	Entities *int64
	// Duration is the measured duration. A workload with stages keeps its
	// shape: every stage is scaled by Duration / the stages' total.
	Duration time.Duration
	Warmup   *time.Duration
	// Rate replaces the workload's rate and stages with a constant
	// open-loop rate; 0 is a closed loop.
	Rate    *float64
	Workers int
	// MaxOps bounds the measured operations (0: no bound).
	MaxOps *int64
	Retry  *scenario.Retry
	// Shard and Shards make the run shard Shard (0-based) of Shards: it
	// offers 1/Shards of the rate (and of max_operations) to its share of
	// the partitions. Shards 0 or 1 is an unsharded run.
	Shard, Shards int
}

// Spec is a run as the engine drives it: the scenario with the overrides
// applied, validated and compiled. Everything about how a run offers its
// load is decided here, by Build, and nowhere else.
type Spec struct {
	// Scenario is the scenario as run (overrides applied).
	Scenario *scenario.Scenario
	// SourceSHA256 is the hash of the scenario file's bytes ("" without).
	SourceSHA256 string
	Pop          *keygen.Population
	Schemes      []*keygen.Scheme
	Seed         uint64
	Entities     int64
	// Warmup runs before the measured Duration; nothing in it is measured.
	Warmup, Duration time.Duration
	// MaxOps bounds the operations started in the measured window (0: none).
	MaxOps  int64
	Workers int
	Load    Load
	Retry   Retrier
	Timeout time.Duration
	// Shard and Shards: see Overrides (Shards is 1 for an unsharded run).
	Shard, Shards int
	// Notes say how the overrides changed the scenario's load, in words.
	Notes []string
}

// Load is how a run offers its operations: a closed loop (Open false), a
// constant open-loop rate, or open-loop stages.
type Load struct {
	Open bool
	// Rate is the constant rate, or with Stages the rate the first stage
	// ramps from.
	Rate   float64
	Stages []Stage
	// WarmupRate is the constant open-loop rate of the warm-up: Rate, or
	// with stages starting from 0 the first stage's rate, so that a warm-up
	// warms something.
	WarmupRate float64
}

// ErrOverride is returned for an override that cannot apply.
var ErrOverride = errors.New("plan: override")

// Build applies the overrides to the scenario, validates and compiles the
// result: the one translation from a scenario and a command line to a run.
// source, when not nil, is the scenario file as read (for the report's
// hash). The scenario itself is not modified. Validation errors are
// returned joined; each is a *scenario.Error when it concerns the file.
func Build(s *scenario.Scenario, source []byte, o Overrides) (*Spec, error) {
	sc := *s
	sc.Workload.Stages = append([]scenario.Stage(nil), s.Workload.Stages...)
	sc.Workload.Mix = append([]scenario.Operation(nil), s.Workload.Mix...)
	w := &sc.Workload
	applyValues(&sc, o)
	var notes []string
	notes = append(notes, applyRate(w, o.Rate)...)
	notes = append(notes, applyDuration(w, o.Duration)...)
	shards := max(o.Shards, 1)
	if o.Shard < 0 || o.Shard >= shards {
		return nil, fmt.Errorf("%w: shard %d of %d: want 0 <= shard < %d", ErrOverride, o.Shard, shards, shards)
	}
	notes = append(notes, applyShard(w, o.Shard, shards)...)
	if (w.Rate > 0 || len(w.Stages) > 0) && o.Workers == 0 && !sc.Given("workload.workers") {
		// An open loop adds workers as its operations need them, up to
		// these (pkg/workload's open pool).
		w.Workers = scenario.DefaultOpenWorkers
	}
	if errs := sc.Validate(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	pop, schemes, err := sc.Compile()
	if err != nil {
		return nil, err
	}
	spec := &Spec{Scenario: &sc, Pop: pop, Schemes: schemes, Seed: sc.Seed, Entities: int64(sc.Population.Entities),
		Warmup: w.Warmup.D(), Duration: w.Duration.D(), MaxOps: int64(w.MaxOperations), Workers: max(w.Workers, 1),
		Load: loadOf(w), Retry: NewRetrier(w.Retry), Timeout: w.Timeout.D(), Shard: o.Shard, Shards: shards, Notes: notes}
	if source != nil {
		sum := sha256.Sum256(source)
		spec.SourceSHA256 = hex.EncodeToString(sum[:])
	}
	return spec, nil
}

// applyValues sets the overrides that replace a value of the scenario.
func applyValues(sc *scenario.Scenario, o Overrides) {
	w := &sc.Workload
	if o.Seed != nil {
		sc.Seed = *o.Seed
	}
	if o.Entities != nil {
		sc.Population.Entities = scenario.Count(*o.Entities)
	}
	if o.Warmup != nil {
		w.Warmup = scenario.Duration(*o.Warmup)
	}
	if o.Workers > 0 {
		w.Workers = o.Workers
	}
	if o.MaxOps != nil {
		w.MaxOperations = scenario.Count(*o.MaxOps)
	}
	if o.Retry != nil {
		w.Retry = *o.Retry
	}
}

// applyRate makes the workload's load a constant rate (0: a closed loop)
// when rate is set, in place of its stages; the note says so.
func applyRate(w *scenario.Workload, rate *float64) (notes []string) {
	if rate == nil {
		return nil
	}
	if len(w.Stages) > 0 {
		what := fmt.Sprintf("a constant %s ops/s", trimRate(*rate))
		if *rate == 0 {
			what = "a closed loop"
		}
		notes = append(notes, fmt.Sprintf("--rate replaced the scenario's %d stage(s) with %s", len(w.Stages), what))
	}
	w.Rate, w.Stages = scenario.Rate(*rate), nil
	return notes
}

// applyDuration sets the measured duration d (0: the scenario's), scaling
// the stages to it in proportion; the note says so.
func applyDuration(w *scenario.Workload, d time.Duration) (notes []string) {
	if d <= 0 {
		return nil
	}
	if total := stagesTotal(w.Stages); total > 0 && total != d {
		f := float64(d) / float64(total)
		for k := range w.Stages {
			w.Stages[k].Duration = scenario.Duration(time.Duration(float64(w.Stages[k].Duration) * f))
		}
		// Rounding must not lose the end: the last stage takes the rest.
		w.Stages[len(w.Stages)-1].Duration += scenario.Duration(d - stagesTotal(w.Stages))
		notes = append(notes, fmt.Sprintf("--duration scaled the scenario's %d stage(s) from %v to %v", len(w.Stages), total, d))
	}
	w.Duration = scenario.Duration(d)
	return notes
}

// applyShard makes the workload shard of shards: 1/shards of the rate, of
// every stage's and of max_operations (the first shards take the rest of
// its division); the note says so.
func applyShard(w *scenario.Workload, shard, shards int) (notes []string) {
	if shards <= 1 {
		return nil
	}
	w.Rate = scenario.Rate(float64(w.Rate) / float64(shards))
	for k := range w.Stages {
		w.Stages[k].Rate = scenario.Rate(float64(w.Stages[k].Rate) / float64(shards))
	}
	if w.MaxOperations > 0 {
		w.MaxOperations = scenario.Count((int64(w.MaxOperations) + int64(shards) - 1 - int64(shard)) / int64(shards))
	}
	return append(notes, fmt.Sprintf("one of %d shards: each offers 1/%d of the rate and of max_operations", shards, shards))
}

// loadOf decides the load of a validated workload.
func loadOf(w *scenario.Workload) Load {
	l := Load{Rate: float64(w.Rate)}
	for _, st := range w.Stages {
		l.Stages = append(l.Stages, Stage{Duration: st.Duration.D(), Target: float64(st.Rate)})
	}
	l.Open = l.Rate > 0 || len(l.Stages) > 0
	l.WarmupRate = l.Rate
	if l.WarmupRate == 0 && len(l.Stages) > 0 {
		l.WarmupRate = l.Stages[0].Target
	}
	return l
}

func stagesTotal(st []scenario.Stage) time.Duration {
	var d time.Duration
	for _, s := range st {
		d += s.Duration.D()
	}
	return d
}

func trimRate(r float64) string { return fmt.Sprintf("%g", r) }

// Scheme returns the index of the scheme called name ("" is the first).
func (s *Spec) Scheme(name string) (int, error) {
	if name == "" {
		return 0, nil
	}
	return s.Scenario.Scheme(name)
}

// Pacer returns the run's open-loop schedule, warm-up included, or nil for
// a closed loop.
func (s *Spec) Pacer() Pacer {
	if !s.Load.Open {
		return nil
	}
	return NewPacer(s.Load, s.Warmup, s.Duration)
}
