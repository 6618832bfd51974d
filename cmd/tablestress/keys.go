package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// keysFlags are the keys command's flags.
type keysFlags struct {
	scheme             string
	ops                int
	rate               string
	json               bool
	horizon, retention string
}

func newKeysCmd(e *env) *cobra.Command {
	kf := &keysFlags{}
	cmd := &cobra.Command{
		Use:   "keys SCENARIO",
		Short: "Preview keys and analyse the partition distribution of a workload, no server",
		Long: azureText(`keys renders example keys of each scheme and judges it, in seconds and
without any server, on two tables: the seeded one, and the table as it will be
after --horizon of event time at the workload's write rate (less what
--retention deletes), computed from the population's laws. For each it gives
the busiest partition and its entities/s at the workload's peak rate against
the {partition} entities/s partition target (the same judge advise uses), the
largest partition, and each question's plan with its partitions, requests,
rows visited and rows returned per question on both tables; from a simulated
workload, how the seeded rows and the operations spread over partitions (max,
mean, p99, the Gini coefficient of the load), whether PartitionKeys are
append-only or prepend-only (one range partition server takes every insert),
how many partitions range queries touch and how full batches are. It is the
quickest way to compare key schemes.

The request distribution (workload.distribution) picks entities, not
partitions: reads, updates and deletes choose an existing entity by its index
(hotspot(0.2,0.8) sends 80% of them to the first 20% of the entities, the
oldest), and each scheme's keys decide which partition that entity is in.`),
		Example: `  tablestress keys scenarios/hot-partition.yaml
  tablestress keys scenarios/event-logs.yaml --rate 3000 --scheme date-sharded
  tablestress keys my.yaml --json > analysis.json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("keys needs exactly one scenario file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return kf.run(cmd.Context(), e, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&kf.scheme, "scheme", "", "analyse only this scheme (default: all)")
	f.IntVar(&kf.ops, "ops", 10_000, "operations of the workload to simulate")
	f.StringVar(&kf.rate, "rate", "", "operations per second to evaluate against the partition target (default: the workload's rate, or its stages' highest; none for a closed loop)")
	f.BoolVar(&kf.json, "json", false, "print the analysis as JSON")
	f.StringVar(&kf.horizon, "horizon", "1y", "judge the table as it will be after this much event time at the workload's write rate, like 1y, 90d or 720h")
	f.StringVar(&kf.retention, "retention", "", "delete data older than this (event time), like 30d (default: kept for ever)")
	return cmd
}

// run analyses the scenario at path and prints the analysis.
func (kf *keysFlags) run(ctx context.Context, e *env, path string) error {
	s, _, err := loadScenario(e, path)
	if err != nil {
		return err
	}
	if kf.ops < 1 {
		return usageError("--ops must be at least 1")
	}
	r, err := kf.analysisRate(s)
	if err != nil {
		return err
	}
	opts, err := kf.judgeOptions(s, r)
	if err != nil {
		return err
	}
	prog := newKeysProgress(e.stderr, time.Now)
	stop := prog.run(ctx)
	out, err := analyseSchemes(ctx, s, kf.scheme, kf.ops, r, opts, prog)
	stop()
	prog.done()
	if err != nil {
		return err
	}
	if kf.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return printAnalyses(&textfit.Printer{W: e.stdout, Style: e.style()}, s, out)
}

// analysisRate is --rate, else the rate a run of the workload peaks at
// (plan.PeakRate; 0 for a closed loop, which offers none).
func (kf *keysFlags) analysisRate(s *scenario.Scenario) (float64, error) {
	if kf.rate == "" {
		return plan.PeakRate(s.Workload), nil
	}
	r, err := scenario.ParseRate(kf.rate)
	if err != nil {
		return 0, usageError("--rate: %v", err)
	}
	return r, nil
}

// analyseSchemes analyses the schemes --scheme chooses: each one's
// simulation, and the judge's figures (none for a closed loop, which
// offers no rate to judge at), saying each scheme to prog (nil: nothing).
func analyseSchemes(ctx context.Context, s *scenario.Scenario, name string, ops int, rate float64, opts judge.Options, prog *keysProgress) ([]*keysAnalysis, error) {
	pop, schemes, err := s.Compile()
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	idx, err := selectSchemes(s, name)
	if err != nil {
		return nil, err
	}
	var in *judge.Input
	if rate > 0 {
		if in, err = judge.Prepare(s, opts); err != nil {
			return nil, withCode(exitUsage, err)
		}
	}
	var out []*keysAnalysis
	for k, i := range idx {
		if prog != nil {
			prog.start(schemes[i].Name, k+1, len(idx))
		}
		a, err := plan.Analyze(s, pop, schemes[i], ops, rate)
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("scheme %q: %w", schemes[i].Name, err))
		}
		ka := &keysAnalysis{Analysis: a}
		if in != nil {
			if ka.Judged, err = in.Judge(ctx, schemes[i]); err != nil {
				return nil, withCode(exitFailure, interrupted(ctx, fmt.Errorf("scheme %q: %w", schemes[i].Name, err)))
			}
			ka.judged(in)
		}
		out = append(out, ka)
	}
	return out, nil
}

// printAnalyses prints each scheme's analysis, then the table comparing
// them and their questions.
func printAnalyses(p *textfit.Printer, s *scenario.Scenario, out []*keysAnalysis) error {
	printDistribution(p, s)
	for _, a := range out {
		p.Blank()
		printAnalysis(p, a)
	}
	if len(out) > 1 {
		p.Blank()
		printAnalysisTable(p, out)
	}
	if len(out) > 0 && out[0].Judged != nil && len(out[0].Judged.Questions) > 0 {
		p.Blank()
		printQuestions(p, out)
	}
	return p.Err
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

func printAnalysis(p *textfit.Printer, a *keysAnalysis) {
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
	if j := a.Judged; j != nil {
		p.Wrapped(fmt.Sprintf("  at the horizon (%s entities over %s of event time): the largest partition, %q, holds %s rows", textfit.Rate(j.Entities), j.EventTime,
			j.LargestPartition, textfit.Rate(j.LargestPartitionRows)), "    ")
	}
	l := a.Workload
	p.Line("  workload: %s operations touch %s entities in %s; busiest %q takes %s of them; load Gini %s",
		textfit.Int(int64(a.Ops)), textfit.Int(l.Entities), partitions(l.Partitions), l.Busiest, share(l.BusiestShare), gini(l))
	p.Wrapped("  busiest partition "+busiestRate(a), "    ")
	t := &textfit.Table{Indent: "    ", Cols: []textfit.Column{{Header: "OPERATION"}, {Header: "OPS", Right: true},
		{Header: "ENTITIES", Right: true}, {Header: "PARTITIONS/OP", Right: true}}}
	for _, o := range a.PerOp {
		t.Row(o.Op, textfit.Int(int64(o.Ops)), textfit.Int(o.Entities), fmt.Sprintf("%.2f", o.Partitions))
	}
	_, _ = t.Render(p, p.Style)
	if a.ExtendShare > 0 {
		p.Line("  inserts extending the PartitionKey range: %.0f%%", 100*a.ExtendShare)
	}
	if a.BatchAsked > 0 {
		p.Line("  entity group transactions: %s entities each on average, of %s asked", textfit.Float(round1(a.BatchFill)), textfit.Float(round1(a.BatchAsked)))
	}
	if a.RangeFound > 0 {
		p.Line("  range queries: their partitions hold %s of the rows they ask for", share(a.RangeFound))
	}
	for _, v := range a.Verdicts {
		p.Wrapped("  verdict: "+v, "       ")
	}
}

func printAnalysisTable(p *textfit.Printer, as []*keysAnalysis) {
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "SCHEME", Shrink: true}, {Header: "PARTITIONS", Short: "PARTS", Right: true}, {Header: "BUSIEST SHARE", Short: "SHARE", Right: true},
		{Header: "BUSIEST ENTITIES/S", Short: "BUSIEST/S", Right: true}, {Header: "LOAD GINI", Short: "GINI", Right: true, Drop: 1},
		{Header: "KEYS", Drop: 2}, {Header: "VERDICT", Wrap: true},
	}}
	for _, a := range as {
		v := textfit.Cell{Text: "no problem found at this rate"}
		switch {
		case a.Judged == nil:
			v.Text = "not judged: a closed loop offers no rate (give --rate)"
		case len(a.Verdicts) > 0:
			v.Text, v.Color = a.Verdicts[0], textfit.Red
			if len(a.Verdicts) > 1 {
				v.Text += fmt.Sprintf(" (and %d more)", len(a.Verdicts)-1)
			}
		}
		t.Cells(textfit.Cell{Text: a.Scheme}, textfit.Cell{Text: textfit.Int(int64(a.Workload.Partitions))}, textfit.Cell{Text: share(a.Workload.BusiestShare)},
			textfit.Cell{Text: busiestRateCell(a)}, textfit.Cell{Text: gini(a.Workload)}, textfit.Cell{Text: keyShape(a)}, v)
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
}

// busiestRate says what the judge finds of the busiest partition at the
// analysis' rate, on the seeded table and at the horizon, against the
// partition target; with no rate (a closed loop), that there is none to
// judge at.
func busiestRate(a *keysAnalysis) string {
	j := a.Judged
	if j == nil {
		return "(a closed loop offers no rate: give --rate to judge it against the " + textfit.Int(azure.PartitionEntitiesPerSec) + " entities/s target)"
	}
	out := fmt.Sprintf("at %s ops/s: at the horizon %q takes %s entities/s", textfit.Rate(a.Rate), j.BusiestPartition, textfit.Rate(j.BusiestEntitiesPerSec))
	if s := j.Seeded; s != nil {
		out += fmt.Sprintf(", on the seeded table %q %s", s.BusiestPartition, textfit.Rate(s.BusiestEntitiesPerSec))
	}
	return out + fmt.Sprintf(" (target %s)", textfit.Rate(a.target))
}

// busiestRateCell is the busiest partition's entities/s at the horizon,
// "-" with no rate.
func busiestRateCell(a *keysAnalysis) string {
	if a.Judged == nil {
		return "-"
	}
	return textfit.Rate(a.Judged.BusiestEntitiesPerSec)
}

// keyShape says how a scheme's PartitionKeys fall: on one partition, in
// increasing or decreasing order as the judge finds them (append-only,
// prepend-only), or scattered.
func keyShape(a *keysAnalysis) string {
	switch {
	case a.Workload.Partitions <= 1:
		return "one partition"
	case a.Judged != nil && a.Judged.MonotonicOrder != "":
		return a.Judged.MonotonicOrder
	}
	return "scattered"
}

// gini is a distribution's Gini coefficient, "-" when it has fewer than two
// partitions (no spread to measure).
func gini(d plan.Distribution) string {
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
