package main

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/table"
)

// compareAll runs compare's runs: every scheme of the scenario (or
// --scheme), under each model of --models or of the scenario's
// embedded.models when the target is the embedded service, else once. The
// reports come by model, then by scheme; each says its model. It stops at
// the first run that fails or at a signal, returning the reports so far,
// the runs it meant to make but did not, and the error.
func compareAll(cmd *cobra.Command, e *env, path string, f *runFlags) ([]*report.Report, []report.Planned, error) {
	models, err := compareModels(e, path, f)
	if err != nil {
		return nil, nil, err
	}
	var reps []*report.Report
	var notRun []report.Planned
	var names []string // every scheme to run under each model
	var runErr error
	for _, m := range models {
		if runErr != nil || cmd.Context().Err() != nil {
			notRun = append(notRun, planned(names, m)...)
			continue
		}
		fm := *f
		if m != "" {
			fm.model = m
		}
		ss, err := openSession(cmd, e, path, &fm)
		if err != nil {
			notRun, runErr = append(notRun, planned(names, m)...), err
			continue
		}
		got, left, all, err := ss.runSchemes(cmd.Context())
		ss.close()
		names = all
		reps = append(reps, got...)
		notRun = append(notRun, planned(left, ss.Model())...)
		runErr = err
	}
	return reps, notRun, runErr
}

// planned is the runs of the schemes named under model m.
func planned(names []string, m string) []report.Planned {
	out := make([]report.Planned, len(names))
	for i, n := range names {
		out[i] = report.Planned{Scheme: n, Model: m}
	}
	return out
}

// runSchemes runs every scheme of the session (or --scheme), one after
// another, until the context ends or a run fails (session.RunSchemes).
func (ss *cliSession) runSchemes(ctx context.Context) (reps []*report.Report, left, all []string, err error) {
	idx, err := ss.schemes()
	if err != nil {
		return nil, nil, nil, err
	}
	return ss.RunSchemes(ctx, idx)
}

// compareModels returns the model specs compare runs under: --models, else
// the scenario's embedded.models when the target is embedded, else one ""
// (the run's own model, --model or the scenario's embedded.model).
func compareModels(e *env, path string, f *runFlags) ([]string, error) {
	tspec := f.target
	if tspec == "" {
		tspec = e.getenv("TABLESTRESS_TARGET")
	}
	tg, err := table.ParseTarget(tspec)
	embedded := err == nil && tg.Kind == table.KindEmbedded
	if f.models != "" {
		if f.model != "" {
			return nil, usageError("--models and --model: give one of them")
		}
		if !embedded {
			return nil, usageError("--models compares models of the embedded service: use it with the embedded target (the default), not %s", tspec)
		}
		return parseModels(f.models)
	}
	if s, _, errs := checkScenario(path); embedded && f.model == "" && len(errs) == 0 && len(s.Embedded.Models) > 0 {
		return s.Embedded.Models, nil
	}
	return []string{""}, nil
}

// parseModels reads --models (model.ParseList), its errors said of the
// flag.
func parseModels(v string) ([]string, error) {
	specs, err := model.ParseList(v)
	if err != nil {
		return nil, usageError("--models: %s", strings.TrimPrefix(err.Error(), "model: "))
	}
	return specs, nil
}
