package report

import (
	"html"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// writeQuestionsHTML writes the questions of reps as a table: a row of
// figures per question and scheme, the share that failed beside the
// latency of those answered, and under it, across the table, why the
// scheme answers it with that plan (so a long reason wraps within the
// page); under the table, the questions never answered and those the
// run's end cut short (questionNotes, as the text says them).
func writeQuestionsHTML(ew *textfit.Printer, reps []*Report) {
	e := html.EscapeString
	ew.Printf("<table><tr><th>question</th><th class=\"l\">scheme</th><th class=\"l\">plan</th><th>questions/s</th><th>requests/q</th><th>partitions/q</th><th>rows visited/q</th><th>throttled</th><th>failed</th><th>p50 ms</th><th>p99 ms</th><th>RU/q</th></tr>\n")
	for _, r := range reps {
		for _, n := range QuestionOrder(r.Questions) {
			q := r.Questions[n]
			ru := "-"
			if q.RequestUnitsPerQuestion != nil {
				ru = fixed(*q.RequestUnitsPerQuestion, 2)
			}
			cls := "ok"
			if q.Plan == "scan" {
				cls = "bad"
			}
			ew.Printf("<tr class=\"q\"><td>%s</td><td class=\"l\">%s</td><td class=\"l %s\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s %s</td><td>%s</td>%s<td>%s</td><td>%s</td><td>%s</td></tr>\n",
				e(n), e(r.Scheme), cls, e(q.Label()), rate(q.OpsPerSec), perQ(q, q.RequestsPerQuestion), perQ(q, q.PartitionsPerQuestion),
				perQ(q, q.RowsVisitedPerQuestion), e(q.RowsVisitedFrom), pct(q.Throttled, q.Requests), badTD(failedCell(q.Counts).Text, q.Failed > 0),
				latencyCell(q.Counts, q.Latency.P50), latencyCell(q.Counts, q.Latency.P99), ru)
			if q.Why != "" {
				ew.Printf("<tr class=\"why\"><td colspan=\"12\">why: %s</td></tr>\n", e(q.Why))
			}
		}
	}
	ew.Printf("</table>\n")
	for _, n := range questionNotes(reps) {
		cls := "note"
		if n.bad {
			cls = "verdict bad"
		}
		ew.Printf("<p class=\"%s\">%s</p>\n", cls, e(n.text))
	}
}
