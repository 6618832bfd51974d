package main

import (
	"fmt"
	"html"
	"strings"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// writePickHTML writes the recommendation's section: its keys and index
// tables, why, what it costs, the scheme block to paste, and the
// runner-up.
func writePickHTML(ew *textfit.Printer, a *advise.Advice, r *advise.Pick) {
	e := html.EscapeString
	ew.Printf("<section><h2>Recommended: %s</h2>\n<p>PartitionKey <code>%s</code>, RowKey <code>%s</code></p>\n", e(r.Name), e(r.PartitionKey), e(r.RowKey))
	for _, ix := range r.Indexes {
		ew.Printf("<p>index table %s: PartitionKey <code>%s</code>, RowKey <code>%s</code></p>\n", e(ix.Name), e(ix.PartitionKey), e(ix.RowKey))
	}
	writeListHTML(ew, "Why", r.Why)
	writeListHTML(ew, "What it costs", r.Costs)
	ew.Printf("<h3>Paste into the scenario's schemes</h3><pre>%s</pre>\n", e(r.YAML))
	if ru := a.RunnerUp; ru != nil && len(ru.Why) > 0 {
		ew.Printf("<p><b>runner-up: %s</b> (PartitionKey <code>%s</code>, RowKey <code>%s</code>): %s</p>\n", e(ru.Name), e(ru.PartitionKey), e(ru.RowKey), e(ru.Why[0]))
	}
	ew.Printf("</section>\n")
}

// writeListHTML writes a heading and its items, nothing when there are
// none.
func writeListHTML(ew *textfit.Printer, head string, items []string) {
	if len(items) == 0 {
		return
	}
	ew.Printf("<h3>%s</h3><ul>\n", html.EscapeString(head))
	for _, it := range items {
		ew.Printf("<li>%s</li>\n", html.EscapeString(it))
	}
	ew.Printf("</ul>\n")
}

// writeCandidatesHTML writes a's ranked candidates as the text's table
// does: the recommendation green, a candidate with a problem red.
func writeCandidatesHTML(ew *textfit.Printer, a *advise.Advice) {
	e := html.EscapeString
	cosmos := strings.HasPrefix(a.Model, "cosmos")
	unit := "entities/s"
	if cosmos {
		unit = "RU/s"
	}
	ew.Printf("<table><tr><th>#</th><th class=\"l s\">scheme</th><th class=\"l\">PartitionKey</th><th class=\"l\">RowKey</th><th>busiest %s</th><th>of target</th><th>question ms</th><th>Pareto</th><th class=\"text\">verdict</th></tr>\n", unit)
	for _, c := range a.Candidates {
		pr := c.Predicted
		b := pr.BusiestEntitiesPerSec
		if cosmos && pr.Cosmos != nil {
			b = pr.Cosmos.BusiestPerSec
		}
		name, front, cls := c.Name, "", ""
		if c.Own {
			name += " (own)"
		}
		if c.Front {
			front = "*"
		}
		switch {
		case len(c.Problems) > 0:
			cls = "bad"
		case a.Recommended != nil && c.Name == a.Recommended.Name:
			cls = "good"
		}
		ew.Printf("<tr><td class=\"n\">%d</td><td class=\"l s\">%s</td><td class=\"l\"><code>%s</code></td><td class=\"l\"><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"text %s\">%s</td></tr>\n",
			c.Rank, e(name), e(c.PartitionKey), e(c.RowKey), e(textfit.Big(b)), e(loadText(b/a.Input.Target())),
			e(questionMsText(pr.QuestionMs, a.Input.Opts.Horizon)), front, cls, e(verdictOf(a, c)))
	}
	ew.Printf("</table>\n<p class=\"note\">question ms: a question's modelled service time, weighted by how often the mix asks it; Pareto *: no other scheme has both a cooler busiest partition and cheaper questions</p>\n")
}

// writeLostHTML writes why each of the scenario's own schemes lost.
func writeLostHTML(ew *textfit.Printer, a *advise.Advice) {
	var items []string
	for _, l := range a.Lost {
		items = append(items, fmt.Sprintf("%s (#%d): %s", l.Name, l.Rank, l.Why))
	}
	writeListHTML(ew, "The scenario's own schemes", items)
}
