package main

import (
	"strings"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// printProof prints the proof: each scheme's busiest partition measured
// beside predicted, its questions, and the verdict.
func printProof(p *textfit.Printer, pr *advise.Proof) {
	p.Line("proof: compare of %s on %s at %s ops/s, %gs each after a %gs warm-up", schemeNames(pr), orDash(pr.Target), textfit.Rate(pr.Rate), pr.DurationS, pr.WarmupS)
	p.Wrapped("  "+pr.DurationWhy, "")
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "SCHEME", Shrink: true}, {Header: "ROLE", Drop: 2}, {Header: "BUSIEST PARTITION", Short: "BUSIEST", Shrink: true, Drop: 3},
		{Header: "PREDICTED/S", Short: "PRED/S", Right: true}, {Header: "MEASURED/S", Short: "MEAS/S", Right: true}, {Header: "OFF", Right: true},
		{Header: "PEAK PREDICTED", Short: "PEAK PRED", Right: true, Drop: 1}, {Header: "PEAK MEASURED", Short: "PEAK", Right: true, Drop: 1},
		{Header: "THROTTLED", Right: true},
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
			textfit.Cell{Text: off}, textfit.Cell{Text: textfit.Rate(r.Predicted.PeakEntitiesPerSec)}, textfit.Cell{Text: peak}, textfit.Cell{Text: thr})
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
	printProofQuestions(p, pr)
	switch {
	case !pr.Run:
		p.Painted(textfit.Red, "proof: not run")
	case pr.OK:
		p.Painted(textfit.Green, "proof: ok: the recommendation was throttled on at most %s of its requests and its busiest partition measured within %s of the prediction",
			pctOf(advise.MaxThrottled), pctOf(pr.Tolerance))
	default:
		p.Painted(textfit.Red, "proof: FAILED: %s", strings.Join(pr.Failures, "; "))
	}
}

// printProofQuestions prints each question's requests per question,
// predicted and measured, and its p99, per scheme.
func printProofQuestions(p *textfit.Printer, pr *advise.Proof) {
	t := &textfit.Table{Indent: "  ", Cols: []textfit.Column{
		{Header: "QUESTION", Shrink: true}, {Header: "SCHEME", Shrink: true}, {Header: "PLAN", Drop: 1},
		{Header: "REQUESTS/Q PREDICTED", Short: "REQS/Q PRED", Right: true}, {Header: "REQUESTS/Q", Short: "REQS/Q", Right: true},
		{Header: "P99 MS", Right: true}, {Header: "ASKED", Right: true, Drop: 2}, {Header: "FAILED", Right: true},
	}}
	for _, r := range pr.Schemes {
		for _, q := range r.Questions {
			meas, p99 := "-", "-"
			if q.Asked > 0 {
				meas = textfit.Float(textfit.Round2(q.Requests))
			}
			if q.Asked > q.Failed {
				p99 = textfit.Float(textfit.Round2(q.P99Ms))
			}
			t.Row(q.Name, r.Scheme, q.Plan, textfit.Float(textfit.Round2(q.PredictedRequests)), meas, p99,
				textfit.Int(q.Asked), textfit.Int(q.Failed))
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
