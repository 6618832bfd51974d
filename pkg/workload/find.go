package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// Search finds the highest offered rate one scheme of a scenario sustains:
// it runs the scenario at a rate (a step: fresh table, seed, warm-up,
// measured run, the same path as tablestress run), raises the rate by
// Factor while steps pass, then bisects between the highest rate that
// passed and the lowest that failed until they are within Precision of
// each other. A step fails by the StopRule. The search stops by itself:
// at MaxRate (the limit is then at least that), after MaxSteps, or when
// the bisection closes.
type Search struct {
	Scenario *scenario.Scenario
	Source   []byte
	// Overrides are the command line's; each step replaces Rate.
	Overrides plan.Overrides
	// Scheme is the index of the scheme searched.
	Scheme int
	// Template is the run configuration every step copies: Service,
	// Events, Hard, Clock, DownAfter, Grace, PartitionTarget. Its Spec,
	// Scheme, Table and SeedOnly are set per step (a fresh table each).
	Template Config
	// Meta describes the target for the steps' reports.
	Meta Meta
	// StartRate is the first step's rate (ops/s); 0 takes the scenario's
	// rate, or DefaultStartRate for a closed loop.
	StartRate float64
	// MaxRate bounds the offered rate (0: none).
	MaxRate float64
	// Factor is the geometric growth (and shrink) between steps (default 2);
	// Precision the relative gap at which bisection stops (default 0.05).
	Factor, Precision float64
	// MaxSteps bounds the steps (default 20).
	MaxSteps int
	Rule     StopRule
	// OnStep, when set, is called before each step (done false) and after
	// it with its result.
	OnStep func(n int, rate float64, step *report.FindStep)
}

// DefaultStartRate is the first rate of a search of a closed-loop scenario.
const DefaultStartRate = 100

// minRate is the lowest rate a search tries before giving up.
const minRate = 0.5

// StopRule decides whether a step failed. With Thresholds, the scenario's
// thresholds decide (a threshold on nothing observed does not fail a
// step); otherwise the throttled share of requests and the p99 latency.
// Dropped operations over MaxDropped always fail a step: the client could
// not offer the rate, so the target was not judged at it.
type StopRule struct {
	Thresholds   bool
	MaxThrottled float64       // share of requests (default 0.01)
	MaxP99       time.Duration // 0: none
	MaxDropped   float64       // share of the operations offered (default 0.01)
}

// DefaultMaxP99 is the default p99 bound of a search step.
const DefaultMaxP99 = time.Second

func (r StopRule) withDefaults() StopRule {
	if !(r.MaxThrottled > 0) {
		r.MaxThrottled = 0.01
	}
	if !(r.MaxDropped > 0) {
		r.MaxDropped = 0.01
	}
	return r
}

// String says the rule in words.
func (r StopRule) String() string {
	r = r.withDefaults()
	drop := fmt.Sprintf("over %s%% dropped", textfit.Float(100*r.MaxDropped))
	if r.Thresholds {
		return "a threshold of the scenario fails, or " + drop
	}
	s := fmt.Sprintf("over %s%% of requests throttled", textfit.Float(100*r.MaxThrottled))
	if r.MaxP99 > 0 {
		s += fmt.Sprintf(", p99 over %v", r.MaxP99)
	}
	return s + ", or " + drop
}

// judge returns why the step of rep failed, "" when it passed.
func (r StopRule) judge(rep *report.Report) string {
	r = r.withDefaults()
	t := rep.Totals
	if overDropped(t.Counts, r.MaxDropped) {
		switch {
		case rep.Client == nil: // the client's CPU was not measured
			return fmt.Sprintf("%s of the operations offered were dropped: the client could not offer this rate (raise --workers)", pctText(t.Dropped, t.Offered()))
		case rep.Client.Limit != nil:
			return fmt.Sprintf("%s of the operations offered were dropped: %s", pctText(t.Dropped, t.Offered()), rep.Client.Limit.Sentence())
		}
		return fmt.Sprintf("%s of the operations offered were dropped: the target stalled at times (the client had CPU and workers to spare)", pctText(t.Dropped, t.Offered()))
	}
	if rep.Failure != "" {
		return "the run failed: " + rep.Failure
	}
	if r.Thresholds {
		for _, th := range rep.Thresholds {
			if !th.OK && th.Missing == "" {
				return fmt.Sprintf("threshold %s failed (observed %s%s)", th.Expr, textfit.Float(th.Observed), th.Unit)
			}
		}
		if rep.Aborted != "" {
			return rep.Aborted
		}
		return ""
	}
	if t.Requests > 0 && float64(t.Throttled) > r.MaxThrottled*float64(t.Requests) {
		return fmt.Sprintf("%s of requests throttled", pctText(t.Throttled, t.Requests))
	}
	if r.MaxP99 > 0 && t.Latency.P99 > float64(r.MaxP99)/float64(time.Millisecond) {
		return fmt.Sprintf("p99 %s ms, over %v", textfit.Float(t.Latency.P99), r.MaxP99)
	}
	return ""
}

// overDropped reports whether more than share of the operations offered
// were dropped.
func overDropped(c metrics.Counts, share float64) bool {
	return c.Dropped > 0 && float64(c.Dropped) > share*float64(c.Offered())
}

func pctText(part, whole int64) string {
	return textfit.Float(math.Round(10000*float64(part)/float64(whole))/100) + "%"
}

// ErrSearch is returned when a search cannot run a step.
var ErrSearch = errors.New("workload: find")

// Run searches. It returns the report of the highest step that passed (or
// of the lowest that failed when none passed) with the search in its Find
// section, and an error when a step could not run (the target failed, the
// run was interrupted): the report then covers the steps so far.
func (s *Search) Run(ctx context.Context) (*report.Report, error) {
	factor, precision, maxSteps := s.Factor, s.Precision, s.MaxSteps
	if !(factor > 1) {
		factor = 2
	}
	if !(precision > 0) {
		precision = 0.05
	}
	if maxSteps <= 0 {
		maxSteps = 20
	}
	rate := s.StartRate
	if !(rate > 0) {
		rate = float64(s.Scenario.Workload.Rate)
	}
	if !(rate > 0) {
		rate = DefaultStartRate
	}
	if s.MaxRate > 0 {
		rate = min(rate, s.MaxRate)
	}
	f := &report.Find{Rule: s.Rule.String()}
	var best, lowest *report.Report // highest passing step, lowest failing step
	lo, hi := 0.0, math.Inf(1)      // the highest rate that passed, the lowest that failed
	for n := 1; n <= maxSteps; n++ {
		rep, step, err := s.step(ctx, n, rate)
		if step != nil {
			f.Steps = append(f.Steps, *step)
		}
		if err != nil {
			return s.result(f, best, lowest, rep, lo, hi), err
		}
		if step.OK {
			lo, best = rate, rep
		} else if rate < hi {
			hi, lowest, f.LimitedBy = rate, rep, s.Rule.limitedBy(rep, step.Why)
		}
		next, done := nextRate(lo, hi, factor, precision, s.MaxRate)
		if done {
			break
		}
		rate = next
	}
	return s.result(f, best, lowest, nil, lo, hi), nil
}

// nextRate is the search's next rate given the highest rate that passed
// (lo, 0 for none) and the lowest that failed (hi, +Inf for none); done
// when the search is over.
func nextRate(lo, hi, factor, precision, maxRate float64) (float64, bool) {
	switch {
	case math.IsInf(hi, 1): // everything passed so far: go up
		if maxRate > 0 && lo >= maxRate {
			return 0, true
		}
		next := lo * factor
		if maxRate > 0 {
			next = min(next, maxRate)
		}
		return next, false
	case lo == 0: // everything failed so far: go down
		if hi/factor < minRate {
			return 0, true
		}
		return hi / factor, false
	case (hi-lo)/lo <= precision:
		return 0, true
	}
	return (lo + hi) / 2, false
}

// step runs the scenario at rate on a fresh table and judges it.
func (s *Search) step(ctx context.Context, n int, rate float64) (*report.Report, *report.FindStep, error) {
	if s.OnStep != nil {
		s.OnStep(n, rate, nil)
	}
	o := s.Overrides
	o.Rate = &rate
	spec, err := plan.Build(s.Scenario, s.Source, o)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: step %d at %s ops/s: %v", ErrSearch, n, textfit.Rate(rate), err)
	}
	c := s.Template
	c.Spec, c.Scheme, c.Table, c.SeedOnly, c.SkipSeed, c.Keep, c.Reuse = spec, s.Scheme, "", false, false, false, false
	res, runErr := Run(ctx, c)
	rep := c.Report(res, runErr, s.Meta)
	st := &report.FindStep{Rate: rate, OpsPerSec: rep.Totals.OpsPerSec, EntitiesPerSec: rep.Totals.EntitiesPerSec, P99: rep.Totals.Latency.P99}
	if t := rep.Totals; t.Requests > 0 {
		st.ThrottledPct = 100 * float64(t.Throttled) / float64(t.Requests)
	}
	if t := rep.Totals; t.Offered() > 0 {
		st.DroppedPct = 100 * float64(t.Dropped) / float64(t.Offered())
	}
	st.BusiestPeak, _ = rep.ThresholdValue("max_partition_peak", "")
	st.RequestUnitsPerSec, st.BusiestPeakUnits = rep.StepUnits()
	st.Why = s.Rule.judge(rep)
	st.OK = st.Why == ""
	if s.OnStep != nil {
		s.OnStep(n, rate, st)
	}
	if runErr != nil || rep.Interrupted {
		if runErr == nil {
			runErr = ErrInterrupted
		}
		return rep, st, fmt.Errorf("%w: step %d at %s ops/s: %w", ErrSearch, n, textfit.Rate(rate), runErr)
	}
	return rep, st, nil
}

// result attaches the search to the report it ends with.
func (s *Search) result(f *report.Find, best, lowest, last *report.Report, lo, hi float64) *report.Report {
	rep := best
	if rep == nil {
		rep = lowest
	}
	if rep == nil {
		rep = last
	}
	if rep == nil {
		return nil
	}
	if best != nil {
		f.LimitOpsPerSec, f.LimitEntitiesPerSec = lo, best.Totals.EntitiesPerSec
		f.LimitUnitsPerSec, _ = best.StepUnits()
	}
	if !math.IsInf(hi, 1) {
		f.FailedAtOpsPerSec = hi
	} else if best != nil && s.MaxRate > 0 && lo >= s.MaxRate {
		f.Ceiling = true
	}
	rep.Find = f
	return rep
}

// limitedBy names what stopped a failed step: when it was throttled beyond
// the rule, the partition target of a hot partition, or a limit shared by
// partitions (a range partition of append-only keys, a server or the
// account) when no partition reached its target; otherwise why it failed.
func (r StopRule) limitedBy(rep *report.Report, why string) string {
	r = r.withDefaults()
	t := rep.Totals
	if overDropped(t.Counts, r.MaxDropped) || t.Requests == 0 || float64(t.Throttled) <= r.MaxThrottled*float64(t.Requests) {
		return why
	}
	hot := report.HotPartitions(rep)
	switch {
	case len(hot) == 1:
		return fmt.Sprintf("%s (%s)", report.TargetName(rep), hot[0].PartitionKey)
	case len(hot) > 1:
		return fmt.Sprintf("%s (%d partitions)", report.TargetName(rep), len(hot))
	}
	return "throttled with no partition at its target: a range partition, server or account limit"
}
