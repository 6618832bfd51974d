package report

import (
	"html"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// writeDecisionHTML writes the comparison's decision at the top of the
// page: which schemes did not run to their end, the line that says what
// to pick (or that none passes), and each other scheme with the one
// reason it lost. A search has no decision: its limits say it.
func writeDecisionHTML(ew *textfit.Printer, hc *htmlCompare, reps []*Report) {
	e := html.EscapeString
	ran := ranLine(reps, hc.c.NotRun)
	if len(hc.ds) == 0 && ran == "" {
		return
	}
	ew.Printf("<section class=\"decision\"><h2>Decision</h2>\n")
	if ran != "" {
		ew.Printf("<p class=\"verdict bad\">%s</p>\n", e(ran))
	}
	for _, d := range hc.ds {
		cls := "verdict bad"
		if d.Pick != "" {
			cls = "verdict good"
		}
		head := ""
		if d.Model != "" {
			head = "under " + d.Model + ": "
		}
		ew.Printf("<p class=\"%s\">%s%s</p>\n<ul>\n", cls, e(head), e(d.Line))
		for _, s := range d.Schemes {
			if s.Scheme == d.Pick || (d.Pick == "" && s.Scheme == d.Nearest) {
				continue
			}
			ew.Printf("<li><b>%s</b> <span class=\"%s\">%s</span>: %s</li>\n", e(s.Scheme), resultClass(s.Result), e(resultWord(s.Result)), e(s.Why))
		}
		ew.Printf("</ul>\n")
	}
	ew.Printf("</section>\n")
}

// writeCompareTable writes the comparison's table, best first: each
// scheme's place and result before any of its figures, then what
// succeeded (answered operations and their entities per second) and what
// failed beside it, p99 latency (each scheme's section has the rest),
// throttling, partitions, the busiest peak and the verdict, coloured as its result is (a scheme that passes is never
// red); then the schemes not run.
func writeCompareTable(ew *textfit.Printer, hc *htmlCompare, reps []*Report) {
	e := html.EscapeString
	decided := len(hc.ds) > 0
	head := "<table><tr>"
	if decided {
		head += "<th>#</th>"
	}
	head += "<th class=\"l s\">scheme</th>"
	if decided {
		head += "<th class=\"l\">result</th>"
	}
	ew.Printf("%s<th>answered/s</th><th>answered entities/s</th><th>failed</th><th>p99 ms</th><th>throttled</th><th>errors</th><th>dropped</th><th>partitions</th><th>busiest peak/s</th><th class=\"text\">verdict</th></tr>\n", head)
	for _, r := range reps {
		t := r.Totals
		lead := ""
		if decided {
			lead = "<td class=\"n\">" + e(hc.rk.place[r]) + "</td>"
		}
		lead += "<td class=\"l s\">" + e(r.Scheme) + "</td>"
		if decided {
			lead += "<td class=\"l " + resultClass(r.Result) + "\">" + e(resultWord(r.Result)) + "</td>"
		}
		v := hc.rk.verdict(r)
		ew.Printf("<tr>%s<td>%s</td><td>%s</td>%s<td>%s</td><td>%s</td>%s%s<td>%s</td><td>%s</td><td class=\"text %s\">%s</td></tr>\n",
			lead, rate(perSec(t.Answered(), r.DurationS)), rate(perSec(t.AnsweredEntities, r.DurationS)), resultTD(r.Result, failedCell(t.Counts).Text, t.Failed > 0),
			latencyCell(t.Counts, t.Latency.P99), pct(t.Throttled, t.Requests), resultTD(r.Result, num(t.Errors), t.Errors > 0), resultTD(r.Result, num(t.Dropped), t.Dropped > 0),
			num(int64(r.PartitionCount())), e(peakCell(r)), verdictClass(r.Result, v), e(v))
	}
	for _, n := range hc.c.NotRun {
		ew.Printf("<tr><td class=\"n\">-</td><td class=\"l s\">%s</td><td class=\"l\">not run</td><td colspan=\"9\"></td><td class=\"text\">not run: the comparison stopped before it</td></tr>\n",
			e(plannedLabel(n, reps)))
	}
	ew.Printf("</table>\n")
}

// resultTD is a table cell of a scheme's figure, marked when flagged as
// its result is: bad (red) when the scheme failed or has no result, warn
// when it passes with what the rule allows.
func resultTD(result, text string, flagged bool) string {
	switch {
	case !flagged:
		return "<td>" + html.EscapeString(text) + "</td>"
	case result == "" || result == ResultFailed:
		return "<td class=\"bad\">" + html.EscapeString(text) + "</td>"
	}
	return "<td class=\"warn\">" + html.EscapeString(text) + "</td>"
}

// resultClass is the CSS class of a result: the pick good, a failure
// bad, a run stopped early warn.
func resultClass(result string) string {
	switch result {
	case ResultPick:
		return "good"
	case ResultFailed:
		return "bad"
	case ResultStopped:
		return "warn"
	}
	return ""
}

// verdictClass is the CSS class of a scheme's verdict: its result's (a
// scheme that passes is never red); without a result (a search), bad for
// any problem.
func verdictClass(result, verdict string) string {
	switch {
	case result == ResultFailed:
		return "bad"
	case result == ResultStopped:
		return "warn"
	case result != "":
		return "ok"
	case verdict != "ok":
		return "bad"
	}
	return "ok"
}
