package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/promexport"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/threshold"
	"github.com/tablestress/tablestress/pkg/workload"
)

// session is a loaded scenario and an open target, shared by run, compare
// and seed.
type session struct {
	e       *env
	s       *scenario.Scenario
	source  string
	f       *runFlags
	target  table.Target
	svc     *table.Service
	pop     *keygen.Population
	schemes []*keygen.Scheme
	close   func()
	// embedded is the in-process service when the target is embedded.
	embedded *emulator.Instance
	// faults is the embedded service's fault injection for the run phase.
	faults faults.Config
	// prom serves live metrics (--metrics-addr), nil otherwise.
	prom *promexport.Exporter
}

func openSession(cmd *cobra.Command, e *env, path string, f *runFlags) (*session, error) {
	s, err := loadScenario(e, path)
	if err != nil {
		return nil, err
	}
	if err := f.apply(s, cmd.Flags().Changed); err != nil {
		return nil, err
	}
	if errs := s.Validate(); len(errs) > 0 {
		for _, err := range errs {
			fmt.Fprintln(e.stderr, err)
		}
		return nil, usageError("the flags make the scenario invalid")
	}
	pop, schemes, err := s.Compile()
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	src, _ := os.ReadFile(path)
	ss := &session{e: e, s: s, source: string(src), f: f, pop: pop, schemes: schemes, close: func() {}}
	spec := f.target
	if spec == "" {
		spec = e.getenv("TABLESTRESS_TARGET")
	}
	tg, err := table.ParseTarget(spec)
	if err != nil {
		return nil, usageError("--target: %v", err)
	}
	if tg.Kind == table.KindEmbedded {
		in, stop, err := startEmbedded(s, f)
		if err != nil {
			return nil, err
		}
		ss.close, ss.embedded = stop, in
		if ec, err := embeddedConfig(s, f); err == nil {
			ss.faults = ec.Faults
		}
		if tg, err = table.BindEmbedded(in.ConnectionString()); err != nil {
			stop()
			return nil, err
		}
	}
	if !tg.IsLoopback() && !f.yes {
		if err := confirm(e, tg, s); err != nil {
			ss.close()
			return nil, err
		}
	}
	svc, err := table.Open(tg, table.Options{Workers: s.Workload.Workers, Timeout: s.Workload.Timeout.D(), UserAgent: "tablestress/" + version})
	if err != nil {
		ss.close()
		return nil, withCode(exitFailure, err)
	}
	ss.target, ss.svc = tg, svc
	stopEmb := ss.close
	ss.close = func() { svc.Close(); stopEmb() }
	if f.metrics != "" {
		exp, stop, err := serveMetrics(e, f.metrics)
		if err != nil {
			ss.close()
			return nil, err
		}
		ss.prom = exp
		prev := ss.close
		ss.close = func() { stop(); prev() }
	}
	return ss, nil
}

// confirm prints the plan for a remote target and asks before loading it.
func confirm(e *env, tg table.Target, s *scenario.Scenario) error {
	w := s.Workload
	plan := fmt.Sprintf("tablestress is about to load %s\n  seed %d entities, then run %v", tg, int64(s.Population.Entities), w.Duration.D())
	if w.Rate > 0 {
		plan += fmt.Sprintf(" at %.0f ops/s (about %.0f operations)", float64(w.Rate), float64(w.Rate)*w.Duration.D().Seconds())
	} else {
		plan += fmt.Sprintf(" closed loop with %d workers", w.Workers)
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

// schemeIndex resolves --scheme.
func (ss *session) schemeIndex() (int, error) {
	if ss.f.scheme == "" {
		return 0, nil
	}
	i, err := ss.s.Scheme(ss.f.scheme)
	if err != nil {
		return 0, usageError("--scheme: %v", err)
	}
	return i, nil
}

// runScheme runs one scheme and builds its report.
func (ss *session) runScheme(ctx context.Context, i int, seedOnly bool) (*report.Report, *workload.Result, error) {
	s, w := ss.s, ss.s.Workload
	grace := ss.f.grace
	if grace == 0 {
		grace = w.Timeout.D()
	}
	var stages []workload.Stage
	for _, st := range w.Stages {
		stages = append(stages, workload.Stage{Duration: st.Duration.D(), Target: float64(st.Rate)})
	}
	live := newLive(ss.e, ss.f.quiet)
	cfg := workload.Config{
		Scenario: s, Pop: ss.pop, Scheme: ss.schemes[i], Service: workload.TableService{Service: ss.svc},
		Table: ss.f.table, Reuse: ss.f.reuseTable, Keep: ss.f.keepTable, SeedOnly: seedOnly, Verify: ss.f.verify,
		Reconnect: ss.f.reconnect, DownAfter: ss.f.downAfter,
		Seed: s.Seed, Entities: int64(s.Population.Entities), Duration: w.Duration.D(), Warmup: w.Warmup.D(),
		MaxOps: int64(w.MaxOperations), Workers: w.Workers, Rate: float64(w.Rate), Stages: stages,
		Retry: workload.NewRetrier(w.Retry), Grace: grace, PartitionTarget: workload.PartitionTarget,
		Hard: ss.e.hard, Events: live.events(ss.schemes[i].Name),
	}
	if abort := abortThresholds(s); len(abort) > 0 {
		cfg.Abort = func(sum *metrics.Summary) string {
			live := report.Build(report.Meta{Run: report.RunInfo{PartitionTarget: workload.PartitionTarget}}, sum)
			for _, th := range abort {
				if obs, ok := th.Eval(live); !ok {
					return fmt.Sprintf("threshold %q failed during the run (observed %g%s)", th.Expr, obs, th.Unit())
				}
			}
			return ""
		}
	}
	if in := ss.embedded; in != nil {
		// The seed phase is setup, not measurement: on the embedded
		// service it runs with the partition model paused. (Against Azure
		// it is throttled like anything else, and retried.)
		// Fault injection likewise applies to the run phase only.
		show, faultCfg := cfg.Events.Phase, ss.faults
		cfg.Events.Phase = func(p string) {
			in.PauseModel(p != "run")
			if p == "run" {
				in.SetFaults(faultCfg)
			} else {
				in.SetFaults(faults.Config{})
			}
			if show != nil {
				show(p)
			}
		}
	}
	if ss.f.shard != "" {
		cfg.Shard, cfg.Shards, _ = parseShard(ss.f.shard)
	}
	if ss.prom != nil {
		scheme := ss.schemes[i].Name
		cfg.OnRegistry = func(reg *metrics.Registry) {
			ss.prom.Set(s.DisplayName(), scheme, string(ss.target.Kind), func() *metrics.Summary { return reg.Snapshot(time.Now()) })
		}
	}
	res, err := workload.Run(ctx, cfg)
	live.done()
	mode := "closed"
	if w.Rate > 0 || len(w.Stages) > 0 {
		mode = "open"
	}
	failure := res.Failure
	if err != nil && failure == "" {
		failure = err.Error()
	}
	rep := report.Build(report.Meta{
		Scenario: s.DisplayName(), Scheme: ss.schemes[i].Name,
		Target: report.Target{Kind: string(ss.target.Kind), Endpoint: ss.target.Endpoint},
		Table:  res.Table,
		Run: report.RunInfo{Mode: mode, Workers: w.Workers, Rate: float64(w.Rate), WarmupS: w.Warmup.D().Seconds(), Seed: s.Seed,
			Retry: w.Retry.String(), PartitionTarget: workload.PartitionTarget, Shard: ss.f.shard},
		Seed: report.SeedInfo{Entities: res.Seed.Entities, Rows: res.Seed.Rows, Partitions: res.Seed.Partitions,
			DurationS: res.Seed.Duration.Seconds(), Throttled: res.Seed.Throttled},
		Interrupted: res.Interrupted, Aborted: res.Aborted, Failure: failure, ScenarioSource: ss.source,
		Verify: verifyReport(res.Verify), Outages: outages(res.Outages),
	}, res.Summary)
	if res.Cleanup != nil {
		fmt.Fprintln(ss.e.stderr, "warning:", res.Cleanup)
	}
	if res.Summary != nil {
		if _, terr := rep.EvaluateThresholds(s.Exprs()); terr != nil {
			return rep, res, withCode(exitUsage, terr)
		}
	}
	return rep, res, err
}

// abortThresholds returns the thresholds to check during the run.
func abortThresholds(s *scenario.Scenario) []threshold.Threshold {
	var out []threshold.Threshold
	for _, t := range s.Thresholds {
		if t.AbortOnFail {
			if th, err := threshold.Parse(t.Expr, scenario.Ops); err == nil {
				out = append(out, th)
			}
		}
	}
	return out
}

func verifyReport(v *workload.VerifyResult) *report.Verify {
	if v == nil {
		return nil
	}
	return &report.Verify{Checked: v.Checked, Missing: v.Missing, Mismatched: v.Mismatched, Resurrected: v.Resurrect,
		Unreadable: v.Unreadable, Examples: v.Examples}
}

func outages(os []workload.Outage) []report.Outage {
	var out []report.Outage
	for _, o := range os {
		out = append(out, report.Outage{StartS: o.Start.Seconds(), EndS: o.End.Seconds(), Cause: o.Cause})
	}
	return out
}
