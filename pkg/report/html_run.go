package report

import (
	"html"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// htmlPartitions is how many of the busiest partitions a run's table lists.
const htmlPartitions = 20

// writeRunHTML writes run i's section: what ran, its verdict, operations,
// questions, thresholds, charts and busiest partitions.
func writeRunHTML(ew *textfit.Printer, i int, r *Report) {
	e := html.EscapeString
	ew.Printf("<section><h2>Scheme %s</h2>\n", e(r.Scheme))
	ew.Printf("<p>table %s; seeded %s entities in %s partitions; measured %ss; %s workers; retry %s</p>\n",
		e(r.Table), num(r.Seed.Entities), num(int64(r.Seed.Partitions)), fixed(r.DurationS, 1), num(int64(r.Run.Workers)), e(r.Run.Retry))
	if r.Failure != "" {
		ew.Printf("<p class=\"bad\">the run did not complete: %s</p>\n", e(r.Failure))
	}
	ew.Printf("<p class=\"verdict\">%s</p>\n", e(Verdict(r)))
	writeUnitsHTML(ew, r)
	writeOperationsHTML(ew, r)
	if len(r.Questions) > 0 {
		ew.Printf("<h3>Questions</h3>\n")
		writeQuestionsHTML(ew, []*Report{r})
	}
	writeThresholdsHTML(ew, r.Thresholds)
	writeCharts(ew, i, r)
	writePartitionsHTML(ew, r)
	ew.Printf("</section>\n")
}

// writeOperationsHTML writes the table of operations, with what failed
// and what was dropped under it, and the statuses.
func writeOperationsHTML(ew *textfit.Printer, r *Report) {
	e := html.EscapeString
	ew.Printf("<table><tr><th>operation</th><th>ops</th><th>ops/s</th><th>entities/s</th><th>requests</th><th>throttled</th><th>errors</th><th>failed</th><th>dropped</th><th>retries</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max ms</th></tr>\n")
	row := func(name string, s Stats) {
		l := func(v float64) string { return latencyCell(s.Counts, v) }
		ew.Printf("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>%s%s%s<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			e(name), num(s.Ops), rate(s.OpsPerSec), rate(s.EntitiesPerSec), num(s.Requests), num(s.Throttled), badTD(num(s.Errors), s.Errors > 0),
			badTD(num(s.Failed), s.Failed > 0), badTD(num(s.Dropped), s.Dropped > 0), num(s.Retries), l(s.Latency.P50), l(s.Latency.P90), l(s.Latency.P99),
			l(s.Latency.P999), l(s.Latency.Max))
	}
	for _, op := range OperationOrder(r.Operations) {
		row(op, r.Operations[op])
	}
	row("total", r.Totals)
	ew.Printf("</table>\n")
	if line := failedLine(r.Totals.Counts); line != "" {
		ew.Printf("<p class=\"bad\">%s</p>\n", e(line))
	}
	if advice := DroppedAdvice(r); advice != "" {
		ew.Printf("<p class=\"bad\">%s</p>\n", e(advice))
	}
	ew.Printf("<p>status: %s</p>\n", e(statusLine(r.Totals.Status)))
}

// writeThresholdsHTML writes the thresholds, each with what it observed
// (and in which partition, for one partition's figure).
func writeThresholdsHTML(ew *textfit.Printer, ts []Threshold) {
	if len(ts) == 0 {
		return
	}
	e := html.EscapeString
	ew.Printf("<h3>Thresholds</h3><table><tr><th>threshold</th><th class=\"text\">observed</th><th>result</th></tr>\n")
	for _, t := range ts {
		res, cls := "ok", "ok"
		if !t.OK {
			res, cls = "FAIL", "bad"
		}
		ew.Printf("<tr><td>%s</td><td class=\"text\">%s%s%s</td><td class=\"%s\">%s</td></tr>\n", e(t.Expr), trimFloat(t.Observed), e(t.Unit), e(observedIn(t)), cls, res)
	}
	ew.Printf("</table>\n")
}

// writePartitionsHTML writes the busiest partitions, and those a threshold
// judged, with their verdicts.
func writePartitionsHTML(ew *textfit.Printer, r *Report) {
	e := html.EscapeString
	ew.Printf("<h3>Busiest partitions</h3>\n<p>the busiest %s of %s partitions by entities; the JSON report (--out) has every one</p>\n",
		num(int64(min(len(r.Partitions), htmlPartitions))), num(int64(len(r.Partitions))))
	ew.Printf("<table><tr><th>partition</th><th>entities</th><th>entities/s</th><th>peak/s</th><th>requests</th><th>throttled</th><th>errors</th><th>p99 ms</th><th class=\"text\">verdict</th></tr>\n")
	rows, extra := partitionRows(r, htmlPartitions)
	for _, p := range rows {
		v := partitionVerdictOf(r, p)
		cls := "ok"
		if v != "ok" {
			cls = "bad"
		}
		ew.Printf("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"text %s\">%s</td></tr>\n",
			e(displayKey(p.PartitionKey)), num(p.Entities), rate(p.EntitiesPerSec), rate(p.PeakEntitiesPerSec), num(p.Requests),
			num(p.Throttled), num(p.Errors), latencyCell(p.Counts, p.Latency.P99), cls, e(v))
	}
	ew.Printf("</table>\n")
	if note := judgedNote(extra); note != "" {
		ew.Printf("<p>%s</p>\n", e(note))
	}
}
