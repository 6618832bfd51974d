package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/promexport"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/textfit"
	"github.com/tablestress/tablestress/pkg/workload"
)

// session is a loaded scenario, built into a run with the flags, and an
// open target: what run, compare and seed share. It wires; the run itself
// is decided by plan.Build and driven by workload.Run.
type session struct {
	e      *env
	f      *runFlags
	spec   *plan.Spec
	source []byte
	// scenario and overrides are what spec was built from (find builds a
	// spec per step from them).
	scenario  *scenario.Scenario
	overrides plan.Overrides
	target    table.Target
	svc       *table.Service
	close     func()
	// embedded is the in-process service when the target is embedded.
	embedded *emulator.Server
	// model is the embedded service's model spec, for the reports.
	model string
	// partitionUnits is the RU/s a charged partition is judged against:
	// --partition-ru, or the embedded cosmos model's physical partition
	// share.
	partitionUnits float64
	// prom serves live metrics (--metrics-addr), nil otherwise.
	prom *promexport.Exporter
	// vclock is the virtual clock the session lives on (--clock), nil on
	// the wall clock.
	vclock *clock.Virtual
	// clockGiven says --clock was set.
	clockGiven bool
}

func openSession(cmd *cobra.Command, e *env, path string, f *runFlags) (*session, error) {
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
	ss := &session{e: e, f: f, spec: spec, source: source, scenario: s, overrides: o, close: func() {}, clockGiven: cmd.Flags().Changed("clock")}
	if f.runID == "" {
		f.runID = e.getenv("TABLESTRESS_RUN_ID")
	}
	tg, err := parseTarget(e, f.target)
	if err != nil {
		return nil, err
	}
	if err := checkTransport(f, tg, cmd.Flags().Changed("embedded-transport")); err != nil {
		return nil, err
	}
	applyGC(e.getenv, tg.Kind == table.KindEmbedded)
	var reach reachFuncs
	if tg.Kind == table.KindEmbedded {
		if tg, reach, err = ss.startEmbedded(s); err != nil {
			return nil, err
		}
	} else if _, err := chooseClock(f.clock, ss.clockGiven, tg, false, emulator.Config{}); err != nil {
		return nil, err
	}
	if !tg.IsLoopback() && f.search != nil && !(f.search.maxRate > 0) {
		return nil, usageError("find on a target that is not on this machine needs --max-rate: the highest rate it may offer")
	}
	if !tg.IsLoopback() && !f.yes {
		if err := confirm(e, tg, spec, f.search); err != nil {
			ss.close()
			return nil, err
		}
	}
	if f.partitionRU > 0 {
		ss.partitionUnits = f.partitionRU
	}
	if err := ss.open(tg, reach); err != nil {
		ss.close()
		return nil, err
	}
	if err := ss.startMetrics(); err != nil {
		ss.close()
		return nil, err
	}
	return ss, nil
}

// startMetrics serves the session's metrics at --metrics (nothing when it
// is unset); closing the session stops serving them.
func (ss *session) startMetrics() error {
	if ss.f.metrics == "" {
		return nil
	}
	exp, stop, err := serveMetrics(ss.e, ss.f.metrics)
	if err != nil {
		return err
	}
	ss.prom = exp
	prev := ss.close
	ss.close = func() { stop(); prev() }
	return nil
}

// dialFunc connects to the service (nil: over the network).
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// reachFuncs is how the client reaches a service other than by the
// network: dial opens its connections, or rt carries its requests (the
// embedded service in process).
type reachFuncs struct {
	dial dialFunc
	rt   http.RoundTripper
}

// startEmbedded starts the embedded service the flags or the scenario
// describe and returns the target bound to it and how to reach it; the
// session's close then stops it.
func (ss *session) startEmbedded(s *scenario.Scenario) (table.Target, reachFuncs, error) {
	cfg, err := embeddedConfig(s, ss.f)
	if err != nil {
		return table.Target{}, reachFuncs{}, err
	}
	embedded := table.Target{Kind: table.KindEmbedded}
	// A service started by e.embed (the tests' own) is reached however
	// that says, on its own clock.
	inProcess := ss.f.embeddedTransport == transportInProcess && ss.e.embed == nil
	if ss.vclock, err = chooseClock(ss.f.clock, ss.clockGiven, embedded, inProcess, cfg); err != nil {
		return table.Target{}, reachFuncs{}, err
	}
	if ss.vclock != nil {
		cfg.Clock = ss.vclock
	}
	start := func(cfg emulator.Config) (*embeddedService, error) { return startEmbedded(cfg, ss.f.embeddedTransport) }
	if ss.e.embed != nil {
		start = ss.e.embed
	}
	es, err := start(cfg)
	if err != nil {
		return table.Target{}, reachFuncs{}, err
	}
	ss.close, ss.embedded, ss.model = es.stop, es.server, cfg.Model.String()
	if cfg.Model.ChargesUnits() && ss.f.partitionRU == 0 {
		ss.partitionUnits = cfg.Model.Cosmos.PartitionShare()
	}
	tg, err := table.BindEmbedded(es.conn)
	if err != nil {
		es.stop()
		return table.Target{}, reachFuncs{}, withCode(exitFailure, err)
	}
	tg.InProcess = es.rt != nil
	return tg, reachFuncs{dial: es.dial, rt: es.rt}, nil
}

// open connects the session to the target, trusting --ca-file's
// certificates; the session's close then closes the connection too.
func (ss *session) open(tg table.Target, reach reachFuncs) error {
	roots, err := trustedRoots(ss.e, ss.f)
	if err != nil {
		return err
	}
	svc, err := table.Open(tg, table.Options{Workers: ss.spec.Workers, Timeout: ss.spec.Timeout, UserAgent: "tablestress/" + shortVersion(), RootCAs: roots, Dial: reach.dial, RoundTripper: reach.rt, Clock: ss.clock()})
	if err != nil {
		return withCode(exitFailure, err)
	}
	ss.target, ss.svc = tg, svc
	stopEmb := ss.close
	ss.close = func() { svc.Close(); stopEmb() }
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
func (ss *session) schemeIndex() (int, error) {
	i, err := ss.spec.Scheme(ss.f.scheme)
	if err != nil {
		return 0, schemeFlagError(err)
	}
	return i, nil
}

// schemes resolves --scheme for compare and find (default: all).
func (ss *session) schemes() ([]int, error) {
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

// config is the run of scheme i as the flags ask.
func (ss *session) config(i int, seedOnly bool, live *live) workload.Config {
	f := ss.f
	live.onClock(ss.clock())
	svc := workload.TableService{Service: ss.svc}
	if ss.embedded != nil {
		svc.Measured, svc.Local = ss.embedded, ss.embedded
	}
	c := workload.Config{Spec: ss.spec, Scheme: i, Service: svc,
		Table: f.table, Reuse: f.reuseTable, Keep: f.keepTable, SeedOnly: seedOnly, SkipSeed: f.skipSeed, Verify: f.verify,
		Reconnect: f.reconnect, DownAfter: f.downAfter, Grace: f.grace, SeedLimits: f.seedLimits(ss.target), Hard: ss.e.hard, Events: gcTuner.measure(live.events(ss.spec.Schemes[i].Name, span{ss.spec.Warmup, ss.spec.Duration})),
		PartitionUnits: ss.partitionUnits, Clock: ss.clock()}
	if ss.prom != nil {
		scheme := ss.spec.Schemes[i].Name
		c.OnRegistry = func(reg *metrics.Registry) {
			ss.prom.Set(ss.spec.Scenario.DisplayName(), scheme, string(ss.target.Kind), func() *metrics.Summary { return reg.Snapshot(c.Clock.Now()) })
		}
	}
	return c
}

// meta is what the reports say about the target and the run.
func (ss *session) meta() workload.Meta {
	return workload.Meta{Target: report.Target{Kind: string(ss.target.Kind), Endpoint: ss.target.Where()}, RunID: ss.f.runID, Source: string(ss.source), Model: ss.model,
		InProcess: ss.target.InProcess, Virtual: ss.vclock != nil}
}

// clock is the session's clock.
func (ss *session) clock() clock.Clock {
	if ss.vclock != nil {
		return ss.vclock
	}
	return clock.Wall{}
}

// onClock runs f on the session's clock: on a virtual clock, as its first
// goroutine, driving the clock until every goroutine f started has ended.
// It returns the clock's error (a run that could not end).
func (ss *session) onClock(f func()) error {
	if ss.vclock == nil {
		f()
		return nil
	}
	return ss.vclock.Run(f)
}

// runScheme runs one scheme and builds its report.
func (ss *session) runScheme(ctx context.Context, i int, seedOnly bool) (*report.Report, *workload.Result, error) {
	live := newLive(ss.e, ss.f.quiet)
	c := ss.config(i, seedOnly, live)
	var res *workload.Result
	var err error
	cerr := ss.onClock(func() { res, err = workload.Run(ctx, c) })
	if cerr != nil {
		return nil, nil, withCode(exitFailure, cerr)
	}
	live.done()
	if res.Cleanup != nil {
		fmt.Fprintln(ss.e.stderr, "warning:", res.Cleanup)
	}
	rep := c.Report(res, err, ss.meta())
	return rep, res, err
}
