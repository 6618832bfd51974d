package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/report"
)

// prove runs the proof with compare's own machinery: the proof's scenario
// (the scenario with the schemes to prove, at the peak) is written to a
// file and compared on the target as `tablestress compare` would, under
// the advised model; then the proof judges the reports.
func prove(cmd *cobra.Command, e *env, af *adviseFlags, a *advise.Advice, p *advise.Proof, source []byte) (*advise.Proof, error) {
	src, err := proofScenario(af, a, p, source)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tablestress-advise")
	if err != nil {
		return nil, withCode(exitFailure, err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "proof.yaml")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		return nil, withCode(exitFailure, err)
	}
	// A command of its own, so that only the proof's settings reach the
	// runs (advise's --rate is the peak, not an override).
	pc := &cobra.Command{}
	pc.SetContext(cmd.Context())
	f := &runFlags{}
	f.register(pc.Flags(), true)
	f.target, f.model, f.yes, f.quiet = af.target, a.ProofModel(), af.yes, af.quiet
	f.embeddedTransport = af.embeddedTransport
	if af.embeddedTransport != transportInProcess {
		_ = pc.Flags().Set("embedded-transport", af.embeddedTransport) // marks it given, so another target refuses it
	}
	if af.clock != "" {
		_ = pc.Flags().Set("clock", af.clock) // marks it given, so a target that cannot refuses it
	}
	if !af.quiet {
		fmt.Fprintf(e.stderr, "proving %s: %s on the same entity stream at %s ops/s, %gs each after a %gs warm-up\n",
			p.Schemes[0].Scheme, schemeNames(p), fmtRate(p.Rate), p.DurationS, p.WarmupS)
	}
	reps, _, err := compareAll(pc, e, path, f)
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
		p.Target = reps[0].Target.Kind
		p.Clock, p.VirtualPerWall = reps[0].Run.Clock, reps[0].Run.VirtualPerWall
		for _, r := range reps[1:] {
			if r.Run.VirtualPerWall > 0 {
				p.VirtualPerWall = min(p.VirtualPerWall, r.Run.VirtualPerWall)
			}
		}
		if af.proofOut != "" {
			if werr := emitFiles(&runFlags{out: af.proofOut}, reps...); werr != nil && err == nil {
				err = werr
			}
		}
	}
	p.Judge(byName)
	return p, err
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
