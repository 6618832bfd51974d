package main

import (
	"html"
	"strings"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// writeProofHTML writes the proof's section: how it ran, each scheme's
// busiest partition measured beside predicted, each question's requests
// and rows visited measured beside predicted, its notes and its verdict
// (green when it passed, red when it failed or did not run).
func writeProofHTML(ew *textfit.Printer, pr *advise.Proof) {
	e := html.EscapeString
	ew.Printf("<section><h2>Proof</h2>\n<p>compare of %s on %s at %s ops/s, %gs each after a %gs warm-up, at %s entities; %s</p>\n",
		e(schemeNames(pr)), e(orDash(pr.Target)), e(textfit.Rate(pr.Rate)), pr.DurationS, pr.WarmupS, e(textfit.Int(pr.Entities)), e(pr.DurationWhy))
	ew.Printf("<table><tr><th class=\"l s\">scheme</th><th class=\"l\">role</th><th class=\"l\">busiest partition</th><th>predicted/s</th><th>measured/s</th><th>off</th><th>peak predicted</th><th>peak measured</th><th>throttled</th><th>throttled predicted</th></tr>\n")
	for _, r := range pr.Schemes {
		m := r.Measured
		meas, off, peak, thr, part := "-", "-", "-", "-", r.Predicted.BusiestPartition
		if m != nil {
			meas, peak, thr, part = textfit.Rate(m.BusiestEntitiesPerSec), textfit.Rate(m.PeakEntitiesPerSec), pctOf(m.ThrottledShare), m.BusiestPartition
			off = pctOf((m.BusiestEntitiesPerSec - r.Predicted.BusiestEntitiesPerSec) / max(r.Predicted.BusiestEntitiesPerSec, 1e-9))
		}
		ew.Printf("<tr><td class=\"l s\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%s ± %s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			e(r.Scheme), e(r.Role), e(part), e(textfit.Rate(r.Predicted.BusiestEntitiesPerSec)), e(textfit.Rate(r.Predicted.BusiestSD)), e(meas), e(off),
			e(textfit.Rate(r.Predicted.PeakEntitiesPerSec)), e(peak), e(thr), e(pctOf(r.Predicted.ThrottledShare)))
	}
	ew.Printf("</table>\n")
	writeProofQuestionsHTML(ew, pr)
	for _, n := range pr.Notes {
		ew.Printf("<p class=\"note\">note: %s</p>\n", e(n))
	}
	switch {
	case !pr.Run:
		ew.Printf("<p class=\"verdict bad\">proof: not run</p>\n")
	case pr.OK:
		busiest := "its busiest partition measured within " + pctOf(pr.Tolerance) + " of the prediction"
		if len(pr.Schemes) > 0 && pr.Schemes[0].Predicted.BusiestEntitiesPerSec < pr.CoolBelow {
			busiest = "its busiest partition stayed under " + textfit.Rate(pr.HotAbove) + " entities/s"
		}
		ew.Printf("<p class=\"verdict good\">proof: ok: the recommendation was throttled on at most %s of its requests, %s, and %s, at %s entities</p>\n",
			e(pctOf(advise.MaxThrottled)), e(busiest), e(checkedWords(pr)), e(textfit.Int(pr.Entities)))
	default:
		ew.Printf("<p class=\"verdict bad\">proof: FAILED: %s</p>\n", e(strings.Join(pr.Failures, "; ")))
	}
	ew.Printf("</section>\n")
}

// writeProofQuestionsHTML writes each question's figures per scheme,
// predicted at the proof's depth beside measured.
func writeProofQuestionsHTML(ew *textfit.Printer, pr *advise.Proof) {
	e := html.EscapeString
	ew.Printf("<h3>Questions</h3><table><tr><th class=\"l\">question</th><th class=\"l s\">scheme</th><th class=\"l\">plan</th><th>requests/q predicted</th><th>requests/q</th><th>rows visited/q predicted</th><th>rows visited/q</th><th>within</th><th>p99 ms</th><th>asked</th><th>failed</th></tr>\n")
	for _, r := range pr.Schemes {
		for _, q := range r.Questions {
			meas, visited, p99, within := "-", "-", "-", "-"
			if q.Asked > 0 && q.NotChecked == "" {
				meas, visited = textfit.Float(textfit.Round2(q.Requests)), textfit.Float(textfit.Round2(q.RowsVisited))
			}
			if q.Asked > q.Failed {
				p99 = textfit.Float(textfit.Round2(q.P99Ms))
			}
			switch {
			case q.NotChecked != "":
				within = "not checked"
			case q.Checked:
				within = pctOf(q.Tolerance)
			}
			ew.Printf("<tr><td class=\"l\">%s</td><td class=\"l s\">%s</td><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td></tr>\n",
				e(q.Name), e(r.Scheme), e(q.Plan), e(textfit.Float(textfit.Round2(q.PredictedRequests))), e(meas),
				e(textfit.Float(textfit.Round2(q.PredictedRowsVisited))), e(visited), e(within), e(p99), e(textfit.Int(q.Asked)), failedClass(q.Failed), e(textfit.Int(q.Failed)))
		}
	}
	ew.Printf("</table>\n")
}

// failedClass marks a count of failed questions bad when there are any.
func failedClass(n int64) string {
	if n > 0 {
		return "bad"
	}
	return ""
}
