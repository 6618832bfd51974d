package main

import (
	"bufio"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/promexport"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/session"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/textfit"
	"github.com/tablestress/tablestress/pkg/workload"
)

// cliSession is a session of pkg/session opened as the flags ask: a
// loaded scenario, built into a run with the flags, on an open target.
// It wires; the session runs.
type cliSession struct {
	*session.Session
	e    *env
	f    *runFlags
	spec *plan.Spec
	// source, scenario and overrides are what spec was built from (find
	// builds a spec per step from them).
	source    []byte
	scenario  *scenario.Scenario
	overrides plan.Overrides
	// prom serves live metrics (--metrics-addr), nil otherwise.
	prom *promexport.Exporter
	// close closes the session and stops serving metrics.
	close func()
}

func openSession(cmd *cobra.Command, e *env, path string, f *runFlags) (*cliSession, error) {
	s, source, err := loadScenario(e, path)
	if err != nil {
		return nil, err
	}
	o, err := f.overrides(cmd.Flags().Changed)
	if err != nil {
		return nil, err
	}
	spec, err := plan.Build(s, source, o)
	if err != nil {
		for _, e2 := range flatten(err) {
			fmt.Fprintln(e.stderr, e2)
		}
		return nil, usageError("the flags make the scenario invalid")
	}
	cs := &cliSession{e: e, f: f, spec: spec, source: source, scenario: s, overrides: o, close: func() {}}
	if f.runID == "" {
		f.runID = e.getenv("TABLESTRESS_RUN_ID")
	}
	opts, err := cs.options(cmd.Flags().Changed)
	if err != nil {
		return nil, err
	}
	if cs.Session, err = session.Open(opts); err != nil {
		return nil, sessionError(err)
	}
	cs.close = cs.Session.Close
	if err := cs.startMetrics(); err != nil {
		cs.close()
		return nil, err
	}
	return cs, nil
}

// options are the session the flags ask for: the target, its embedded
// service and clock, the confirmation a remote target needs, the run's
// settings and the live status line.
func (cs *cliSession) options(changed func(string) bool) (session.Options, error) {
	e, f := cs.e, cs.f
	tg, err := parseTarget(e, f.target)
	if err != nil {
		return session.Options{}, err
	}
	if err := checkTransport(f, tg, changed("embedded-transport")); err != nil {
		return session.Options{}, err
	}
	applyGC(e.getenv, tg.Kind == table.KindEmbedded)
	o := targetOptions(e, tg, f.clock, changed("clock"), f.embeddedTransport)
	if tg.Kind == table.KindEmbedded {
		if o.Embedded, err = embeddedConfig(cs.scenario, f); err != nil {
			return o, err
		}
	}
	o.Spec, o.Source, o.PartitionUnits = cs.spec, cs.source, f.partitionRU
	o.Before = func(tg table.Target) error { return admit(e, tg, cs.spec, f.yes, f.search) }
	o.Roots = func() (*x509.CertPool, error) { return trustedRoots(e, f) }
	o.Settings = session.Settings{Table: f.table, Reuse: f.reuseTable, Keep: f.keepTable, SkipSeed: f.skipSeed, Verify: f.verify,
		Reconnect: f.reconnect, DownAfter: f.downAfter, Grace: f.grace, RunID: f.runID, Hard: e.hard}
	o.SeedRequests, o.SeedPartitionEntities = f.seedPacing()
	o.Progress, o.Warn = progress(e, f.quiet), warn(e)
	if f.metrics != "" {
		o.Registry = func(scheme string, snap func() *metrics.Summary) {
			cs.prom.Set(cs.spec.Scenario.DisplayName(), scheme, string(cs.Target().Kind), snap)
		}
	}
	return o, nil
}

// targetOptions are the options every session of the command line shares:
// the target, how the embedded service is reached and started, the clock
// and the client's name.
func targetOptions(e *env, tg table.Target, clockWant string, clockGiven bool, transport string) session.Options {
	o := session.Options{Target: tg, Transport: transport, Clock: clockWant, ClockGiven: clockGiven, UserAgent: "tablestress/" + shortVersion()}
	if e.embed != nil {
		o.Start = e.embed
	}
	return o
}

// admit refuses what a target needs before it is loaded: find on a
// target not on this machine needs --max-rate, and loading one asks first
// unless yes.
func admit(e *env, tg table.Target, spec *plan.Spec, yes bool, search *searchFlags) error {
	if !tg.IsLoopback() && search != nil && !(search.maxRate > 0) {
		return usageError("find on a target that is not on this machine needs --max-rate: the highest rate it may offer")
	}
	if !tg.IsLoopback() && !yes {
		return confirm(e, tg, spec, search)
	}
	return nil
}

// progress is the live status line of each run (nothing when quiet), its
// phases measured for the collector's tuning.
func progress(e *env, quiet bool) func(string, clock.Clock, time.Duration, time.Duration) (workload.Events, func()) {
	return func(scheme string, c clock.Clock, warmup, window time.Duration) (workload.Events, func()) {
		live := newLive(e, quiet)
		live.onClock(c)
		return gcTuner.measure(live.events(scheme, span{warmup, window})), live.done
	}
}

// warn prints a warning of the session's on stderr.
func warn(e *env) func(error) {
	return func(err error) { fmt.Fprintln(e.stderr, "warning:", err) }
}

// sessionError gives an error of session.Open its exit code: a clock that
// cannot be is said of --clock (usage); the callbacks' errors keep their
// own; the rest is the target's failure.
func sessionError(err error) error {
	var ce *session.ClockError
	var coded *exitError
	switch {
	case errors.As(err, &ce) && ce.Why == "":
		return usageError("--clock: %q is neither %s nor %s", ce.Want, session.ClockVirtual, session.ClockWall)
	case errors.As(err, &ce):
		return usageError("--clock %s: %s", ce.Want, ce.Why)
	case errors.As(err, &coded):
		return err
	}
	return withCode(exitFailure, err)
}

// startMetrics serves the session's metrics at --metrics (nothing when it
// is unset); closing the session stops serving them.
func (cs *cliSession) startMetrics() error {
	if cs.f.metrics == "" {
		return nil
	}
	exp, stop, err := serveMetrics(cs.e, cs.f.metrics)
	if err != nil {
		return err
	}
	cs.prom = exp
	prev := cs.close
	cs.close = func() { stop(); prev() }
	return nil
}

// flatten lists the errors of an errors.Join, or err alone.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// confirm prints the plan for a remote target and asks before loading it.
func confirm(e *env, tg table.Target, sp *plan.Spec, search *searchFlags) error {
	plan := fmt.Sprintf("tablestress is about to load %s\n  seed %s entities, then run %v (after a %v warm-up)", tg, textfit.Int(sp.Entities), sp.Duration, sp.Warmup)
	switch {
	case search != nil:
		plan = fmt.Sprintf("tablestress is about to search for the highest rate %s sustains\n  up to %d steps, each seeding %s entities into a fresh table and running %v (after a %v warm-up), at up to %s ops/s",
			tg, search.maxSteps, textfit.Int(sp.Entities), sp.Duration, sp.Warmup, textfit.Rate(search.maxRate))
	case !sp.Load.Open:
		plan += fmt.Sprintf(" closed loop with %d workers", sp.Workers)
	case len(sp.Load.Stages) > 0:
		var peak float64
		for _, st := range sp.Load.Stages {
			peak = max(peak, st.Target)
		}
		plan += fmt.Sprintf(" in %d stages up to %s ops/s", len(sp.Load.Stages), textfit.Rate(peak))
	default:
		plan += fmt.Sprintf(" at %s ops/s (about %s operations)", textfit.Rate(sp.Load.Rate), textfit.Int(int64(sp.Load.Rate*sp.Duration.Seconds())))
	}
	fmt.Fprintln(e.stderr, plan)
	if !e.isTerminal {
		return usageError("refusing to load a target that is not on this machine without --yes")
	}
	fmt.Fprint(e.stderr, "proceed? [y/N] ")
	line, _ := bufio.NewReader(e.stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return usageError("not confirmed")
	}
	return nil
}

// schemeIndex resolves --scheme for run and seed (default: the first).
func (ss *cliSession) schemeIndex() (int, error) {
	i, err := ss.spec.Scheme(ss.f.scheme)
	if err != nil {
		return 0, schemeFlagError(err)
	}
	return i, nil
}

// schemes resolves --scheme for compare and find (default: all).
func (ss *cliSession) schemes() ([]int, error) {
	return selectSchemes(ss.scenario, ss.f.scheme)
}

// selectSchemes is plan.SelectSchemes with its error said of --scheme.
func selectSchemes(s *scenario.Scenario, name string) ([]int, error) {
	idx, err := plan.SelectSchemes(s, name)
	if err != nil {
		return nil, schemeFlagError(err)
	}
	return idx, nil
}

// schemeFlagError says of --scheme that it names no scheme of the scenario.
func schemeFlagError(err error) error { return usageError("--scheme: %s", message(err)) }

// runScheme runs one scheme and builds its report; a run that could not
// end on the virtual clock is a failure with no report.
func (cs *cliSession) runScheme(ctx context.Context, i int, seedOnly bool) (*report.Report, *workload.Result, error) {
	rep, res, err := cs.Run(ctx, i, seedOnly)
	if rep == nil {
		return nil, nil, withCode(exitFailure, err)
	}
	return rep, res, err
}
