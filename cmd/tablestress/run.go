package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/textfit"
)

func init() { extraCommands = append(extraCommands, newRunCmd, newSeedCmd) }

func newRunCmd(e *env) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run SCENARIO",
		Short: "Create a test table, seed it, run the workload and report per partition",
		Long: azureText(`run stress-tests the partitions of one key scheme, the way Azure's guide to
partitioning Table storage describes it: it creates a fresh test table, seeds
it with the scenario's entities (entity group transactions of up to 100 rows
per partition), drives the workload at the peak load, prints throughput,
throttling and latency per operation and per partition with each partition's
peak against Azure's {partition} entities/s partition target, and deletes the table
(unless --keep-table).

Ctrl-C stops starting new operations, lets in-flight ones finish (up to --grace),
writes the partial report, cleans up and exits 1; a second Ctrl-C cancels the
in-flight requests. Exit codes: 0 ok, 1 the run failed or was interrupted,
2 bad usage or scenario, 99 a threshold failed.`),
		Example: `  tablestress run scenarios/quickstart.yaml
  tablestress run scenarios/hot-partition.yaml --scheme hash-buckets --out report.json
  tablestress run my.yaml --target azurite --duration 1m --rate 500/s`,
		Args: oneScenario("run"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ss, err := openSession(cmd, e, args[0], f)
			if err != nil {
				return err
			}
			defer ss.close()
			i, err := ss.schemeIndex()
			if err != nil {
				return err
			}
			rep, _, runErr := ss.runScheme(cmd.Context(), i, false)
			if rep == nil {
				return runErr
			}
			if err := emit(e, f, rep); err != nil {
				return err
			}
			return outcomeOf(rep, runErr)
		},
	}
	f.register(cmd.Flags(), true)
	cmd.RunE = withJUnit(e, f, cmd.RunE)
	cmd.Flags().BoolVar(&f.skipSeed, "skip-seed", false, "run on a table seeded before (tablestress seed --table T --keep-table): count its rows and check a sample of the entities instead of seeding; needs --table, implies --reuse-table")
	return cmd
}

func newSeedCmd(e *env) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "seed SCENARIO",
		Short: "Create the test table and load the scenario's entities, nothing else",
		Long: `seed runs the seed phase alone: it creates the table (or, with --reuse-table,
writes into an existing one) and loads the population with entity group
transactions, then counts the rows to verify. Use --table and --keep-table to
prepare a table for later runs with --reuse-table --skip-seed.`,
		Example: `  tablestress seed scenarios/quickstart.yaml --table tsprepared --keep-table
  tablestress run scenarios/quickstart.yaml --table tsprepared --reuse-table --skip-seed`,
		Args: oneScenario("seed"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ss, err := openSession(cmd, e, args[0], f)
			if err != nil {
				return err
			}
			defer ss.close()
			i, err := ss.schemeIndex()
			if err != nil {
				return err
			}
			_, res, err := ss.runScheme(cmd.Context(), i, true)
			if err != nil {
				return withCode(exitFailure, err)
			}
			n := textfit.Int
			p := &textfit.Printer{W: e.stdout, Style: e.style()}
			p.Line("seeded table %s: %s entities, %s rows in %s partitions (%s counted) in %.1fs, %s requests, %s throttled",
				res.Table, n(res.Seed.Entities), n(res.Seed.Rows), n(int64(res.Seed.Partitions)), n(res.SeedCounted), res.Seed.Duration.Seconds(),
				n(res.Seed.Requests), n(res.Seed.Throttled))
			if line := report.SeedRefusals(report.SeedInfo{Status: res.Seed.Status}); line != "" {
				p.Line("%s", line)
			}
			if !f.keepTable {
				p.Line("the table was deleted again; pass --keep-table to keep it")
			} else {
				p.Line("run on it with: tablestress run %s --table %s --skip-seed (and the same --seed and --entities, if given)", args[0], res.Table)
			}
			return p.Err
		},
	}
	f.register(cmd.Flags(), false)
	return cmd
}

func oneScenario(name string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usageError("%s needs exactly one scenario file", name)
		}
		return nil
	}
}

// emit prints a run's report and writes the files the flags ask for. A run
// that failed before measuring anything prints no empty report (its error
// says why); the files are written all the same.
func emit(e *env, f *runFlags, rep *report.Report) error {
	var err error
	if rep.StartedAt.IsZero() && f.format != "json" {
		return emitFiles(f, rep)
	}
	if f.format == "json" {
		err = report.WriteJSON(e.stdout, f.jsonReport(rep))
	} else {
		err = report.WriteTextStyle(e.stdout, rep, e.style())
	}
	if err != nil {
		return err
	}
	return emitFiles(f, rep)
}

// emitFiles writes --out, --csv, --questions-csv and --html: one report,
// or a comparison; --junit is written from the same reports when the
// command returns (withJUnit).
func emitFiles(f *runFlags, reps ...*report.Report) error {
	if f.junit != nil {
		f.junit.reps = append(f.junit.reps, reps...)
	}
	var doc any = f.jsonReport(reps[0])
	if len(reps) > 1 {
		doc = f.jsonCompare(&report.Compare{Schema: report.SchemaCompare, Scenario: reps[0].Scenario, Runs: reps})
	}
	if f.out != "" {
		if err := writeFile(f.out, func(w *os.File) error { return report.WriteJSON(w, doc) }); err != nil {
			return err
		}
	}
	if f.csv != "" {
		if err := writeFile(f.csv, func(w *os.File) error { return report.WriteCSV(w, reps...) }); err != nil {
			return err
		}
	}
	if f.qcsv != "" {
		if err := writeFile(f.qcsv, func(w *os.File) error { return report.WriteQuestionsCSV(w, reps...) }); err != nil {
			return err
		}
	}
	if f.html != "" {
		if err := writeFile(f.html, func(w *os.File) error { return report.WriteHTML(w, reps...) }); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, write func(*os.File) error) error {
	w, err := os.Create(path)
	if err != nil {
		return withCode(exitFailure, err)
	}
	if err := write(w); err != nil {
		w.Close()
		return withCode(exitFailure, err)
	}
	return withCode(exitFailure, w.Close())
}

// outcomeOf maps a finished run to its exit code: a failure or interruption
// is 1, failed thresholds 99.
func outcomeOf(rep *report.Report, runErr error) error {
	switch {
	case runErr != nil:
		return withCode(exitFailure, runErr)
	case rep.Interrupted:
		return withCode(exitFailure, fmt.Errorf("interrupted: the report covers the run until the stop"))
	case rep.Verify != nil && !rep.Verify.OK():
		return withCode(exitFailure, fmt.Errorf("verification failed: acknowledged writes are not in the table as written"))
	case !rep.ThresholdsOK():
		return withCode(exitThreshold, fmt.Errorf("%d threshold(s) failed", failedCount(rep)))
	}
	return nil
}

func failedCount(rep *report.Report) int {
	n := 0
	for _, t := range rep.Thresholds {
		if !t.OK {
			n++
		}
	}
	return n
}
