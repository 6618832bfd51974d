package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/percent"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

func init() { extraCommands = append(extraCommands, newAdviseCmd) }

// adviseFlags are advise's flags.
type adviseFlags struct {
	rate, headroom, horizon, model  string
	retention                       string
	proofEntities                   int64
	maxRows                         int64
	maxRequests, maxVisited         float64
	asJSON, prove, noProve          bool
	target, saveProof, proofSchemes string
	proofOut, html                  string
	embeddedTransport               string
	clock                           string
	yes, quiet                      bool
	proofDuration, proofWarmup      time.Duration
}

func newAdviseCmd(e *env) *cobra.Command {
	af := &adviseFlags{}
	cmd := &cobra.Command{
		Use:   "advise SCENARIO",
		Short: "Propose a key scheme for the population, writes and questions, and prove it",
		Long: azureText(`advise generates key schemes from the fields the scenario's questions know and
the patterns of the key design guidance (a field; a field with the time bucket
that bounds partition size over --horizon; a field or a time bucket over the
fewest hash buckets that keep the busiest partition under --headroom of the
{partition} entities/s partition target at the peak, skew included; RowKeys that
serve the questions' order; index tables for a second access path), judges
them with the scenario's own schemes without a server (the busiest partition
at the peak, the account's requests, monotonic PartitionKeys, each question's
plan and cost, batch fill, partition size after the horizon, Cosmos DB request
units), and ranks them: the cheapest questions among the schemes that serve
the load. It prints the ranked table, the recommendation and why, what it
costs, the runner-up, why the scenario's own schemes lost, and the
recommendation as a scheme block to paste into the scenario.

Then it proves the recommendation: on the embedded service (the default; on
another target with --prove, asking before it loads one not on this machine
unless --yes) it runs compare of the recommendation, the runner-up and the
scenario's own schemes on the same entity stream at the peak, for the shortest
duration that measures the busiest partition to within 15%, and prints what
each measured beside what was predicted. On the embedded service in process
the proof lives on a virtual clock (--clock): the client and the service's
model advance together, so the proof measures the model, whatever this
machine's CPU, and takes longer in wall time where the load needs more CPU
than the machine has. It exits 99, the recommendation withdrawn, when it is
throttled on over 1% of its requests, when its busiest partition is more than
15% off the prediction, or when the client dropped over 1% of the operations
(the peak was not offered: on the wall clock, this machine's limit); and when
nothing can serve the
load (then it says what would: several accounts, or the request units to
provision).`),
		Example: `  tablestress advise scenarios/iot-telemetry.yaml
  tablestress advise scenarios/ecommerce-orders.yaml --json > advice.json
  tablestress advise my.yaml --rate 12000 --headroom 60% --no-prove
  tablestress advise my.yaml --model cosmos,ru=40000
  tablestress advise my.yaml --max-question-requests 4`,
		Args: oneScenario("advise"),
		RunE: func(cmd *cobra.Command, args []string) error { return runAdvise(cmd, e, args[0], af) },
	}
	af.register(cmd.Flags())
	return cmd
}

// register declares advise's flags on f, each bound to its field of af.
func (af *adviseFlags) register(f *pflag.FlagSet) {
	f.StringVar(&af.rate, "rate", "", "the peak in operations/s to judge and prove at (default: the scenario's rate, or its stages' highest)")
	f.StringVar(&af.headroom, "headroom", "70%", "the share of a partition's (and the account's) target the busiest may use at the peak")
	f.StringVar(&af.horizon, "horizon", "1y", "how long the data grows (event time, at the workload's write rate): every scheme is judged on the table as it will be after it, like 1y, 90d or 720h")
	f.StringVar(&af.retention, "retention", "", "delete data older than this (event time), like 30d: the table holds at most this much, and each scheme is charged its cost of deleting the old data (default: kept for ever)")
	f.Int64Var(&af.maxRows, "max-partition-rows", 1_000_000, "the most rows a partition should hold after the horizon: time buckets are sized to keep under it")
	f.Float64Var(&af.maxRequests, "max-question-requests", 0, "a question may take at most this many requests (0: no bound)")
	f.Float64Var(&af.maxVisited, "max-question-rows", 0, "a question may visit at most this many rows (0: no bound)")
	f.StringVar(&af.model, "model", "", "the service judged (and the embedded service's model): azure, or cosmos,ru=N (default: the scenario's embedded.model, or azure)")
	f.BoolVar(&af.asJSON, "json", false, "print the advice as JSON (tablestress.advise/v1)")
	f.StringVar(&af.html, "html", "", "also write the advice as a self-contained HTML page to this file: the verdict, each exception with its cost and what would change it, the recommendation, the ranked schemes and the proof")
	f.BoolVar(&af.prove, "prove", false, "prove on the target even when it is not the embedded service")
	f.BoolVar(&af.noProve, "no-prove", false, "judge and rank only: do not run the proof")
	f.StringVar(&af.target, "target", "", "where to prove: embedded (default), or any target with --prove; also TABLESTRESS_TARGET")
	f.BoolVar(&af.yes, "yes", false, "do not ask before loading a target that is not on this machine")
	f.BoolVar(&af.quiet, "quiet", false, "no live status line during the proof")
	f.DurationVar(&af.proofDuration, "proof-duration", 0, "measure the proof for this long (default: the shortest that measures the busiest partition to within 15%)")
	f.DurationVar(&af.proofWarmup, "proof-warmup", advise.ProofWarmup, "warm up this long before each of the proof's measured runs (on a fast machine or a fake clock, less will do)")
	f.Int64Var(&af.proofEntities, "proof-entities", advise.DefaultProofDepth, "how many entities the proof seeds (at least the scenario's; by default 1,000,000, or the table at the horizon when it holds fewer): the questions are measured, and predicted, at that depth")
	f.StringVar(&af.proofSchemes, "proof-schemes", "all", "what the proof runs: all (the recommendation, the runner-up and the scenario's own schemes) or recommended (the recommendation alone, faster)")
	f.StringVar(&af.saveProof, "save-proof", "", "write the proof's scenario (the schemes to prove, at the peak) to this file, to rerun with compare; with --no-prove too")
	f.StringVar(&af.proofOut, "proof-out", "", "write the proof's runs to this file, the JSON report compare --out writes (tablestress.compare/v1)")
	f.StringVar(&af.embeddedTransport, "embedded-transport", transportInProcess, "embedded target: how the proof's SDK reaches the service, in-process (no socket) or socket (a loopback port)")
	f.StringVar(&af.clock, "clock", "", "the time the proof lives on: "+clockHelp)
}

// options turns the flags and the scenario into the advisor's options.
func (af *adviseFlags) options(s *scenario.Scenario, changed func(string) bool) (advise.Options, error) {
	o := advise.Defaults()
	if af.rate != "" {
		r, err := scenario.ParseRate(af.rate)
		if err != nil || !(r > 0) {
			return o, usageError("--rate: want a rate above 0, like 3500 or 3500/s")
		}
		o.Rate = r
	}
	h, err := percent.Range{Min: 0, MinOpen: true, Max: 100}.Fraction(af.headroom)
	if err != nil {
		return o, usageError("--headroom: %s", percent.Reason(err))
	}
	o.Headroom = h
	if o.Horizon, err = parseHorizon(af.horizon); err != nil {
		return o, usageError("--horizon: %v", err)
	}
	if af.retention != "" {
		if o.Retention, err = parseHorizon(af.retention); err != nil {
			return o, usageError("--retention: %v", err)
		}
	}
	if af.proofEntities < 1 {
		return o, usageError("--proof-entities must be at least 1, like 1000000 (the default)")
	}
	if af.maxRows < 1 || af.maxRequests < 0 || af.maxVisited < 0 {
		return o, usageError("--max-partition-rows must be at least 1, --max-question-requests and --max-question-rows at least 0")
	}
	o.MaxPartitionRows, o.MaxQuestionRequests, o.MaxQuestionRows = af.maxRows, af.maxRequests, af.maxVisited
	spec := af.model
	if spec == "" {
		spec = s.Embedded.Model
	}
	if o.Model, err = model.Parse(spec); err != nil {
		return o, usageError("--model: %v", err)
	}
	if !o.Model.Enabled {
		return o, usageError("--model: advise judges against a service's targets: use azure or cosmos, not off")
	}
	af.model = o.Model.String()
	if af.prove && af.noProve {
		return o, usageError("--prove and --no-prove: give one of them")
	}
	if af.proofSchemes != "all" && af.proofSchemes != "recommended" {
		return o, usageError("--proof-schemes: want all or recommended, not %q", af.proofSchemes)
	}
	if af.proofDuration < 0 || af.proofWarmup <= 0 {
		return o, usageError("--proof-duration and --proof-warmup must be positive, like 10s")
	}
	return o, nil
}

// parseHorizon reads a duration, with d (days) and y (365 days) allowed.
func parseHorizon(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	for suffix, unit := range map[string]time.Duration{"y": 365 * 24 * time.Hour, "d": 24 * time.Hour} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			f, err := strconv.ParseFloat(n, 64)
			if err != nil || !(f > 0) {
				return 0, strconv.ErrSyntax
			}
			return time.Duration(f * float64(unit)), nil
		}
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, &time.ParseError{Value: v, Message: ": want a positive duration like 1y, 90d or 720h"}
	}
	return d, nil
}

// runAdvise judges, prints, proves and sets the exit code.
func runAdvise(cmd *cobra.Command, e *env, path string, af *adviseFlags) error {
	s, source, err := loadScenario(e, path)
	if err != nil {
		return err
	}
	opts, err := af.options(s, cmd.Flags().Changed)
	if err != nil {
		return err
	}
	in, err := advise.Prepare(s, opts)
	if err != nil {
		return usageError("%v", err)
	}
	if !af.quiet {
		fmt.Fprintf(e.stderr, "advise: judging %s's schemes and candidates on the seeded table and at the horizon (%s)\n", s.DisplayName(), af.horizon)
	}
	a, err := in.Advise(cmd.Context())
	if err != nil {
		return withCode(exitFailure, interrupted(cmd.Context(), err))
	}
	proveIt, err := af.proves(e)
	if err != nil {
		return err
	}
	var proof *advise.Proof
	var proveErr error
	po := advise.ProofOptions{Duration: af.proofDuration, Warmup: af.proofWarmup, RecommendedOnly: af.proofSchemes == "recommended"}
	if cmd.Flags().Changed("proof-entities") {
		po.Depth = af.proofEntities
	}
	p, err := a.Plan(cmd.Context(), po)
	if err != nil {
		return withCode(exitFailure, interrupted(cmd.Context(), err))
	}
	if p != nil && !proveIt && af.saveProof != "" {
		if _, err := proofScenario(af, a, p, source); err != nil {
			return err
		}
	}
	if p != nil && proveIt {
		proof, proveErr = prove(cmd, e, af, a, p, source)
		if proof != nil {
			a.Proof = proof
			if !proof.OK {
				a.Withdraw()
			}
		}
	}
	if errors.As(proveErr, new(errProofInterrupted)) {
		return adviceOutcome(a, proof, proveErr) // the interruption alone
	}
	if err := af.emit(e, a, proof); err != nil {
		return err
	}
	return adviceOutcome(a, proof, proveErr)
}

// emit writes the advice: as JSON (--json) or text on stdout, and as an
// HTML page to --html's file when given.
func (af *adviseFlags) emit(e *env, a *advise.Advice, proof *advise.Proof) error {
	if af.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			return err
		}
	} else if err := printAdvice(e, a, proof); err != nil {
		return err
	}
	if af.html == "" {
		return nil
	}
	return writeFile(af.html, func(w *os.File) error { return writeAdviceHTML(w, a, proof) })
}

// proves decides whether to run the proof: on the embedded service unless
// --no-prove, elsewhere only with --prove.
func (af *adviseFlags) proves(e *env) (bool, error) {
	if af.noProve {
		return false, nil
	}
	tg, err := parseTarget(e, af.target)
	if err != nil {
		return false, err
	}
	if tg.Kind != table.KindEmbedded && !af.prove {
		return false, usageError("advise proves its answer on the embedded service; to prove it on %s give --prove (it then asks before loading a target not on this machine, unless --yes), or judge only with --no-prove", tg)
	}
	return true, nil
}

// interrupted says that judging was stopped by a signal (ctx done), or
// passes err on.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return errors.New("interrupted: stopped judging at the signal")
	}
	return err
}
