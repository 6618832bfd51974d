package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/percent"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
	"github.com/tablestress/tablestress/pkg/workload"
)

func init() { extraCommands = append(extraCommands, newFindCmd) }

// searchFlags are find's own flags (also compare --find's).
type searchFlags struct {
	rateText, throttledText string
	maxP99                  time.Duration
	maxSteps                int
	// maxRate (ops/s, 0: none) and maxThrottled (a share) are parsed from
	// the texts.
	maxRate, maxThrottled float64
}

func (s *searchFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.rateText, "max-rate", "", "the highest rate (operations/s) a step may offer; required for a target not on this machine")
	fs.DurationVar(&s.maxP99, "max-p99", workload.DefaultMaxP99, "a step fails when its p99 latency is over this (unless the scenario has thresholds)")
	fs.StringVar(&s.throttledText, "max-throttled", "1%", "a step fails when more than this share of its requests is throttled (unless the scenario has thresholds)")
	fs.IntVar(&s.maxSteps, "max-steps", 20, "the most steps the search runs")
}

// parse checks the flags.
func (s *searchFlags) parse() error {
	if s.rateText != "" {
		r, err := scenario.ParseRate(s.rateText)
		if err != nil || !(r > 0) {
			return usageError("--max-rate: want a rate above 0, like 5000 or 5000/s")
		}
		s.maxRate = r
	}
	p, err := percent.Range{Min: 0, MinOpen: true, Max: 100, MaxOpen: true}.Fraction(s.throttledText)
	if err != nil {
		return usageError("--max-throttled: %s", percent.Reason(err))
	}
	s.maxThrottled = p
	if s.maxSteps < 1 {
		return usageError("--max-steps must be at least 1")
	}
	return nil
}

func newFindCmd(e *env) *cobra.Command {
	f := &runFlags{}
	sf := &searchFlags{}
	cmd := &cobra.Command{
		Use:   "find SCENARIO",
		Short: "Find the highest rate each key scheme sustains before the target pushes back",
		Long: azureText(`find answers the question a partition stress test ends with: how much load
does this scheme sustain? For each scheme of the scenario (or --scheme) it runs
the workload in steps, each on a fresh table, seeded, warmed up and measured for
--duration, at an offered rate that doubles while steps pass (from --rate, or the
scenario's rate), then bisects between the highest rate that passed and the
lowest that failed until they are within 5%.

A step fails when the scenario's thresholds fail, or, when it has none, when
more than --max-throttled of its requests are throttled or its p99 is over
--max-p99; and always when more than 1% of its operations are dropped (the
client could not offer the rate). It stops by itself at --max-rate, after
--max-steps, or when the bisection closes. The result says what limited each
scheme (a partition's {partition} entities/s target, a limit shared by partitions,
latency, or a client limit: this machine ran out of CPU or workers before the
target pushed back, with the rate it sustained and what would help: --workers,
shards, a larger machine) and is in the JSON report's "find" section: the
report is the run at the highest rate that passed.

A target that is not on this machine needs --max-rate, and asks before it is
loaded (--yes skips the question).`),
		Example: `  tablestress find scenarios/hot-partition.yaml
  tablestress find scenarios/hot-partition.yaml --scheme constant --duration 5s --out limit.json
  tablestress find my.yaml --target "$TABLESTRESS_TARGET" --max-rate 5000 --yes`,
		Args: oneScenario("find"),
		RunE: func(cmd *cobra.Command, args []string) error {
			reps, err := findSchemes(cmd, e, args[0], f, sf)
			return finish(e, f, reps, err)
		},
	}
	f.register(cmd.Flags(), true)
	sf.register(cmd.Flags())
	cmd.RunE = withJUnit(e, f, cmd.RunE)
	return cmd
}

// findSchemes runs the search for every scheme of the scenario (or --scheme).
func findSchemes(cmd *cobra.Command, e *env, path string, f *runFlags, sf *searchFlags) ([]*report.Report, error) {
	if err := sf.parse(); err != nil {
		return nil, err
	}
	for _, name := range []string{"table", "keep-table", "reuse-table", "skip-seed", "shard", "verify"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return nil, usageError("--%s does not apply to find: every step runs on a fresh table", name)
		}
	}
	f.search = sf
	ss, err := openSession(cmd, e, path, f)
	if err != nil {
		return nil, err
	}
	defer ss.close()
	idx, err := ss.schemes()
	if err != nil {
		return nil, err
	}
	var start float64
	if ss.overrides.Rate != nil {
		start = *ss.overrides.Rate
	}
	o := ss.overrides
	o.Rate = nil
	rule := workload.StopRule{Thresholds: len(ss.scenario.Thresholds) > 0, MaxThrottled: sf.maxThrottled, MaxP99: sf.maxP99}
	var reps []*report.Report
	for _, i := range idx {
		sch := ss.spec.Schemes[i]
		if cmd.Context().Err() != nil {
			break
		}
		live := newLive(e, f.quiet)
		live.phases = false
		live.onClock(ss.Clock())
		ev := gcTuner.measure(live.events(sch.Name, span{ss.spec.Warmup, ss.spec.Duration}))
		search := &workload.Search{Scenario: ss.scenario, Source: ss.source, Overrides: o, Scheme: i,
			Template: ss.Config(i, false, ev), Meta: ss.Meta(), StartRate: start, MaxRate: sf.maxRate,
			MaxSteps: sf.maxSteps, Rule: rule, OnStep: live.step(sch.Name)}
		var rep *report.Report
		cerr := ss.OnClock(func() { rep, err = search.Run(cmd.Context()) })
		live.done()
		if cerr != nil {
			return reps, withCode(exitFailure, cerr)
		}
		if rep != nil {
			reps = append(reps, rep)
		}
		if err != nil {
			return reps, err
		}
	}
	return reps, nil
}

// finish prints what find found and writes the files: one scheme's report
// with its search, or a comparison of the schemes' limits.
func finish(e *env, f *runFlags, reps []*report.Report, runErr error) error {
	if len(reps) == 0 {
		return runErr
	}
	var err error
	switch {
	case f.format == "json" && len(reps) == 1:
		err = report.WriteJSON(e.stdout, f.jsonReport(reps[0]))
	case f.format == "json":
		err = report.WriteJSON(e.stdout, f.jsonCompare(&report.Compare{Schema: report.SchemaCompare, Scenario: reps[0].Scenario, Runs: reps}))
	case len(reps) == 1:
		err = report.WriteTextStyle(e.stdout, reps[0], e.style())
	default:
		err = report.WriteCompareStyle(e.stdout, reps, e.style())
	}
	if err != nil {
		return err
	}
	if err := emitFiles(f, reps...); err != nil {
		return err
	}
	if runErr != nil {
		if errors.Is(runErr, workload.ErrInterrupted) || errors.Is(runErr, workload.ErrSearch) {
			return withCode(exitFailure, runErr)
		}
		return runErr
	}
	return nil
}

// step shows each step of a search: its rate as it starts, its result when
// it ends.
func (l *live) step(scheme string) func(int, float64, *report.FindStep) {
	if l.quiet {
		return nil
	}
	return func(n int, rate float64, st *report.FindStep) {
		head := fmt.Sprintf("[%s] step %d at %s ops/s", scheme, n, textfit.Rate(rate))
		if st == nil {
			l.keep(head, textfit.NoColor)
			return
		}
		res := fmt.Sprintf(": %s entities/s, %s%% throttled: ok", textfit.Rate(st.EntitiesPerSec), textfit.Float(textfit.Round2(st.ThrottledPct)))
		c := textfit.Green
		if !st.OK {
			res, c = ": FAIL: "+st.Why, textfit.Red
		}
		l.keep(head+res, c)
	}
}
