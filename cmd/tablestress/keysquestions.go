package main

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/textfit"
	"github.com/tablestress/tablestress/pkg/workload"
)

// printQuestions shows each question's plan under each scheme, side by
// side, with its predicted cost on a model of the seeded table.
func printQuestions(p *textfit.Printer, as []*workload.Analysis) {
	p.Line("questions: each scheme's plan, and its cost per question on the seeded table (mean of %d questions, entities picked by the question's request distribution)", workload.QuestionSamples)
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "QUESTION", Shrink: true}, {Header: "SCHEME", Shrink: true}, {Header: "PLAN"},
		{Header: "PARTITIONS/Q", Short: "PARTS/Q", Right: true}, {Header: "REQUESTS/Q", Short: "REQS/Q", Right: true},
		{Header: "ROWS VISITED/Q", Short: "VISITED/Q", Right: true}, {Header: "ROWS/Q", Right: true, Drop: 2},
		{Header: "WHY", Wrap: true, Drop: 1},
	}}
	for k := range as[0].Questions {
		for _, a := range as {
			e := a.Questions[k]
			label := planLabel(e)
			t.Cells(textfit.Cell{Text: e.Name}, textfit.Cell{Text: a.Scheme}, textfit.Cell{Text: label, Color: planColor(e)},
				textfit.Cell{Text: fmt.Sprintf("%.2f", e.PartitionsPerQuestion)}, textfit.Cell{Text: fmt.Sprintf("%.2f", e.RequestsPerQuestion)},
				textfit.Cell{Text: textfit.Float(round1(e.RowsVisitedPerQuestion))}, textfit.Cell{Text: textfit.Float(round1(e.RowsReturnedPerQuestion))},
				textfit.Cell{Text: e.Why})
		}
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
}

// planLabel is a plan as the text shows it: "scan (table)" for a table
// scan, "index NAME" for an index plan.
func planLabel(e question.Estimate) string {
	switch {
	case e.Plan == question.Scan && e.Scope == question.ScopeTable:
		return "scan (table)"
	case e.Plan == question.Index:
		return "index " + e.Index
	}
	return string(e.Plan)
}

func planColor(e question.Estimate) textfit.Color {
	switch {
	case e.Plan == question.Scan && e.Scope == question.ScopeTable:
		return textfit.Red
	case e.Plan == question.Scan:
		return textfit.Yellow
	}
	return textfit.NoColor
}
