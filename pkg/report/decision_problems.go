package report

import (
	"fmt"
	"math"

	"github.com/tablestress/tablestress/pkg/choose"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// problem is one thing that keeps a measured scheme from being picked:
// in words, and how far over its limit (the figure over its limit; at
// least just over 1).
type problem struct {
	words string
	ratio float64
}

// overLimit is a ratio just over 1: over a limit by an amount the words
// say but no figure measures (a threshold of the scenario's, a partition
// throttled at its target).
const overLimit = 1 + 1e-9

// measuredProblems are what keeps the scheme of r from being picked, by
// choose's limits and the scenario's thresholds, in the order a reader
// looks for a cause: a partition over its target, requests throttled,
// questions failed, operations failed, operations dropped (the load was
// not offered), what the judge rules out in its keys (shapeProblems), then
// each threshold that failed. A run that measured
// nothing has that one problem.
//
// How far over each is (what ranks the schemes that fail, nearest
// first) is a figure of the whole run against its limit: the hottest
// partition's peak against its target, the throttled share of requests,
// the failed share of operations and the dropped share of those offered
// against 1%. A question that failed weighs through the operations that
// failed, as a share of all the work: its own failed share, which reaches
// 100% for a question as rare as it is broken, counts as just over its
// limit. A threshold of the scenario's is just over its limit too.
func measuredProblems(r *Report, f SchemeFacts) []problem {
	t := r.Totals
	if t.Counts.IsZero() {
		return []problem{{"nothing was measured: no operation completed, was dropped or sent a request", math.Inf(1)}}
	}
	var out []problem
	if p := hotProblem(r); p != nil {
		out = append(out, *p)
	}
	if share := shareOf(t.Throttled, t.Requests); share > choose.MaxThrottled {
		out = append(out, problem{fmt.Sprintf("%s of its requests were throttled, over %s", pct(t.Throttled, t.Requests), pctOf(choose.MaxThrottled)), share / choose.MaxThrottled})
	}
	for _, n := range QuestionOrder(r.Questions) {
		q := r.Questions[n]
		share := shareOf(q.Failed, q.Ops)
		switch {
		case q.Ops > 0 && q.Answered() == 0:
			out = append(out, problem{fmt.Sprintf("question %s was never answered: all %s asked failed after their retries", n, num(q.Ops)), overLimit})
		case share > choose.MaxFailed:
			out = append(out, problem{fmt.Sprintf("question %s failed %s of the %s times it was asked, over %s", n, pct(q.Failed, q.Ops), num(q.Ops), pctOf(choose.MaxFailed)), overLimit})
		}
	}
	if share := shareOf(t.Failed, t.Ops); share > choose.MaxFailed {
		out = append(out, problem{fmt.Sprintf("%s of its operations failed after their retries, over %s", pct(t.Failed, t.Ops), pctOf(choose.MaxFailed)), share / choose.MaxFailed})
	}
	if share := shareOf(t.Dropped, t.Offered()); share > choose.MaxDropped {
		out = append(out, problem{fmt.Sprintf("%s of the operations offered were dropped, over %s: %s, so the run shows nothing of it", pct(t.Dropped, t.Offered()), pctOf(choose.MaxDropped), notOffered(r)), share / choose.MaxDropped})
	}
	out = append(out, shapeProblems(f)...)
	for _, th := range r.Thresholds {
		if !th.OK {
			out = append(out, problem{"threshold " + th.Expr + " failed " + observedWords(th), overLimit})
		}
	}
	return out
}

// shapeProblems are the judge's verdicts on the scheme's keys (its
// findings: transactions that hold too few of the entities asked,
// PartitionKeys that only grow or shrink under writes), as the judge says
// them: the rules are the judge's, one place for keys, advise and the
// decision.
func shapeProblems(f SchemeFacts) []problem {
	out := make([]problem, 0, len(f.Findings))
	for _, k := range f.Findings {
		out = append(out, problem{k.Words, math.Max(k.Ratio, overLimit)})
	}
	return out
}

// notOffered says why a run's load was not offered: the client's limit
// when the report found one (a client short of CPU or workers: not the
// scheme's doing), else that the target did not keep up.
func notOffered(r *Report) string {
	if r.Client != nil && r.Client.Limit != nil {
		what := map[string]string{"cpu": "it ran out of CPU", "machine": "the machine's CPU was taken", "workers": "it ran out of workers"}[r.Client.Limit.Cause]
		return "the client could not offer the load (" + what + "; " + r.Client.Limit.Help + ")"
	}
	return "the load was not offered"
}

// hotProblem is the partition over its target (the hottest, when
// several are), or nil.
func hotProblem(r *Report) *problem {
	hots := HotPartitions(r)
	if len(hots) == 0 {
		return nil
	}
	h := hots[0]
	peak, target, unit := h.PeakEntitiesPerSec, r.Run.PartitionTarget, "entities/s"
	if judgedByUnits(r) && h.PeakRequestUnitsPerSec != nil {
		peak, target, unit = *h.PeakRequestUnitsPerSec, r.Run.PartitionUnits, "RU/s"
	}
	for _, p := range hots[1:] {
		if p.PeakEntitiesPerSec > h.PeakEntitiesPerSec && unit == "entities/s" {
			h, peak = p, p.PeakEntitiesPerSec
		}
	}
	words := fmt.Sprintf("partition %s peaked at %s %s, at or over %s", displayKey(h.PartitionKey), rate(peak), unit, targetPhrase(r))
	if len(hots) > 1 {
		words += fmt.Sprintf(" (%s partitions reached it)", num(int64(len(hots))))
	}
	return &problem{words, math.Max(peak/math.Max(target, 1e-9), overLimit)}
}

// observedWords says what a failed threshold observed.
func observedWords(t Threshold) string {
	if t.Missing != "" {
		return "(nothing observed: " + t.Missing + ")"
	}
	return "(observed " + textfit.Float(t.Observed) + t.Unit + observedIn(t) + ")"
}

// shareOf is part over whole, 0 when whole is 0.
func shareOf(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(part) / float64(whole)
}
