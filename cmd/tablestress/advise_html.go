package main

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// writeAdviceHTML writes advise --html's page, in the reports' style: the
// verdict first (recommended, recommended with exceptions, infeasible or
// withdrawn), each exception with its cost under the recommendation and
// what would change it, the recommendation with why and what it costs,
// the ranked schemes (of the whole load, and of the rest beside
// exceptions or for one account's share), the scenario's own schemes, and
// the proof's measured figures beside the predicted ones when it ran.
func writeAdviceHTML(w io.Writer, a *advise.Advice, proof *advise.Proof) error {
	title := "tablestress advise: " + a.Scenario
	horizon := a.Horizon
	if a.Retention != "" {
		horizon += ", data deleted after " + a.Retention
	}
	sub := fmt.Sprintf("at its peak of %s ops/s on %s (headroom %s, horizon %s): %d schemes judged", textfit.Rate(a.Peak), a.Model, pctOf(a.Headroom), horizon, len(a.Candidates))
	return report.WriteHTMLPage(w, title, sub, func(ew *textfit.Printer) {
		writeAdviceVerdictHTML(ew, a)
		if r := a.Recommended; r != nil {
			writePickHTML(ew, a, r)
		}
		ew.Printf("<section><h2>Schemes ranked</h2>\n")
		if a.Split != nil {
			ew.Printf("<h3>The whole load, %s ops/s</h3>\n", textfit.Rate(a.Peak))
		}
		writeCandidatesHTML(ew, a)
		if sp := a.Split; sp != nil {
			what := "one account's share of the load, " + textfit.Rate(sp.Peak) + " ops/s"
			switch {
			case a.WithExceptions():
				what = "the rest of the load, " + textfit.Rate(sp.Peak) + " ops/s without " + exceptionNames(a.Infeasible.Exceptions)
			case a.Infeasible != nil && a.Infeasible.Accounts == 0:
				what = "the table provisioned " + sp.Model
			}
			ew.Printf("<h3>For %s, judged the same way</h3>\n", html.EscapeString(what))
			writeCandidatesHTML(ew, sp)
		}
		writeLostHTML(ew, a)
		ew.Printf("</section>\n")
		if proof != nil {
			writeProofHTML(ew, proof)
		}
		for _, n := range a.Notes {
			ew.Printf("<p class=\"note\">note: %s</p>\n", html.EscapeString(n))
		}
	})
}

// writeAdviceVerdictHTML writes the page's first section: what advise
// answered, in the colour of its exit (green 0, amber 3, red 99), and
// each exception as an exception, never as a success.
func writeAdviceVerdictHTML(ew *textfit.Printer, a *advise.Advice) {
	e := html.EscapeString
	ew.Printf("<section class=\"decision\"><h2>Verdict</h2>\n")
	switch {
	case a.Withdrawn != nil:
		ew.Printf("<p class=\"verdict bad\">withdrawn: %s: its proof failed (below), so it is not recommended</p>\n", e(a.Withdrawn.Name))
	case a.WithExceptions():
		ew.Printf("<p class=\"verdict warn\">recommended with exceptions: no design serves %s; %s, recommended below, serves the rest of the load</p>\n",
			e(exceptionNames(a.Infeasible.Exceptions)), e(a.Recommended.Name))
		writeExceptionsHTML(ew, a)
	case a.Infeasible != nil:
		ew.Printf("<p class=\"verdict bad\">infeasible: %s</p>\n", e(a.Infeasible.Reason))
		if a.Recommended != nil {
			ew.Printf("<p>The recommendation below is for %s.</p>\n", e(splitWhat(a)))
		}
	case a.Recommended != nil:
		ew.Printf("<p class=\"verdict good\">recommended: %s</p>\n", e(a.Recommended.Name))
	}
	ew.Printf("</section>\n")
}

// splitWhat says what a split's recommendation is for.
func splitWhat(a *advise.Advice) string {
	if a.Split == nil {
		return "the load"
	}
	if a.Infeasible.Accounts > 0 {
		return fmt.Sprintf("one account's share of the load, %s ops/s (%d accounts)", textfit.Rate(a.Split.Peak), a.Infeasible.Accounts)
	}
	return "the table provisioned " + a.Split.Model
}

// writeExceptionsHTML writes each exception as a block of its own: the
// question, its plan and cost under the recommendation (rows visited and
// returned and requests a question, rows visited a second at its rate;
// "not judged" when the recommendation was not among the designs judged
// with it), why no design serves it, and what would change it.
func writeExceptionsHTML(ew *textfit.Printer, a *advise.Advice) {
	e := html.EscapeString
	for _, x := range a.Infeasible.Exceptions {
		why, change, _ := strings.Cut(x.Why, ": it would take ")
		ew.Printf("<div class=\"exception\"><h3>exception: %s</h3>\n", e(x.Question))
		if x.Plan == "" {
			ew.Printf("<p>under %s: not judged with the whole load</p>\n", e(a.Recommended.Name))
		} else {
			ew.Printf("<table><tr><th class=\"l\">plan under %s</th><th>rows visited/question</th><th>rows returned/question</th><th>requests/question</th><th>entities/s at its rate</th></tr>\n", e(a.Recommended.Name))
			ew.Printf("<tr><td class=\"l\">%s</td><td class=\"warn\">%s</td><td>%s</td><td>%s</td><td class=\"warn\">%s</td></tr></table>\n",
				e(x.Plan), e(textfit.Big(x.RowsVisited)), e(textfit.Big(x.RowsReturned)), e(textfit.Big(x.Requests)), e(textfit.Big(x.EntitiesPerSec)))
		}
		ew.Printf("<p><b>why no design serves it:</b> %s</p>\n<p><b>what would change it:</b> %s</p></div>\n", e(why), e(changeWords(change)))
	}
}

// changeWords is the remedy of an exception's why, "" when it names none.
func changeWords(change string) string {
	if change == "" {
		return "-"
	}
	return "it would take " + change
}
