package session

import (
	"context"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/workload"
)

// Run opens a session of o, runs the schemes idx of o.Spec (every scheme
// when idx is empty) one after another on the same entity stream, and
// closes it: the reports of the runs made, the names of the schemes not
// run (after a failure or when ctx ended), and the error. A session that
// could not open returns its error and no report.
func Run(ctx context.Context, o Options, idx ...int) ([]*report.Report, []string, error) {
	ss, err := Open(o)
	if err != nil {
		return nil, nil, err
	}
	defer ss.Close()
	if len(idx) == 0 {
		for i := range o.Spec.Schemes {
			idx = append(idx, i)
		}
	}
	reps, left, _, err := ss.RunSchemes(ctx, idx)
	return reps, left, err
}

// RunSchemes runs the schemes idx of the session's spec one after another
// until ctx ends or a run fails. It returns the reports, the names of the
// schemes it did not run, the names of all it was to run, and the error.
func (ss *Session) RunSchemes(ctx context.Context, idx []int) (reps []*report.Report, left, all []string, err error) {
	for _, i := range idx {
		all = append(all, ss.o.Spec.Schemes[i].Name)
	}
	for k, i := range idx {
		if ctx.Err() != nil {
			return reps, all[k:], all, nil
		}
		rep, _, err := ss.Run(ctx, i, false)
		if rep == nil {
			return reps, all[k:], all, err
		}
		reps = append(reps, rep)
		if err != nil {
			return reps, all[k+1:], all, err
		}
	}
	return reps, nil, all, nil
}

// Run runs scheme i of the session's spec (its seed phase alone when
// seedOnly) and builds its report. The report is nil only when the run
// could not end on the session's virtual clock; else a failed run's
// report says what was measured until it failed, beside the error.
func (ss *Session) Run(ctx context.Context, i int, seedOnly bool) (*report.Report, *workload.Result, error) {
	sp := ss.o.Spec
	var ev workload.Events
	done := func() {}
	if ss.o.Progress != nil {
		ev, done = ss.o.Progress(sp.Schemes[i].Name, ss.Clock(), sp.Warmup, sp.Duration)
	}
	c := ss.Config(i, seedOnly, ev)
	var res *workload.Result
	var err error
	if cerr := ss.OnClock(func() { res, err = workload.Run(ctx, c) }); cerr != nil {
		return nil, nil, cerr
	}
	done()
	if res.Cleanup != nil && ss.o.Warn != nil {
		ss.o.Warn(res.Cleanup)
	}
	return c.Report(res, err, ss.Meta()), res, err
}

// Config is the run of scheme i as the options ask, watched by ev.
func (ss *Session) Config(i int, seedOnly bool, ev workload.Events) workload.Config {
	o, sp := ss.o, ss.o.Spec
	svc := workload.TableService{Service: ss.svc}
	if ss.embedded != nil {
		svc.Measured, svc.Local = ss.embedded.Server, ss.embedded.Server
	}
	c := workload.Config{Spec: sp, Scheme: i, Service: svc,
		Table: o.Table, Reuse: o.Reuse, Keep: o.Keep, SeedOnly: seedOnly, SkipSeed: o.SkipSeed, Verify: o.Verify,
		Reconnect: o.Reconnect, DownAfter: o.DownAfter, Grace: o.Grace, Hard: o.Hard, Events: ev,
		SeedLimits:     workload.SeedLimitsFor(ss.target, o.SeedRequests, o.SeedPartitionEntities),
		PartitionUnits: ss.units, Clock: ss.Clock()}
	if o.Registry != nil {
		scheme := sp.Schemes[i].Name
		c.OnRegistry = func(reg *metrics.Registry) {
			o.Registry(scheme, func() *metrics.Summary { return reg.Snapshot(c.Clock.Now()) })
		}
	}
	return c
}

// Meta is what the reports say about the target and the run.
func (ss *Session) Meta() workload.Meta {
	return workload.Meta{Target: report.Target{Kind: string(ss.target.Kind), Endpoint: ss.target.Where()}, RunID: ss.o.RunID,
		Source: string(ss.o.Source), Model: ss.model, InProcess: ss.target.InProcess, Virtual: ss.vclock != nil}
}

// Clock is the session's clock: virtual or the wall's.
func (ss *Session) Clock() clock.Clock {
	if ss.vclock != nil {
		return ss.vclock
	}
	return clock.Wall{}
}

// OnClock runs f on the session's clock: on a virtual clock, as its first
// goroutine, driving the clock until every goroutine f started has ended.
// It returns the clock's error (a run that could not end).
func (ss *Session) OnClock(f func()) error {
	if ss.vclock == nil {
		f()
		return nil
	}
	return ss.vclock.Run(f)
}

// Spec is the compiled run the session runs.
func (ss *Session) Spec() *plan.Spec { return ss.o.Spec }

// Target is the target as reached (the embedded one bound to its
// service).
func (ss *Session) Target() table.Target { return ss.target }

// Model is the embedded service's model spec ("" for another target).
func (ss *Session) Model() string { return ss.model }

// Server is the embedded service, nil for another target.
func (ss *Session) Server() *emulator.Server {
	if ss.embedded == nil {
		return nil
	}
	return ss.embedded.Server
}
