package main

import (
	"fmt"

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
			reps, runErr := compareAll(cmd, e, args[0], f)
			return compareOutcome(e, f, reps, runErr)
		},
	}
	f.register(cmd.Flags(), true)
	cmd.RunE = withJUnit(e, f, cmd.RunE)
	cmd.Flags().BoolVar(&find, "find", false, "search each scheme's highest sustainable rate (see tablestress find)")
	sf.register(cmd.Flags())
	cmd.Flags().StringVar(&f.models, "models", "", "embedded target: run every scheme under each of these models, like 'azure,cosmos(ru=10000)' (default: the scenario's embedded.models)")
	return cmd
}

// compareOutcome prints and writes compare's reports and decides its exit:
// a run that failed, else thresholds that failed, else success.
func compareOutcome(e *env, f *runFlags, reps []*report.Report, runErr error) error {
	if len(reps) == 0 {
		return runErr
	}
	if f.format == "json" {
		if err := report.WriteJSON(e.stdout, &report.Compare{Schema: report.SchemaCompare, Scenario: reps[0].Scenario, Runs: reps}); err != nil {
			return err
		}
	} else if err := report.WriteCompareStyle(e.stdout, reps, e.style()); err != nil {
		return err
	}
	quiet := *f
	quiet.format = "none"
	if err := emitFiles(&quiet, reps...); err != nil {
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
