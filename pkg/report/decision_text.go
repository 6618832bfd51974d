package report

import (
	"strconv"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// ranking is where a comparison's decisions put each run: its place
// ("1", "2", ...; "-" for a run stopped early) and why it was picked or
// lost.
type ranking struct {
	place, why map[*Report]string
}

// verdict is a run's verdict in a comparison's table: SchemeVerdict, or,
// for a scheme that failed on nothing the verdict names (a threshold of
// the scenario's, say), why it lost.
func (rk ranking) verdict(r *Report) string {
	v := SchemeVerdict(r)
	if r.Result == ResultFailed && v == "ok" && rk.why[r] != "" {
		return rk.why[r]
	}
	return v
}

// rankedRuns orders runs as their decisions rank their schemes (best
// first, those stopped after; runs no decision names keep their order,
// after the others), with each decided run's place and why.
func rankedRuns(runs []*Report, ds []Decision) ([]*Report, ranking) {
	rk := ranking{place: map[*Report]string{}, why: map[*Report]string{}}
	places := rk.place
	if len(ds) == 0 {
		return runs, rk
	}
	taken := map[*Report]bool{}
	var out []*Report
	for _, d := range ds {
		place := 0
		for _, s := range d.Schemes {
			for _, r := range runs {
				if taken[r] || r.Scheme != s.Scheme || (d.Model != "" && r.Model != d.Model) {
					continue
				}
				taken[r] = true
				out = append(out, r)
				places[r], rk.why[r] = "-", s.Why
				if s.Result != ResultStopped {
					place++
					places[r] = strconv.Itoa(place)
				}
				break
			}
		}
	}
	for _, r := range runs {
		if !taken[r] {
			out = append(out, r)
		}
	}
	return out, rk
}

// resultCell is a scheme's result as the comparison's table shows it,
// coloured: the pick green, a failure red, a run stopped early yellow.
func resultCell(result string) textfit.Cell {
	switch result {
	case ResultPick:
		return textfit.Cell{Text: "PICK", Color: textfit.Green}
	case ResultFailed:
		return textfit.Cell{Text: "FAILED", Color: textfit.Red}
	case ResultStopped:
		return textfit.Cell{Text: "stopped", Color: textfit.Yellow}
	}
	return textfit.Cell{Text: result}
}

// resultFailedCell is the share of operations failed, coloured as the
// scheme's result is: red when it failed, yellow when it passes with a
// few failures the rule allows; as failedCell without a result.
func resultFailedCell(result string, c metrics.Counts) textfit.Cell {
	out := failedCell(c)
	if out.Color != textfit.NoColor && result != "" && result != ResultFailed {
		out.Color = textfit.Yellow
	}
	return out
}

// resultColor is the colour of a scheme's verdict: its result's, so that
// a scheme that passes is never red (its verdict then names what the
// rule allows, like a few dropped operations); without a result (a
// search), the verdict's own.
func resultColor(result, verdict string) textfit.Color {
	switch result {
	case ResultFailed:
		return textfit.Red
	case ResultStopped:
		return textfit.Yellow
	case ResultPick, ResultPassed, ResultNotRun:
		return textfit.NoColor
	}
	return verdictColor(verdict)
}

// writeDecisions writes the decisions, last: the line that says what to
// pick (green), or that none passes or there is no decision (red), then
// each other scheme with the one reason it lost.
func writeDecisions(p *textfit.Printer, ds []Decision) {
	for _, d := range ds {
		p.Blank()
		head := "decision"
		if d.Model != "" {
			head += " under " + d.Model
		}
		colour := textfit.Red
		if d.Pick != "" {
			colour = textfit.Green
		}
		p.Painted(colour, "%s", head+": "+d.Line)
		for _, s := range d.Schemes {
			if s.Scheme == d.Pick || (d.Pick == "" && s.Scheme == d.Nearest) {
				continue
			}
			p.Wrapped("  "+s.Scheme+": "+resultWord(s.Result)+": "+s.Why, "")
		}
	}
}

// resultWord is how a decision's lines name a result.
func resultWord(result string) string {
	switch result {
	case ResultFailed:
		return "FAILED"
	case ResultPick:
		return "PICK"
	}
	return result
}
