package main

import (
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/session"
	"github.com/tablestress/tablestress/pkg/table"
)

// prove runs the proof as a library call: the proof's scenario, a value
// (advise.ProofScenarioValue: the scenario with the schemes to prove, at
// the peak, under the advised model), is compiled and its schemes run on
// the target on the same entity stream (session.Run), as compare runs
// them; then the proof judges the reports. The proof's file
// (--save-proof) is the reports' record of the scenario run.
func prove(cmd *cobra.Command, e *env, af *adviseFlags, a *advise.Advice, p *advise.Proof, source []byte) (*advise.Proof, error) {
	src, err := proofScenario(af, a, p, source)
	if err != nil {
		return nil, err
	}
	if !af.quiet {
		fmt.Fprintf(e.stderr, "proving %s: %s on the same entity stream at %s ops/s, %gs each after a %gs warm-up\n",
			p.Schemes[0].Scheme, schemeNames(p), fmtRate(p.Rate), p.DurationS, p.WarmupS)
	}
	var reps []*report.Report
	opts, err := proofOptions(e, af, a, p, src)
	if err == nil {
		reps, _, err = session.Run(cmd.Context(), opts)
		err = sessionError(err)
	}
	if cmd.Context().Err() != nil {
		// Stopped at a signal: an interrupted proof proves nothing, so it
		// is neither judged nor a reason to withdraw the advice.
		if err == nil {
			err = errors.New("interrupted: the proof's runs stopped at the signal")
		}
		return nil, errProofInterrupted{err}
	}
	byName := map[string]*report.Report{}
	for _, r := range reps {
		byName[r.Scheme] = r
	}
	if len(reps) > 0 {
		proofClock(p, reps)
		if af.proofOut != "" {
			if werr := emitFiles(&runFlags{out: af.proofOut}, reps...); werr != nil && err == nil {
				err = werr
			}
		}
	}
	p.Judge(byName)
	return p, err
}

// proofClock records what the proof's runs lived on: the target, the
// clock, and the least virtual time per wall second of its runs.
func proofClock(p *advise.Proof, reps []*report.Report) {
	p.Target = reps[0].Target.Kind
	p.Clock, p.VirtualPerWall = reps[0].Run.Clock, reps[0].Run.VirtualPerWall
	for _, r := range reps[1:] {
		if r.Run.VirtualPerWall > 0 {
			p.VirtualPerWall = min(p.VirtualPerWall, r.Run.VirtualPerWall)
		}
	}
}

// proofOptions are the proof's session: its scenario as a value, compiled
// with no overrides (advise's --rate is the peak, already in it), on
// advise's target, transport and clock, under the advised model; src, the
// proof's file, is the reports' record.
func proofOptions(e *env, af *adviseFlags, a *advise.Advice, p *advise.Proof, src []byte) (session.Options, error) {
	sc, err := advise.ProofScenarioValue(a, p)
	if err != nil {
		return session.Options{}, withCode(exitFailure, err)
	}
	spec, err := plan.Build(sc, src, plan.Overrides{})
	if err != nil {
		for _, e2 := range flatten(err) {
			fmt.Fprintln(e.stderr, e2)
		}
		return session.Options{}, silentExit(exitUsage)
	}
	for _, w := range spec.Scenario.Warnings() {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	tg, err := parseTarget(e, af.target)
	if err != nil {
		return session.Options{}, err
	}
	given := af.embeddedTransport != transportInProcess
	if err := checkTransport(&runFlags{embeddedTransport: af.embeddedTransport}, tg, given); err != nil {
		return session.Options{}, err
	}
	applyGC(e.getenv, tg.Kind == table.KindEmbedded)
	o := targetOptions(e, tg, af.clock, af.clock != "", af.embeddedTransport)
	if tg.Kind == table.KindEmbedded {
		if o.Embedded, err = embeddedConfig(sc, &runFlags{model: a.ProofModel()}); err != nil {
			return o, err
		}
	}
	o.Spec, o.Source = spec, src
	o.Before = func(tg table.Target) error { return admit(e, tg, spec, af.yes, nil) }
	o.Roots = func() (*x509.CertPool, error) { return trustedRoots(e, &runFlags{}) }
	o.Settings = session.Settings{DownAfter: session.DefaultDownAfter, RunID: e.getenv("TABLESTRESS_RUN_ID"), Hard: e.hard}
	o.Progress, o.Warn = progress(e, af.quiet), warn(e)
	return o, nil
}

// errProofInterrupted is a proof a signal stopped: what it says is the
// whole of advise's answer (interrupted during the seed phase, say), with
// no advice printed before it.
type errProofInterrupted struct{ err error }

func (e errProofInterrupted) Error() string { return e.err.Error() }
func (e errProofInterrupted) Unwrap() error { return e.err }

// proofScenario is the proof's scenario, written to --save-proof when
// given.
func proofScenario(af *adviseFlags, a *advise.Advice, p *advise.Proof, source []byte) ([]byte, error) {
	src, err := advise.ProofScenario(source, a, p)
	if err != nil {
		return nil, withCode(exitFailure, err)
	}
	if af.saveProof != "" {
		if err := os.WriteFile(af.saveProof, src, 0o644); err != nil {
			return nil, withCode(exitFailure, fmt.Errorf("--save-proof: %w", err))
		}
	}
	return src, nil
}

func schemeNames(p *advise.Proof) string {
	var names []string
	for _, r := range p.Schemes {
		names = append(names, r.Scheme)
	}
	return strings.Join(names, ", ")
}

// adviceOutcome is advise's exit: 99 when nothing can serve the load or
// the proof failed, 1 when the proof could not run, 3 when a design is
// recommended for all but the questions no design serves, else 0.
func adviceOutcome(a *advise.Advice, p *advise.Proof, proveErr error) error {
	var stopped errProofInterrupted
	switch {
	case errors.As(proveErr, &stopped):
		return withCode(exitFailure, stopped.err)
	case proveErr != nil && codeOf(proveErr) == exitUsage:
		return proveErr
	case proveErr != nil:
		return withCode(exitFailure, fmt.Errorf("the proof could not run: %w", proveErr))
	case p != nil && !p.OK:
		return withCode(exitThreshold, errors.New("the proof failed, so the recommendation is withdrawn: "+strings.Join(p.Failures, "; ")))
	case a.WithExceptions():
		return withCode(exitExceptions, errors.New("recommended with exceptions: "+a.Infeasible.Reason))
	case a.Infeasible != nil:
		return withCode(exitThreshold, errors.New("infeasible: "+a.Infeasible.Reason))
	}
	return nil
}
