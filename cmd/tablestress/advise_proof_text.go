package main

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// printProof prints the proof: each scheme's busiest partition measured
// beside predicted, its questions, and the verdict.
func printProof(p *textfit.Printer, pr *advise.Proof) {
	p.Line("proof: compare of %s on %s at %s ops/s, %gs each after a %gs warm-up", schemeNames(pr), orDash(pr.Target), textfit.Rate(pr.Rate), pr.DurationS, pr.WarmupS)
	p.Wrapped("  "+pr.DurationWhy, "")
	if pr.Clock == "virtual" {
		p.Wrapped("  on a virtual clock: the client and the service's model advanced together, the runs at "+proofSpeed(pr.VirtualPerWall)+
			" the wall clock's speed on this machine (a virtual run is never short of CPU: it takes longer instead)", "")
	}
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "SCHEME", Shrink: true}, {Header: "ROLE", Drop: 2}, {Header: "BUSIEST PARTITION", Short: "BUSIEST", Shrink: true, Drop: 3},
		{Header: "PREDICTED/S", Short: "PRED/S", Right: true}, {Header: "MEASURED/S", Short: "MEAS/S", Right: true}, {Header: "OFF", Right: true},
		{Header: "PEAK PREDICTED", Short: "PEAK PRED", Right: true, Drop: 1}, {Header: "PEAK MEASURED", Short: "PEAK", Right: true, Drop: 1},
		{Header: "THROTTLED", Right: true}, {Header: "THROTTLED PREDICTED", Short: "THR PRED", Right: true, Drop: 4},
	}}
	for _, r := range pr.Schemes {
		m := r.Measured
		meas, off, peak, thr, part := "-", "-", "-", "-", r.Predicted.BusiestPartition
		if m != nil {
			meas, peak, thr, part = textfit.Rate(m.BusiestEntitiesPerSec), textfit.Rate(m.PeakEntitiesPerSec), pctOf(m.ThrottledShare), m.BusiestPartition
			off = pctOf((m.BusiestEntitiesPerSec - r.Predicted.BusiestEntitiesPerSec) / max(r.Predicted.BusiestEntitiesPerSec, 1e-9))
		}
		c := textfit.NoColor
		if r.Role == "recommended" {
			c = textfit.Green
			if !pr.OK {
				c = textfit.Red
			}
		}
		t.Cells(textfit.Cell{Text: r.Scheme, Color: c}, textfit.Cell{Text: r.Role}, textfit.Cell{Text: part},
			textfit.Cell{Text: textfit.Rate(r.Predicted.BusiestEntitiesPerSec) + " ± " + textfit.Rate(r.Predicted.BusiestSD)}, textfit.Cell{Text: meas},
			textfit.Cell{Text: off}, textfit.Cell{Text: textfit.Rate(r.Predicted.PeakEntitiesPerSec)}, textfit.Cell{Text: peak}, textfit.Cell{Text: thr},
			textfit.Cell{Text: pctOf(r.Predicted.ThrottledShare)})
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
	printProofQuestions(p, pr)
	for _, n := range pr.Notes {
		p.Wrapped("  note: "+n, "")
	}
	switch {
	case !pr.Run:
		p.Painted(textfit.Red, "proof: not run")
	case pr.OK:
		busiest := "its busiest partition measured within " + pctOf(pr.Tolerance) + " of the prediction"
		if len(pr.Schemes) > 0 && pr.Schemes[0].Predicted.BusiestEntitiesPerSec < pr.CoolBelow {
			busiest = "its busiest partition stayed under " + textfit.Rate(pr.HotAbove) + " entities/s"
		}
		p.Painted(textfit.Green, "proof: ok: the recommendation was throttled on at most %s of its requests, %s, and %s, at %s entities",
			pctOf(advise.MaxThrottled), busiest, checkedWords(pr), textfit.Int(pr.Entities))
	default:
		p.Painted(textfit.Red, "proof: FAILED: %s", strings.Join(pr.Failures, "; "))
	}
}

// printProofQuestions prints each question's requests and rows visited
// per question, predicted at the proof's depth and measured, the
// tolerance it is checked with, and its p99, per scheme.
func printProofQuestions(p *textfit.Printer, pr *advise.Proof) {
	t := &textfit.Table{Indent: "  ", Cols: []textfit.Column{
		{Header: "QUESTION", Shrink: true}, {Header: "SCHEME", Shrink: true}, {Header: "PLAN", Drop: 1},
		{Header: "REQUESTS/Q PREDICTED", Short: "REQS/Q PRED", Right: true}, {Header: "REQUESTS/Q", Short: "REQS/Q", Right: true},
		{Header: "ROWS VISITED/Q PREDICTED", Short: "VISITED PRED", Right: true}, {Header: "ROWS VISITED/Q", Short: "VISITED", Right: true},
		{Header: "WITHIN", Right: true, Drop: 3}, {Header: "P99 MS", Right: true, Drop: 1}, {Header: "ASKED", Right: true, Drop: 2},
		{Header: "FAILED", Right: true},
	}}
	for _, r := range pr.Schemes {
		for _, q := range r.Questions {
			meas, visited, p99, within := "-", "-", "-", "-"
			switch {
			case q.Asked > 0 && q.NotChecked == "":
				meas, visited = textfit.Float(textfit.Round2(q.Requests)), textfit.Float(textfit.Round2(q.RowsVisited))
			case q.Asked == 0 && q.Unfinished > 0:
				meas, visited = "unfinished", "unfinished" // none finished within the run: a note says more
			}
			if q.Asked > q.Failed {
				p99 = textfit.Float(textfit.Round2(q.P99Ms))
			}
			switch {
			case q.NotChecked != "":
				within = "not checked" // none finished: the notes say why
			case q.Checked:
				within = pctOf(q.Tolerance)
			}
			t.Row(q.Name, r.Scheme, q.Plan, textfit.Float(textfit.Round2(q.PredictedRequests)), meas,
				textfit.Float(textfit.Round2(q.PredictedRowsVisited)), visited, within, p99, textfit.Int(q.Asked), textfit.Int(q.Failed))
		}
	}
	if t.Len() == 0 {
		return
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// checkedWords says the recommendation's questions were within their
// tolerances, and, when the proof could not check some (asked fewer than
// once, or none of whose asks finished within the run), how many it did.
func checkedWords(pr *advise.Proof) string {
	all := "its questions' requests and rows visited within theirs"
	if len(pr.Schemes) == 0 {
		return all
	}
	qs := pr.Schemes[0].Questions
	n := 0
	for _, q := range qs {
		if q.Checked && q.Asked > 0 && q.NotChecked == "" {
			n++
		}
	}
	if n == len(qs) {
		return all
	}
	return fmt.Sprintf("the requests and rows visited of the %d of its %d questions it checked within theirs (the notes say why not the others)", n, len(qs))
}

// proofSpeed is a virtual-to-wall ratio in words: "2.5×".
func proofSpeed(r float64) string {
	switch {
	case !(r > 0):
		return "an unmeasured multiple of"
	case r >= 10:
		return fmt.Sprintf("%.0f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}
