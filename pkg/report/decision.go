package report

import (
	"sort"

	"github.com/tablestress/tablestress/pkg/choose"
)

// Decision is what a comparison concludes for the runs under one model:
// the scheme to pick, or that none passes (and the nearest to passing),
// or that the comparison was cut short; and for every scheme compared
// where it ranks and why. It reads choose's rule, the one advise ranks
// by, over what each run measured.
type Decision struct {
	// Model is the service model the runs were judged by, when the
	// comparison ran under several.
	Model string `json:"model,omitempty"`
	// Pick is the scheme to pick: absent when none passes or not every
	// scheme ran to its end.
	Pick string `json:"pick,omitempty"`
	// Nearest is, when none passes, the scheme nearest to passing.
	Nearest string `json:"nearest,omitempty"`
	// NearTie is set when the pick was decided by measured figures
	// within choose.NearTie of the runner-up's: either would do.
	NearTie bool `json:"near_tie,omitempty"`
	// Line is the decision in one line.
	Line string `json:"line"`
	// Schemes are every scheme compared, best first; those not run last.
	Schemes []SchemeDecision `json:"schemes"`
}

// SchemeDecision is one scheme's place in a decision.
type SchemeDecision struct {
	Scheme string `json:"scheme"`
	// Result is "pick", "passed" (it passes, and ranks below the pick),
	// "failed" (something keeps it from being picked), "stopped" (its run
	// was interrupted or failed) or "not run".
	Result string `json:"result"`
	// Why is, for the pick, why it was picked; for every other scheme the
	// one reason it lost.
	Why string `json:"why"`
	// Problems are everything that keeps it from being picked, first the
	// one Why names.
	Problems []string `json:"problems,omitempty"`
}

// Result values of SchemeDecision and Report.Result.
const (
	ResultPick    = "pick"
	ResultPassed  = "passed"
	ResultFailed  = "failed"
	ResultStopped = "stopped"
	ResultNotRun  = "not run"
)

// Planned is a run a comparison meant to make: a scheme, under a model
// when it compared several.
type Planned struct {
	Scheme string `json:"scheme"`
	Model  string `json:"model,omitempty"`
}

// SchemeFacts are what a comparison knows of a scheme besides its run:
// its index tables (from the scenario), and, from the judge, what it
// finds in the scheme's keys whatever the load measured (Findings), and
// its largest partition after the horizon against the size bound
// (Horizon empty when it was not judged).
type SchemeFacts struct {
	Indexes int `json:"indexes,omitempty"`
	// Findings are the judge's verdicts on the scheme's keys that a run
	// does not measure as a failure (entity group transactions that hold
	// too few of the entities asked, PartitionKeys that only grow or
	// shrink under writes): each keeps the scheme from being picked.
	Findings             []KeyFinding `json:"findings,omitempty"`
	Horizon              string       `json:"horizon,omitempty"`
	LargestPartition     string       `json:"largest_partition,omitempty"`
	LargestPartitionRows float64      `json:"largest_partition_rows,omitempty"`
	MaxPartitionRows     float64      `json:"max_partition_rows,omitempty"`
}

// KeyFinding is one of the judge's verdicts on a scheme's keys, as the
// judge says it: its kind (the judge's finding kinds: batch_fill,
// monotonic), its words, and how far over its limit it is (at least just
// over 1), which ranks the schemes that fail.
type KeyFinding struct {
	Kind  string  `json:"kind"`
	Words string  `json:"words"`
	Ratio float64 `json:"ratio"`
}

// outgrows reports whether the judge found a partition of the scheme
// past the size bound at the horizon.
func (f SchemeFacts) outgrows() bool {
	return f.Horizon != "" && f.MaxPartitionRows > 0 && f.LargestPartitionRows > f.MaxPartitionRows
}

// Decide decides the comparison of reps, with notRun the runs it meant
// to make but did not and facts the schemes' facts by name (either may
// be empty): one decision per model, in the order the runs came. It sets
// each report's Result to its scheme's.
func Decide(reps []*Report, notRun []Planned, facts map[string]SchemeFacts) []Decision {
	var models []string
	byModel := map[string][]*Report{}
	for _, r := range reps {
		if _, ok := byModel[r.Model]; !ok {
			models = append(models, r.Model)
		}
		byModel[r.Model] = append(byModel[r.Model], r)
	}
	missing := map[string][]string{}
	for _, p := range notRun {
		if _, ok := byModel[p.Model]; !ok {
			models = append(models, p.Model)
			byModel[p.Model] = nil
		}
		missing[p.Model] = append(missing[p.Model], p.Scheme)
	}
	out := make([]Decision, 0, len(models))
	for _, m := range models {
		d := decideOne(byModel[m], missing[m], facts)
		if len(models) > 1 {
			d.Model = m
		}
		out = append(out, d)
	}
	return out
}

// entry is one scheme under decision: its run and what the rule reads.
type entry struct {
	r        *Report
	facts    SchemeFacts
	problems []problem
	fig      choose.Figures
}

// decideOne decides the runs of one model.
func decideOne(reps []*Report, notRun []string, facts map[string]SchemeFacts) Decision {
	var es []*entry
	var stopped []*Report
	for _, r := range reps {
		if r.Interrupted || r.Failure != "" {
			stopped = append(stopped, r)
			continue
		}
		es = append(es, &entry{r: r, facts: facts[r.Scheme], problems: measuredProblems(r, facts[r.Scheme])})
	}
	outgrown(es, facts)
	for _, e := range es {
		e.fig = measuredFigures(e, facts[e.r.Scheme])
	}
	sort.SliceStable(es, func(a, b int) bool { return choose.Less(es[a].fig, es[b].fig) })
	d := Decision{}
	for i, e := range es {
		d.Schemes = append(d.Schemes, schemeDecision(e, es, i))
	}
	for _, r := range stopped {
		d.Schemes = append(d.Schemes, SchemeDecision{Scheme: r.Scheme, Result: ResultStopped, Why: stoppedWords(r)})
	}
	for _, n := range notRun {
		d.Schemes = append(d.Schemes, SchemeDecision{Scheme: n, Result: ResultNotRun, Why: "the comparison stopped before it"})
	}
	d.conclude(es, len(stopped)+len(notRun) > 0)
	results := map[string]string{}
	for _, s := range d.Schemes {
		results[s.Scheme] = s.Result
	}
	for _, r := range reps {
		r.Result = results[r.Scheme]
	}
	return d
}

// outgrown adds, when a scheme with no problem stays under the partition
// size bound, the growth problem to every other with none that outgrows
// it: it serves the load, but is not picked while one that stays under
// exists (advise's rule).
func outgrown(es []*entry, facts map[string]SchemeFacts) {
	var under *entry
	for _, e := range es {
		if f := facts[e.r.Scheme]; len(e.problems) == 0 && f.Horizon != "" && !f.outgrows() && under == nil {
			under = e
		}
	}
	if under == nil {
		return
	}
	for _, e := range es {
		if f := facts[e.r.Scheme]; len(e.problems) == 0 && f.outgrows() {
			e.problems = append(e.problems, problem{growthWords(f) + "; " + under.r.Scheme + " stays under it", f.LargestPartitionRows / f.MaxPartitionRows})
			e.fig.Outgrown = true
		}
	}
}

// measuredFigures are what the rule reads of a run: its problems, the
// median latency of its answered questions (weighted by how many of each
// were answered), the partition bound from the judge, the main table's
// share of the questions asked, the requests/s and the questions' rows
// visited/s the account served, its index tables and its busiest
// partition's entities/s.
func measuredFigures(e *entry, f SchemeFacts) choose.Figures {
	r := e.r
	fig := choose.Figures{Name: r.Scheme, Problems: len(e.problems), Outgrown: e.fig.Outgrown, Bounded: !f.outgrows(), MainShare: 1, Indexes: f.Indexes}
	for _, p := range e.problems {
		fig.Over = max(fig.Over, p.ratio)
	}
	var answered, asked, main, visited int64
	var ms float64
	for _, q := range r.Questions {
		answered += q.Answered()
		ms += float64(q.Answered()) * q.Latency.P50
		asked += q.Ops
		if q.Plan != "index" {
			main += q.Ops
		}
		visited += q.Sums.Visited
	}
	if answered > 0 {
		fig.QuestionMs = ms / float64(answered)
	}
	if asked > 0 {
		fig.MainShare = float64(main) / float64(asked)
	}
	if r.DurationS > 0 {
		fig.AccountRequests = float64(r.Totals.Requests) / r.DurationS
		fig.AccountEntities = float64(visited) / r.DurationS
	}
	if b, ok := busiest(r); ok {
		fig.Busiest = b.EntitiesPerSec
	}
	return fig
}

// busiest is the busiest single partition of a run (its partitions are
// busiest first), leaving out requests spanning partitions.
func busiest(r *Report) (Partition, bool) {
	for _, p := range r.Partitions {
		if p.PartitionKey != "*" {
			return p, true
		}
	}
	return Partition{}, false
}
