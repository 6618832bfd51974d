package main

import (
	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/report"
)

func init() { extraCommands = append(extraCommands, newMergeCmd) }

func newMergeCmd(e *env) *cobra.Command {
	f := &runFlags{}
	var partial bool
	cmd := &cobra.Command{
		Use:   "merge A.json B.json...",
		Short: "Merge the reports of the shards of one run into one report",
		Long: `merge combines the JSON reports written by the shards of one run
(tablestress run --shard I/N --table T --out shard-I.json) into the report of
the whole run: counters and status counts add, latency percentiles come from
the merged HDR histograms the reports carry, partitions (each served by one
shard) keep their exact figures, per-second intervals add.

It refuses what is not the shards of one run, naming the files: a report
run without --shard, the same shard twice, shards of another table, target,
shard count, scheme, scenario file, run settings or --run-id, and reports
whose measured windows do not overlap. A set with shards missing is refused
unless --partial, and the merged report then names the missing shards.`,
		Example: `  tablestress merge shard-0.json shard-1.json shard-2.json --out run.json --html run.html`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 1 {
				return usageError("merge needs the report files of the run's shards")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var shards []report.Shard
			for _, path := range args {
				doc, err := loadReportFile(path)
				if err != nil {
					return err
				}
				if doc.Report == nil {
					return usageError("%s is a comparison; merge takes the reports of shards", path)
				}
				shards = append(shards, report.Shard{Name: path, Report: doc.Report})
			}
			merged, err := report.Merge(shards, partial)
			if err != nil {
				return usageError("%v", err)
			}
			if err := emit(e, f, merged); err != nil {
				return err
			}
			return outcomeOf(merged, nil)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "write the merged JSON report to this file")
	fl.StringVar(&f.csv, "csv", "", "write the merged per-partition CSV to this file")
	fl.StringVar(&f.html, "html", "", "write the merged HTML report to this file")
	fl.StringVar(&f.format, "format", "text", "what to print on stdout: text or json")
	f.registerAllPartitions(fl)
	fl.BoolVar(&partial, "partial", false, "merge the shards given even when some of the run's shards are missing (the report names them)")
	return cmd
}
