package main

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// printQuestions shows each question's plan under each scheme, side by
// side, with its cost per question on the seeded table and at the
// horizon, as the judge predicts them.
func printQuestions(p *textfit.Printer, as []*keysAnalysis) {
	p.Wrapped(fmt.Sprintf("questions: each scheme's plan, and its cost per question on the seeded table (%s entities) beside the table at the horizon (%s entities), weighed by how often each key is asked",
		textfit.Rate(as[0].Judged.Seeded.Entities), textfit.Rate(as[0].Judged.Entities)), "  ")
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "QUESTION", Shrink: true}, {Header: "SCHEME", Shrink: true}, {Header: "PLAN"},
		{Header: "SEEDED REQS/Q", Short: "S REQS", Right: true}, {Header: "SEEDED VISITED/Q", Short: "S VISITED", Right: true},
		{Header: "SEEDED ROWS/Q", Short: "S ROWS", Right: true, Drop: 2},
		{Header: "HORIZON REQS/Q", Short: "H REQS", Right: true}, {Header: "HORIZON VISITED/Q", Short: "H VISITED", Right: true},
		{Header: "HORIZON ROWS/Q", Short: "H ROWS", Right: true, Drop: 2},
		{Header: "WHY", Wrap: true, Drop: 1},
	}}
	for k := range as[0].Judged.Questions {
		for _, a := range as {
			h, s := a.Judged.Questions[k], a.Judged.Seeded.Questions[k]
			t.Cells(textfit.Cell{Text: h.Name}, textfit.Cell{Text: a.Scheme}, textfit.Cell{Text: h.Label, Color: planColor(h)},
				textfit.Cell{Text: figure(s.RequestsPerQuestion)}, textfit.Cell{Text: figure(s.RowsVisitedPerQuestion)}, textfit.Cell{Text: figure(s.RowsPerQuestion)},
				textfit.Cell{Text: figure(h.RequestsPerQuestion), Color: grewColor(h.RequestsPerQuestion, s.RequestsPerQuestion)},
				textfit.Cell{Text: figure(h.RowsVisitedPerQuestion), Color: grewColor(h.RowsVisitedPerQuestion, s.RowsVisitedPerQuestion)},
				textfit.Cell{Text: figure(h.RowsPerQuestion)}, textfit.Cell{Text: h.Why})
		}
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
}

// figure writes a figure per question: two decimals under 10, one under
// 1,000, whole numbers above (with separators).
func figure(f float64) string {
	switch {
	case f < 10:
		return fmt.Sprintf("%.2f", f)
	case f < 1000:
		return textfit.Float(round1(f))
	}
	return textfit.Rate(f)
}

// grewColor marks a figure at the horizon more than twice the seeded
// table's.
func grewColor(horizon, seeded float64) textfit.Color {
	if horizon > 2*seeded && horizon-seeded > 1 {
		return textfit.Yellow
	}
	return textfit.NoColor
}

func planColor(q judge.QuestionCost) textfit.Color {
	switch {
	case q.Label == "scan (table)":
		return textfit.Red
	case q.Plan == "scan":
		return textfit.Yellow
	}
	return textfit.NoColor
}
