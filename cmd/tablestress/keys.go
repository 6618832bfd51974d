package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
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
are. It is the quickest way to compare key schemes.

The request distribution (workload.distribution) picks entities, not
partitions: reads, updates and deletes choose an existing entity by its index
(hotspot(0.2,0.8) sends 80% of them to the first 20% of the entities, the
oldest), and each scheme's keys decide which partition that entity is in.`,
		Example: `  tablestress keys scenarios/hot-partition.yaml
  tablestress keys scenarios/event-logs.yaml --rate 3000 --scheme date-sharded
  tablestress keys my.yaml --json > analysis.json`,
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
			idx, err := selectSchemes(s, schemeName)
			if err != nil {
				return err
			}
			var out []*workload.Analysis
			for _, i := range idx {
				a, err := workload.Analyze(s, pop, schemes[i], ops, r)
				if err != nil {
					return withCode(exitUsage, fmt.Errorf("scheme %q: %w", schemes[i].Name, err))
				}
				out = append(out, a)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			p := &textfit.Printer{W: e.stdout, Style: e.style()}
			printDistribution(p, s)
			for _, a := range out {
				p.Blank()
				printAnalysis(p, a)
			}
			if len(out) > 1 {
				p.Blank()
				printAnalysisTable(p, out)
			}
			if len(out) > 0 && len(out[0].Questions) > 0 {
				p.Blank()
				printQuestions(p, out)
			}
			return p.Err
		},
	}
	f := cmd.Flags()
	f.StringVar(&schemeName, "scheme", "", "analyse only this scheme (default: all)")
	f.IntVar(&ops, "ops", 10_000, "operations of the workload to simulate")
	f.StringVar(&rate, "rate", "", "operations per second to evaluate against the partition target (default: the scenario's rate, or 1000)")
	f.BoolVar(&asJSON, "json", false, "print the analysis as JSON")
	return cmd
}

// printDistribution says what the request distribution picks: entities,
// whose partitions follow from each scheme's keys.
func printDistribution(p *textfit.Printer, s *scenario.Scenario) {
	d, err := keygen.ParseDistribution(string(s.Workload.Distribution))
	if err != nil || !picks(s) {
		return
	}
	p.Line("requests: the distribution %s picks entities, not partitions: %s; each scheme's keys decide which partition an entity is in",
		d, keygen.Explain(d))
}

// picks reports whether the mix has operations on existing entities (not
// only inserts of new ones).
func picks(s *scenario.Scenario) bool {
	for _, op := range s.Workload.Mix {
		if op.Op != "insert" && op.Op != "batch" {
			return true
		}
	}
	return false
}

func printAnalysis(p *textfit.Printer, a *workload.Analysis) {
	p.Line("scheme %s", a.Scheme)
	p.Line("  example keys (PartitionKey | RowKey):")
	for _, ex := range a.Examples {
		extra := ""
		if len(ex.Rows) > 0 {
			extra = "  + " + strings.Join(ex.Rows, ", ")
		}
		p.Line("    %-6s %s | %s%s", textfit.Int(ex.Entity), ex.PartitionKey, ex.RowKey, extra)
	}
	pop := a.Population
	p.Line("  population: %s rows in %s; rows per partition max %s, mean %s, p99 %s; busiest %q holds %s; rows Gini %s",
		textfit.Int(pop.Entities), partitions(pop.Partitions), textfit.Int(pop.Max), textfit.Float(round1(pop.Mean)), textfit.Int(pop.P99),
		pop.Busiest, share(pop.BusiestShare), gini(pop))
	l := a.Workload
	p.Line("  workload: %s operations touch %s entities in %s; busiest %q takes %s -> %s entities/s at %s ops/s (target %s); load Gini %s",
		textfit.Int(int64(a.Ops)), textfit.Int(l.Entities), partitions(l.Partitions), l.Busiest, share(l.BusiestShare),
		textfit.Rate(a.BusiestRate), textfit.Rate(a.Rate), textfit.Int(workload.PartitionTarget), gini(l))
	t := &textfit.Table{Indent: "    ", Cols: []textfit.Column{{Header: "OPERATION"}, {Header: "OPS", Right: true},
		{Header: "ENTITIES", Right: true}, {Header: "PARTITIONS/OP", Right: true}}}
	for _, o := range a.PerOp {
		t.Row(o.Op, textfit.Int(int64(o.Ops)), textfit.Int(o.Entities), fmt.Sprintf("%.2f", o.Partitions))
	}
	_, _ = t.Render(p, p.Style)
	if a.ExtendShare > 0 {
		p.Line("  inserts extending the PartitionKey range: %.0f%%", 100*a.ExtendShare)
	}
	for _, v := range a.Verdicts {
		p.Wrapped("  verdict: "+v, "       ")
	}
}

func printAnalysisTable(p *textfit.Printer, as []*workload.Analysis) {
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "SCHEME", Shrink: true}, {Header: "PARTITIONS", Short: "PARTS", Right: true}, {Header: "BUSIEST SHARE", Short: "SHARE", Right: true},
		{Header: "BUSIEST ENTITIES/S", Short: "BUSIEST/S", Right: true}, {Header: "LOAD GINI", Short: "GINI", Right: true, Drop: 1},
		{Header: "KEYS", Drop: 2}, {Header: "VERDICT", Wrap: true},
	}}
	for _, a := range as {
		v := textfit.Cell{Text: a.Verdicts[0]}
		if a.OverTarget || a.Monotonic != "" {
			v.Color = textfit.Red
		}
		t.Cells(textfit.Cell{Text: a.Scheme}, textfit.Cell{Text: textfit.Int(int64(a.Workload.Partitions))}, textfit.Cell{Text: share(a.Workload.BusiestShare)},
			textfit.Cell{Text: textfit.Rate(a.BusiestRate)}, textfit.Cell{Text: gini(a.Workload)}, textfit.Cell{Text: keyShape(a)}, v)
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
}

// keyShape says how a scheme's PartitionKeys fall: on one partition, in
// increasing or decreasing order (append-only, prepend-only), or
// scattered.
func keyShape(a *workload.Analysis) string {
	switch {
	case a.Workload.Partitions <= 1:
		return "one partition"
	case a.Monotonic != "":
		return a.Monotonic
	}
	return "scattered"
}

// gini is a distribution's Gini coefficient, "-" when it has fewer than two
// partitions (no spread to measure).
func gini(d workload.Distribution) string {
	if d.Partitions < 2 {
		return "-"
	}
	return fmt.Sprintf("%.2f", d.Gini)
}

// share formats a share as a percentage with three significant digits:
// 100%, 6.25%, 0.01%.
func share(f float64) string { return textfit.Float(round3(100*f)) + "%" }

func partitions(n int) string {
	if n == 1 {
		return "1 partition"
	}
	return textfit.Int(int64(n)) + " partitions"
}

func round1(f float64) float64 { return math.Round(10*f) / 10 }

// round3 rounds to three significant digits.
func round3(f float64) float64 {
	if f == 0 {
		return 0
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}
