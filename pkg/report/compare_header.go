package report

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// writeCompareHeader says what was compared (or searched, when the first
// run ended a find) where and how: the load, workers, retry strategy and
// target; every scheme with how far it ran when not all ran to their end;
// and the one model every run shares, if any.
func writeCompareHeader(p *textfit.Printer, c *Compare, reps []*Report) {
	n := len(reps) + len(c.NotRun)
	if len(reps) == 0 {
		p.Line("tablestress compare: %s: no scheme ran (%d planned)", c.Scenario, n)
		return
	}
	r0 := reps[0]
	if r0.Find != nil {
		p.Line("tablestress find: %s on %s, %d scheme(s), seed %d, the same entity stream and workload; each scheme at the highest rate it sustained",
			r0.Scenario, r0.Target.Kind, n, r0.Run.Seed)
	} else {
		p.Line("tablestress compare: %s on %s, %d scheme(s), seed %d, the same entity stream and workload", r0.Scenario, r0.Target.Kind, n, r0.Run.Seed)
	}
	p.Wrapped("  "+RunHow(r0), "")
	if ran := ranLine(reps, c.NotRun); ran != "" {
		p.Painted(textfit.Red, "%s", ran)
	}
	if m := models(reps); m != "" {
		p.Line("model: %s%s", m, clockNote(r0.Run))
	}
}

// RunHow says how a run was driven and where: the load (open loop at a
// rate, or closed) and its workers, the retry strategy, the measured
// duration after the warm-up, and the target.
func RunHow(r *Report) string {
	planned := r.Run.DurationS
	if planned == 0 {
		planned = r.DurationS
	}
	return fmt.Sprintf("%s, retry %s, %ss measured after a %gs warm-up, target %s (%s)",
		LoadShape(r.Run), r.Run.Retry, fixed(planned, 1), r.Run.WarmupS, r.Target.Kind, r.Target.Endpoint)
}

// ranLine lists every scheme with how far it ran, when one did not run
// to its end (interrupted, failed, or not run): "" when all did.
func ranLine(reps []*Report, notRun []Planned) string {
	incomplete := len(notRun) > 0
	for _, r := range reps {
		incomplete = incomplete || r.Interrupted || r.Failure != ""
	}
	if !incomplete {
		return ""
	}
	var parts []string
	for _, r := range reps {
		switch {
		case r.Interrupted || r.Failure != "":
			parts = append(parts, runLabel(r, reps)+" "+stoppedWords(r))
		default:
			parts = append(parts, runLabel(r, reps)+" ran its "+secondsText(r.DurationS))
		}
	}
	for _, n := range notRun {
		parts = append(parts, plannedLabel(n, reps)+" not run")
	}
	return "NOT EVERY SCHEME RAN: " + strings.Join(parts, "; ")
}

// plannedLabel names a run not made as runLabel names those made.
func plannedLabel(n Planned, reps []*Report) string {
	if n.Model == "" || models(reps) != "" {
		return n.Scheme
	}
	return n.Scheme + " @ " + n.Model
}
