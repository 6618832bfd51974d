package report

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/choose"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// schemeDecision is entry i of the ranked entries as the decision shows
// it: failed with its problems, the pick, or passed and why it ranks
// below the pick (a scheme that serves the load but outgrows the
// partition size bound while the pick stays under it passes, and ranks
// below for that).
func schemeDecision(e *entry, es []*entry, i int) SchemeDecision {
	s := SchemeDecision{Scheme: e.r.Scheme}
	switch {
	case e.fig.Outgrown:
		// It serves the load: it ranks below the pick for its growth alone.
		s.Result, s.Why, s.Problems = ResultPassed, "it ranks below "+es[0].r.Scheme+": "+e.problems[0].words, []string{e.problems[0].words}
	case len(e.problems) > 0:
		s.Result, s.Why = ResultFailed, e.problems[0].words
		switch n := len(e.problems) - 1; {
		case n == 1:
			s.Why += "; and 1 more problem"
		case n > 1:
			s.Why += fmt.Sprintf("; and %d more problems", n)
		}
		for _, p := range e.problems {
			s.Problems = append(s.Problems, p.words)
		}
	case i == 0:
		s.Result, s.Why = ResultPick, pickWords(es)
	default:
		s.Result, s.Why = ResultPassed, lostWords(e, es[0])
	}
	return s
}

// maxLineProblems is how many of the nearest scheme's problems the
// decision's line names (the JSON lists them all).
const maxLineProblems = 3

// conclude writes the decision's line: no decision when not every scheme
// ran to its end, else the pick, or that none passes and the nearest.
func (d *Decision) conclude(es []*entry, incomplete bool) {
	switch {
	case incomplete:
		var what []string
		for k := range d.Schemes {
			s := &d.Schemes[k]
			if s.Result == ResultPick {
				s.Result, s.Why = ResultPassed, "it passes, but not every scheme ran to its end"
			}
			switch s.Result {
			case ResultStopped:
				what = append(what, s.Scheme+" "+s.Why)
			case ResultNotRun:
				what = append(what, s.Scheme+" not run")
			}
		}
		d.Line = "no decision: not every scheme ran to its end (" + strings.Join(what, "; ") + ")"
	case len(es) == 0:
		d.Line = "no decision: no scheme ran"
	case len(es[0].problems) == 0:
		d.Pick = es[0].r.Scheme
		d.NearTie = len(es) > 1 && len(es[1].problems) == 0 && nearTie(es[0], es[1])
		d.Line = "pick " + d.Pick + ": " + d.Schemes[0].Why
		if f := es[0].facts; f.outgrows() {
			// No scheme that passes stays under the bound (advise's rule
			// then recommends it all the same): said, as a caution.
			d.Line += "; but " + growthWords(f) + ", and no scheme that passes stays under it"
		}
	default:
		d.Nearest = es[0].r.Scheme
		probs := d.Schemes[0].Problems
		more := ""
		if len(probs) > maxLineProblems {
			probs, more = probs[:maxLineProblems], fmt.Sprintf("; and %d more problems", len(probs)-maxLineProblems)
		}
		d.Line = "no scheme passes; the nearest is " + d.Nearest + ", which fails on: " + strings.Join(probs, "; ") + more
	}
}

// pickWords says why the first of the ranked entries is picked: the only
// one compared, the only one that passes, or what it beats the runner-up
// by.
func pickWords(es []*entry) string {
	pick := es[0]
	switch {
	case len(es) == 1:
		return "it passes (" + summary(pick.r) + "); it is the only scheme compared"
	case es[1].fig.Outgrown:
		return "its partitions stay under the size bound over the horizon, and " + es[1].r.Scheme + ", which passes too, outgrows it (" + summary(pick.r) + ")"
	case len(es[1].problems) > 0:
		return "the only scheme that passes (" + summary(pick.r) + ")"
	}
	c, _ := choose.Decide(pick.fig, es[1].fig)
	return "it ranks before " + es[1].r.Scheme + " by " + c + ": " + criterionWords(c, pick, es[1], true)
}

// lostWords is the one reason a scheme that passes ranks below the pick.
func lostWords(e, pick *entry) string {
	c, _ := choose.Decide(pick.fig, e.fig)
	return "it ranks below " + pick.r.Scheme + " by " + c + ": " + criterionWords(c, pick, e, false)
}

// criterionWords says how the pick and another scheme that passes
// differ on the criterion that decided, from the side of the one named
// (the pick when ofPick), and whether measured figures made it a
// near-tie.
func criterionWords(c string, pick, other *entry, ofPick bool) string {
	a, b := other, pick
	if ofPick {
		a, b = pick, other
	}
	x, y := a.fig, b.fig
	var w string
	switch c {
	case choose.ByQuestionCost:
		w = fmt.Sprintf("its questions answered in %s ms (the median, weighted by how many of each were answered) against %s ms under %s", ms(x.QuestionMs), ms(y.QuestionMs), b.r.Scheme)
	case choose.ByBound:
		w = fmt.Sprintf("its partitions stay under the size bound over the horizon, %s's outgrow it", b.r.Scheme)
		if !x.Bounded {
			w = fmt.Sprintf("its partitions outgrow the size bound over the horizon, %s's stay under it", b.r.Scheme)
		}
	case choose.ByMainTable:
		w = fmt.Sprintf("its main table answers %s of the questions asked, %s's %s", pctOf(x.MainShare), b.r.Scheme, pctOf(y.MainShare))
	case choose.ByAccountRequests:
		w = fmt.Sprintf("it sent the account %s requests/s against %s under %s", rate(x.AccountRequests), rate(y.AccountRequests), b.r.Scheme)
	case choose.ByAccountEntities:
		w = fmt.Sprintf("its questions visited %s rows/s against %s under %s", rate(x.AccountEntities), rate(y.AccountEntities), b.r.Scheme)
	case choose.ByIndexes:
		w = fmt.Sprintf("it writes %d index table(s), %s %d", x.Indexes, b.r.Scheme, y.Indexes)
	case choose.ByBusiest:
		w = fmt.Sprintf("its busiest partition took %s entities/s against %s under %s", rate(x.Busiest), rate(y.Busiest), b.r.Scheme)
	default:
		return fmt.Sprintf("it ties with %s on every figure the rule reads, and %s comes first by name", b.r.Scheme, pick.r.Scheme)
	}
	if nearTie(pick, other) {
		w += ": a near-tie (within " + pctOf(choose.NearTie) + ", which no single run tells apart): either serves the load"
	}
	return w
}

// nearTie reports whether the pick ranks before other by a measured
// figure within choose.NearTie of other's.
func nearTie(pick, other *entry) bool {
	c, _ := choose.Decide(pick.fig, other.fig)
	x, y := pick.fig, other.fig
	switch c {
	case choose.ByQuestionCost:
		return choose.Near(x.QuestionMs, y.QuestionMs)
	case choose.ByAccountRequests:
		return choose.Near(x.AccountRequests, y.AccountRequests)
	case choose.ByAccountEntities:
		return choose.Near(x.AccountEntities, y.AccountEntities)
	case choose.ByBusiest:
		return choose.Near(x.Busiest, y.Busiest)
	case choose.ByName:
		return true
	}
	return false
}

// summary is what a scheme that passes measured, in a few figures.
func summary(r *Report) string {
	t := r.Totals
	parts := []string{pct(t.Throttled, t.Requests) + " of requests throttled", pct(t.Failed, t.Ops) + " of operations failed"}
	if b, ok := r.PeakPartition(); ok {
		parts = append(parts, "busiest peak "+rate(b.PeakEntitiesPerSec)+" of "+rate(r.Run.PartitionTarget)+" entities/s")
	}
	return strings.Join(parts, ", ")
}

// stoppedWords says how a run that did not run to its end ended.
func stoppedWords(r *Report) string {
	switch {
	case r.Failure != "" && !r.Interrupted:
		return "its run failed: " + r.Failure
	case r.StartedAt.IsZero():
		return "stopped before its measured run began"
	}
	out := "stopped after " + secondsText(r.DurationS)
	if r.Run.DurationS > 0 {
		out += " of " + secondsText(r.Run.DurationS)
	}
	return out
}

// growthWords says how the judge finds a scheme's largest partition past
// the size bound at the horizon.
func growthWords(f SchemeFacts) string {
	return fmt.Sprintf("its partitions outgrow the size bound: the largest, %q, holds %s rows after %s of growth at the workload's write rate, over the bound of %s",
		f.LargestPartition, textfit.Rate(f.LargestPartitionRows), f.Horizon, textfit.Rate(f.MaxPartitionRows))
}
