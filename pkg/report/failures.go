package report

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// How a report shows what failed. An operation or question that failed
// after its retries is counted in failed, never as answered: its time is
// in no latency figure (the percentiles are the answered ones'), and every
// table that shows latency shows the failures beside it. Shares are of
// what was offered: dropped of the operations offered (run or dropped),
// failed of those that ran, throttled and errors of the requests sent.

// keepWhen makes the column headed header of t, when bad, the last to give
// way of those that may: a count of failures that is not zero is left out
// to fit only when nothing else can be (and a line under the table, or the
// verdict, says it then).
func keepWhen(t *textfit.Table, header string, bad bool) {
	if !bad {
		return
	}
	for i := range t.Cols {
		if t.Cols[i].Header == header && t.Cols[i].Drop > 1 {
			t.Cols[i].Drop = 1
		}
	}
}

// failedLine says how many operations failed after their retries and that
// the latency figures leave them out, or "" when none failed.
func failedLine(c metrics.Counts) string {
	if c.Failed == 0 {
		return ""
	}
	return fmt.Sprintf("failed: %s of %s operations (%s) failed after their retries; the latency figures are the %s answered ones'",
		num(c.Failed), num(c.Ops), pct(c.Failed, c.Ops), num(c.Answered()))
}

// failedCell is a failed count as a table shows it: the share of those
// that ran ("25.00%"), "-" when none ran.
func failedCell(c metrics.Counts) textfit.Cell {
	if c.Ops == 0 {
		return cell("-")
	}
	if c.Failed == 0 {
		return cell(pct(0, c.Ops))
	}
	return textfit.Cell{Text: pct(c.Failed, c.Ops), Color: textfit.Red}
}

// latencyCell is a latency figure of c's answered operations: "-" when
// none was answered, since there is then no latency to show.
func latencyCell(c metrics.Counts, v float64) string {
	if c.Answered() == 0 {
		return "-"
	}
	return ms(v)
}

// failedVerdict is what a verdict says of failures: each question never
// answered (every one asked failed), and the share of operations that
// failed when any did.
func failedVerdict(r *Report) []string {
	var out []string
	for _, n := range QuestionOrder(r.Questions) {
		if q := r.Questions[n]; q.Ops > 0 && q.Answered() == 0 {
			out = append(out, "question "+n+" never answered")
		}
	}
	if t := r.Totals; t.Failed > 0 {
		out = append(out, pct(t.Failed, t.Ops)+" of operations failed")
	}
	return out
}
