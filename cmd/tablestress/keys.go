package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/workload"
)

func newKeysCmd(e *env) *cobra.Command {
	var (
		schemeName string
		ops        int
		rate       string
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "keys SCENARIO",
		Short: "Preview keys and analyse the partition distribution of a workload, no server",
		Long: `keys renders example keys of each scheme and analyses, in milliseconds and
without any server, how the seeded population and a simulated workload spread
over partitions: partitions touched, entities per partition (max, mean, p99),
the busiest partition's share and its entities/s at the given rate against the
2,000 entities/s partition target, the Gini coefficient of the load, whether
PartitionKeys are append-only or prepend-only (one range partition server takes
every insert), how many partitions range queries touch and how full batches
are. It is the quickest way to compare key schemes.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("keys needs exactly one scenario file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := loadScenario(e, args[0])
			if err != nil {
				return err
			}
			if ops < 1 {
				return usageError("--ops must be at least 1")
			}
			r := float64(s.Workload.Rate)
			if rate != "" {
				if r, err = scenario.ParseRate(rate); err != nil {
					return usageError("--rate: %v", err)
				}
			}
			if r == 0 {
				r = 1000
			}
			pop, schemes, err := s.Compile()
			if err != nil {
				return withCode(exitUsage, err)
			}
			var out []*workload.Analysis
			for i, sch := range schemes {
				if schemeName != "" && s.Schemes[i].Name != schemeName {
					continue
				}
				a, err := workload.Analyze(s, pop, sch, ops, r)
				if err != nil {
					return withCode(exitUsage, fmt.Errorf("scheme %q: %w", sch.Name, err))
				}
				out = append(out, a)
			}
			if len(out) == 0 {
				_, err := s.Scheme(schemeName)
				return withCode(exitUsage, err)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			for i, a := range out {
				if i > 0 {
					fmt.Fprintln(e.stdout)
				}
				printAnalysis(e.stdout, s, a)
			}
			if len(out) > 1 {
				fmt.Fprintln(e.stdout)
				printAnalysisTable(e.stdout, out)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&schemeName, "scheme", "", "analyse only this scheme (default: all)")
	f.IntVar(&ops, "ops", 10_000, "operations of the workload to simulate")
	f.StringVar(&rate, "rate", "", "operations per second to evaluate against the partition target (default: the scenario's rate, or 1000)")
	f.BoolVar(&asJSON, "json", false, "print the analysis as JSON")
	return cmd
}

func printAnalysis(w io.Writer, s *scenario.Scenario, a *workload.Analysis) {
	fmt.Fprintf(w, "scheme %s\n", a.Scheme)
	fmt.Fprintln(w, "  example keys (PartitionKey | RowKey):")
	for _, ex := range a.Examples {
		extra := ""
		if len(ex.Rows) > 0 {
			extra = "  + " + strings.Join(ex.Rows, ", ")
		}
		fmt.Fprintf(w, "    %-8d %s | %s%s\n", ex.Entity, ex.PartitionKey, ex.RowKey, extra)
	}
	p := a.Population
	fmt.Fprintf(w, "  population: %d rows in %d partitions; rows per partition max %d, mean %.1f, p99 %d; busiest %q holds %.1f%%; Gini %.2f\n",
		p.Entities, p.Partitions, p.Max, p.Mean, p.P99, p.Busiest, 100*p.BusiestShare, p.Gini)
	l := a.Workload
	fmt.Fprintf(w, "  workload: %d operations touch %d entities in %d partitions; busiest %q takes %.1f%% -> %.0f entities/s at %.0f ops/s (target %d)\n",
		a.Ops, l.Entities, l.Partitions, l.Busiest, 100*l.BusiestShare, a.BusiestRate, a.Rate, workload.PartitionTarget)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "    OPERATION\tOPS\tENTITIES\tPARTITIONS/OP")
	for _, o := range a.PerOp {
		fmt.Fprintf(tw, "    %s\t%d\t%d\t%.2f\n", o.Op, o.Ops, o.Entities, o.Partitions)
	}
	tw.Flush()
	if a.ExtendShare > 0 {
		fmt.Fprintf(w, "  inserts extending the PartitionKey range: %.0f%%\n", 100*a.ExtendShare)
	}
	for _, v := range a.Verdicts {
		fmt.Fprintf(w, "  verdict: %s\n", v)
	}
}

func printAnalysisTable(w io.Writer, as []*workload.Analysis) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCHEME\tPARTITIONS\tBUSIEST SHARE\tBUSIEST ENTITIES/S\tGINI\tKEYS\tVERDICT")
	for _, a := range as {
		mono := a.Monotonic
		if mono == "" {
			mono = "scattered"
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.0f\t%.2f\t%s\t%s\n", a.Scheme, a.Workload.Partitions, 100*a.Workload.BusiestShare, a.BusiestRate, a.Workload.Gini, mono, a.Verdicts[0])
	}
	tw.Flush()
}
