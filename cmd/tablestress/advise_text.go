package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

func fmtRate(f float64) string { return textfit.Rate(f) }

// printAdvice prints the advice as text fitted to the terminal: the ranked
// candidates, the recommendation with why, what it costs and its scheme
// block, the runner-up, the scenario's own schemes, and the proof.
func printAdvice(e *env, a *advise.Advice, proof *advise.Proof) error {
	p := &textfit.Printer{W: e.stdout, Style: e.style()}
	own := 0
	for _, c := range a.Candidates {
		if c.Own {
			own++
		}
	}
	printHeader(p, a, own)
	for _, n := range a.Notes {
		p.Line("note: %s", n)
	}
	p.Blank()
	printCandidates(p, a)
	switch {
	case a.WithExceptions():
		printExceptions(p, a)
	case a.Infeasible != nil:
		p.Blank()
		p.Painted(textfit.Red, "infeasible: %s", a.Infeasible.Reason)
		printSplit(p, a)
	}
	if r := a.Withdrawn; r != nil {
		p.Blank()
		p.Painted(textfit.Red, "withdrawn: %s (PartitionKey %s, RowKey %s): its proof failed (below), so it is not recommended", r.Name, r.PartitionKey, r.RowKey)
	}
	if r := a.Recommended; r != nil {
		p.Blank()
		printPick(p, "recommended", r)
		p.Line("  paste into the scenario's schemes:")
		for _, l := range strings.Split(strings.TrimRight(r.YAML, "\n"), "\n") {
			p.Printf("  %s\n", l)
		}
	}
	if r := a.RunnerUp; r != nil {
		p.Blank()
		p.Line("runner-up: %s (PartitionKey %s, RowKey %s): %s", r.Name, r.PartitionKey, r.RowKey, r.Why[0])
	}
	if len(a.Lost) > 0 {
		p.Blank()
		p.Line("the scenario's own schemes:")
		for _, l := range a.Lost {
			p.Wrapped(fmt.Sprintf("  %s (#%d): %s", l.Name, l.Rank, l.Why), "")
		}
	}
	if proof != nil {
		p.Blank()
		printProof(p, proof)
	}
	return p.Err
}

func pctOf(f float64) string { return textfit.Float(math.Round(f*1000)/10) + "%" }

// loadText writes a share of a target: a percentage up to ten times the
// target, then how many times over it (textfit.Big: "6,307×", "12
// billion×"), not a percentage of fifteen digits.
func loadText(f float64) string {
	if f < 10 {
		return pctOf(f)
	}
	return textfit.Big(math.Round(f)) + "×"
}

// questionMsText writes a question's modelled service time in ms, or
// "never" when it is longer than the horizon: the question would not
// end while the table it reads still holds what it asks.
func questionMsText(ms float64, horizon time.Duration) string {
	if horizon > 0 && ms*float64(time.Millisecond) >= float64(horizon) {
		return "never"
	}
	if ms < 1e9 {
		return textfit.Float(math.Round(ms*10) / 10)
	}
	return textfit.Big(ms)
}

// printSplit introduces the advice for one account's share of the load
// (or for the table provisioned with the request units it needs), judged
// the same way: its ranked candidates, then its recommendation below; or
// why even that share cannot be served.
func printSplit(p *textfit.Printer, a *advise.Advice) {
	sp := a.Split
	if sp == nil {
		return
	}
	what := fmt.Sprintf("one account's share of the load, %s ops/s", textfit.Rate(sp.Peak))
	if a.Infeasible.Accounts == 0 {
		what = "the table provisioned " + sp.Model
	}
	p.Blank()
	p.Line("for %s, judged the same way:", what)
	printCandidates(p, sp)
	if sp.Recommended == nil {
		p.Blank()
		reason := "nothing can be recommended"
		if sp.Infeasible != nil {
			reason = sp.Infeasible.Reason
		}
		p.Painted(textfit.Red, "for %s too, infeasible: %s", what, reason)
		return
	}
	p.Line("the recommendation below is for %s", what)
}

// printCandidates prints the ranked table.
func printCandidates(p *textfit.Printer, a *advise.Advice) {
	cosmos := strings.HasPrefix(a.Model, "cosmos")
	busiest := textfit.Column{Header: "BUSIEST ENTITIES/S", Short: "BUSIEST/S", Right: true}
	if cosmos {
		busiest = textfit.Column{Header: "BUSIEST RU/S", Right: true}
	}
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "#", Right: true}, {Header: "SCHEME", Shrink: true}, {Header: "PARTITION KEY", Short: "PK", Shrink: true, Drop: 2},
		{Header: "ROW KEY", Short: "RK", Drop: 3}, busiest, {Header: "OF TARGET", Short: "LOAD", Right: true, Drop: 1},
		{Header: "QUESTION MS", Short: "Q MS", Right: true}, {Header: "PARETO", Short: "P"}, {Header: "VERDICT", Wrap: true},
	}}
	for _, c := range a.Candidates {
		pr := c.Predicted
		b, load := pr.BusiestEntitiesPerSec, 0.0
		if cosmos && pr.Cosmos != nil {
			b = pr.Cosmos.BusiestPerSec
		}
		load = b / a.Input.Target()
		name, front := c.Name, ""
		if c.Own {
			name += " (own)"
		}
		if c.Front {
			front = "*"
		}
		v := textfit.Cell{Text: verdictOf(a, c)}
		switch {
		case len(c.Problems) > 0:
			v.Color = textfit.Red
		case a.Recommended != nil && c.Name == a.Recommended.Name:
			v.Color = textfit.Green
		}
		t.Cells(textfit.Cell{Text: fmt.Sprint(c.Rank)}, textfit.Cell{Text: name}, textfit.Cell{Text: c.PartitionKey}, textfit.Cell{Text: c.RowKey},
			textfit.Cell{Text: textfit.Big(b)}, textfit.Cell{Text: loadText(load)}, textfit.Cell{Text: questionMsText(pr.QuestionMs, a.Input.Opts.Horizon)},
			textfit.Cell{Text: front}, v)
	}
	dropped, _ := t.Render(p, p.Style)
	if note := textfit.Dropped(dropped); note != "" {
		p.Line("%s", note)
	}
	p.Line("QUESTION MS: a question's modelled service time, weighted by how often the mix asks it; P(ARETO) *: no other scheme has both a cooler busiest partition and cheaper questions")
}

// verdictOf is a candidate's verdict in the table.
func verdictOf(a *advise.Advice, c advise.CandidateView) string {
	switch {
	case a.Recommended != nil && c.Name == a.Recommended.Name && (a.Split == nil):
		return "recommended"
	case a.Withdrawn != nil && c.Name == a.Withdrawn.Name && (a.Split == nil):
		return "withdrawn: its proof failed"
	case a.RunnerUp != nil && c.Name == a.RunnerUp.Name && a.Split == nil:
		return "runner-up"
	case len(c.Problems) > 0:
		return c.Problems[0]
	}
	return "ok"
}

// printPick prints the recommendation: its keys, why, what it costs.
func printPick(p *textfit.Printer, role string, r *advise.Pick) {
	p.Painted(textfit.Green, "%s: %s", role, r.Name)
	p.Line("  PartitionKey %s, RowKey %s", r.PartitionKey, r.RowKey)
	for _, ix := range r.Indexes {
		p.Line("  index table %s: PartitionKey %s, RowKey %s", ix.Name, ix.PartitionKey, ix.RowKey)
	}
	p.Line("  why:")
	for _, w := range r.Why {
		p.Wrapped("    - "+w, "  ")
	}
	p.Line("  what it costs:")
	for _, w := range r.Costs {
		p.Wrapped("    - "+w, "  ")
	}
}

// printHeader prints advise's first line: the scenario, its peak, the
// model, the headroom, the horizon and the retention, and how many
// schemes were judged (own of them the scenario's).
func printHeader(p *textfit.Printer, a *advise.Advice, own int) {
	horizon := a.Horizon
	if a.Retention != "" {
		horizon += ", data deleted after " + a.Retention
	}
	p.Line("tablestress advise: %s at its peak of %s ops/s on %s (headroom %s, horizon %s): %d schemes judged, %d of them the scenario's own",
		a.Scenario, textfit.Rate(a.Peak), a.Model, pctOf(a.Headroom), horizon, len(a.Candidates), own)
}

// printExceptions says the questions no design serves, each with its cost
// under the design recommended for the rest and what would change it,
// then the advice for the rest of the load.
func printExceptions(p *textfit.Printer, a *advise.Advice) {
	p.Blank()
	p.Painted(textfit.Yellow, "recommended with exceptions: no design serves %s; the recommendation below serves the rest of the load", exceptionNames(a.Infeasible.Exceptions))
	for _, e := range a.Infeasible.Exceptions {
		p.Wrapped("  exception: "+e.Question+": "+exceptionCost(a, e)+e.Why, "    ")
	}
	sp := a.Split
	p.Blank()
	p.Line("for the rest of the load, %s ops/s without %s, judged the same way:", textfit.Rate(sp.Peak), exceptionNames(a.Infeasible.Exceptions))
	printCandidates(p, sp)
}

// exceptionNames lists the exceptions' questions: "a", "a and b".
func exceptionNames(ex []advise.Exception) string {
	var names []string
	for _, e := range ex {
		names = append(names, e.Question)
	}
	if len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}

// exceptionCost is what exception e costs under the recommendation, when
// it was judged with the question: "under X (plan): R rows visited a
// question, E entities/s; ".
func exceptionCost(a *advise.Advice, e advise.Exception) string {
	if e.Plan == "" || a.Recommended == nil {
		return ""
	}
	return fmt.Sprintf("under %s (%s) %s rows visited a question, %s returned, %s entities/s at its rate; ", a.Recommended.Name, e.Plan,
		textfit.Big(e.RowsVisited), textfit.Big(e.RowsReturned), textfit.Big(e.EntitiesPerSec))
}
