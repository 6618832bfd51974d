package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/report"
)

func init() { extraCommands = append(extraCommands, newCompareCmd) }

func newCompareCmd(e *env) *cobra.Command {
	f := &runFlags{}
	sf := &searchFlags{}
	var find bool
	cmd := &cobra.Command{
		Use:   "compare SCENARIO",
		Short: "Run every key scheme of a scenario on the same entity stream and compare them",
		Long: azureText(`compare runs each scheme of the scenario one after another, each on a fresh
table, with the same seed: the same entities, the same operations in the same
order, only the keys differ. It prints one side-by-side table (throughput,
latency, throttling, partitions touched, the busiest partition's peak against
the {partition} entities/s target, pages per query, a verdict naming each scheme's
problem) and per-operation latencies. --out writes a tablestress.compare/v1
JSON document. Exit code 99 when a threshold fails for any scheme.

With --find, compare searches each scheme's highest sustainable rate instead
of running it once (what tablestress find does): "constant sustains 1,970
entities/s, hash-buckets at least 24,000".

On the embedded service, --models (or the scenario's embedded.models) runs
every scheme under each model, so one table answers "which key scheme, on
which service": --models azure,cosmos(ru=4000),cosmos(ru=40000).`),
		Example: `  tablestress compare scenarios/hot-partition.yaml
  tablestress compare scenarios/iot-telemetry.yaml --out compare.json --html compare.html
  tablestress compare scenarios/hot-partition.yaml --find --duration 5s
  tablestress compare scenarios/hot-partition.yaml --models 'azure,cosmos(ru=10000)'`,
		Args: oneScenario("compare"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if find {
				reps, err := findSchemes(cmd, e, args[0], f, sf)
				return finish(e, f, reps, err)
			}
			reps, notRun, runErr := compareAll(cmd, e, args[0], f)
			var facts map[string]report.SchemeFacts
			if cmd.Context().Err() == nil && len(notRun) == 0 {
				facts = compareFacts(cmd.Context(), e, args[0], reps)
			}
			return compareOutcome(e, f, report.NewCompare(reps, notRun, facts), runErr)
		},
	}
	f.register(cmd.Flags(), true)
	cmd.RunE = withJUnit(e, f, cmd.RunE)
	cmd.Flags().BoolVar(&find, "find", false, "search each scheme's highest sustainable rate (see tablestress find)")
	sf.register(cmd.Flags())
	cmd.Flags().StringVar(&f.models, "models", "", "embedded target: run every scheme under each of these models, like 'azure,cosmos(ru=10000)' (default: the scenario's embedded.models)")
	return cmd
}

// compareOutcome prints and writes compare's comparison and decides its
// exit: a run that failed, else thresholds that failed, else success.
func compareOutcome(e *env, f *runFlags, c *report.Compare, runErr error) error {
	reps := c.Runs
	if len(reps) == 0 {
		return runErr
	}
	if f.format == "json" {
		if err := report.WriteJSON(e.stdout, f.jsonCompare(c)); err != nil {
			return err
		}
	} else if err := report.WriteCompareDoc(e.stdout, c, e.style()); err != nil {
		return err
	}
	if err := emitCompare(f, c); err != nil {
		return err
	}
	for _, rep := range reps {
		if err := outcomeOf(rep, nil); err != nil && codeOf(err) == exitFailure {
			return err
		}
	}
	if runErr != nil {
		return withCode(exitFailure, runErr)
	}
	failed := 0
	for _, rep := range reps {
		failed += failedCount(rep)
	}
	if failed > 0 {
		return withCode(exitThreshold, fmt.Errorf("%d threshold(s) failed", failed))
	}
	return nil
}

// emitCompare writes the comparison's files: the tablestress.compare/v1
// JSON (--out), the CSVs, the HTML (--html) and, with --junit, its runs
// as test suites.
func emitCompare(f *runFlags, c *report.Compare) error {
	if f.junit != nil {
		f.junit.reps = append(f.junit.reps, c.Runs...)
	}
	files := []struct {
		path  string
		write func(w *os.File) error
	}{
		{f.out, func(w *os.File) error { return report.WriteJSON(w, f.jsonCompare(c)) }},
		{f.csv, func(w *os.File) error { return report.WriteCSV(w, c.Runs...) }},
		{f.qcsv, func(w *os.File) error { return report.WriteQuestionsCSV(w, c.Runs...) }},
		{f.html, func(w *os.File) error { return report.WriteHTMLDoc(w, c) }},
	}
	for _, fl := range files {
		if fl.path == "" {
			continue
		}
		if err := writeFile(fl.path, fl.write); err != nil {
			return err
		}
	}
	return nil
}
