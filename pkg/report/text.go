package report

import (
	"io"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// TopPartitions is how many partitions the text summary lists.
const TopPartitions = 10

// WriteText writes the human summary of a run at unlimited width, without
// colour: WriteTextStyle with the zero Style.
func WriteText(w io.Writer, r *Report) error { return WriteTextStyle(w, r, textfit.Style{}) }

// WriteTextStyle writes the human summary of a run fitted to st: what ran
// where, totals and operations, throttling by status, the busiest
// partitions with a verdict against the partition target, and the
// thresholds. Tables lose their least important columns to fit the width
// (and say which); long lines wrap.
func WriteTextStyle(w io.Writer, r *Report, st textfit.Style) error {
	p := &textfit.Printer{W: w, Style: st}
	writeHeader(p, r)
	if r.Find != nil {
		p.Blank()
		writeFind(p, r.Scheme, r.Find)
		p.Line("the report below is the run at %s ops/s", rate(r.Run.Rate))
	}
	p.Blank()
	render(p, operationsTable(r))
	writeRequestSummary(p, r)
	writeQuestions(p, []*Report{r})
	n := min(len(r.Partitions), TopPartitions)
	rows, extra := partitionRows(r, n)
	p.Blank()
	p.Line("%s", partitionsHeading(r, n))
	render(p, partitionsTable(r, rows))
	if note := judgedNote(extra); note != "" {
		p.Line("%s", note)
	}
	verdict := "verdict: " + Verdict(r)
	if len(HotPartitions(r)) > 0 {
		p.Painted(textfit.Red, "%s", verdict)
	} else {
		p.Line("%s", verdict)
	}
	writeVerify(p, r.Verify)
	writeThresholds(p, r.Thresholds)
	return p.Err
}

// operationsTable is the table of operations, in OperationOrder, and the
// total: counts, rates, latency and, for a run charged in request units,
// RU per operation and per second.
func operationsTable(r *Report) *textfit.Table {
	ops := &textfit.Table{Cols: []textfit.Column{
		{Header: "OPERATION"}, {Header: "OPS", Right: true}, {Header: "OPS/S", Right: true}, {Header: "ENTITIES/S", Short: "ENT/S", Right: true},
		{Header: "REQUESTS", Short: "REQS", Right: true, Drop: 4}, {Header: "THROTTLED", Right: true}, {Header: "ERRORS", Right: true, Drop: 2},
		{Header: "FAILED", Right: true, Drop: 5}, {Header: "DROPPED", Right: true, Drop: 2}, {Header: "RETRIES", Short: "RETRY", Right: true, Drop: 6},
		{Header: "P50 MS", Right: true, Drop: 3}, {Header: "P99 MS", Right: true}, {Header: "P99.9 MS", Right: true, Drop: 4},
		{Header: "MAX MS", Right: true, Drop: 5}, {Header: "RU/OP", Right: true, Hide: !r.Charged()}, {Header: "RU/S", Right: true, Hide: !r.Charged()},
	}}
	row := func(name string, s Stats) {
		ops.Cells(cell(name), cell(num(s.Ops)), cell(rate(s.OpsPerSec)), cell(rate(s.EntitiesPerSec)), cell(num(s.Requests)),
			warn(num(s.Throttled), s.Throttled > 0), warn(num(s.Errors), s.Errors > 0), bad(num(s.Failed), s.Failed > 0),
			warn(num(s.Dropped), s.Dropped > 0), cell(num(s.Retries)),
			cell(latencyCell(s.Counts, s.Latency.P50)), cell(latencyCell(s.Counts, s.Latency.P99)), cell(latencyCell(s.Counts, s.Latency.P999)),
			cell(latencyCell(s.Counts, s.Latency.Max)),
			cell(rate(unitsPerOp(s))), cell(rate(rateOf(s.RequestUnitsPerSec))))
	}
	for _, op := range OperationOrder(r.Operations) {
		row(op, r.Operations[op])
	}
	row("total", r.Totals)
	keepWhen(ops, "ERRORS", r.Totals.Errors > 0)
	keepWhen(ops, "FAILED", r.Totals.Failed > 0)
	keepWhen(ops, "DROPPED", r.Totals.Dropped > 0)
	return ops
}

// writeRequestSummary writes the operations that failed (red, when any),
// the status counts, the share of requests throttled (yellow when any),
// the advice on dropped operations and the request units verdict, each
// when there is one.
func writeRequestSummary(p *textfit.Printer, r *Report) {
	if line := failedLine(r.Totals.Counts); line != "" {
		p.Painted(textfit.Red, "%s", line)
	}
	p.Line("status: %s", statusLine(r.Totals.Status))
	throttled := "throttled: " + pct(r.Totals.Throttled, r.Totals.Requests) + " of requests"
	if r.Totals.Throttled > 0 {
		p.Painted(textfit.Yellow, "%s", throttled)
	} else {
		p.Line("%s", throttled)
	}
	if advice := DroppedAdvice(r); advice != "" {
		p.Painted(textfit.Yellow, "%s", advice)
	}
	if u := unitsVerdict(r); u != "" {
		p.Line("request units: %s", u)
	}
}

// partitionsTable is the table of the partitions rows (the busiest, and
// those thresholds judged) with each one's verdict. A run not charged in
// request units keeps PEAK/S longest, as entities per second are then the
// yardstick.
func partitionsTable(r *Report, rows []Partition) *textfit.Table {
	parts := &textfit.Table{Cols: []textfit.Column{
		{Header: "PARTITION", Shrink: true}, {Header: "ENTITIES", Short: "ENTS", Right: true, Drop: 3}, {Header: "ENTITIES/S", Short: "ENT/S", Right: true},
		{Header: "PEAK/S", Right: true, Drop: 1, Hide: false}, {Header: "RU/S", Right: true, Drop: 2, Hide: !r.Charged()},
		{Header: "PEAK RU/S", Right: true, Hide: !r.Charged()}, {Header: "REQUESTS", Short: "REQS", Right: true, Drop: 4}, {Header: "THROTTLED", Right: true},
		{Header: "ERRORS", Right: true, Drop: 2}, {Header: "P99 MS", Right: true, Drop: 1}, {Header: "VERDICT", Wrap: true},
	}}
	if !r.Charged() {
		parts.Cols[3].Drop = 0 // entities/s are the yardstick
	}
	for _, pt := range rows {
		v := partitionVerdictOf(r, pt)
		parts.Cells(cell(displayKey(pt.PartitionKey)), cell(num(pt.Entities)), cell(rate(pt.EntitiesPerSec)), cell(rate(pt.PeakEntitiesPerSec)),
			cell(rate(rateOf(pt.RequestUnitsPerSec))), cell(rate(rateOf(pt.PeakRequestUnitsPerSec))),
			cell(num(pt.Requests)), warn(num(pt.Throttled), pt.Throttled > 0), warn(num(pt.Errors), pt.Errors > 0), cell(latencyCell(pt.Counts, pt.Latency.P99)),
			textfit.Cell{Text: v, Color: verdictColor(v)})
	}
	return parts
}

// writeHeader says what ran where, how and whether it completed.
func writeHeader(p *textfit.Printer, r *Report) {
	p.Line("tablestress: %s, scheme %s, on %s (%s)", r.Scenario, r.Scheme, r.Target.Kind, r.Target.Endpoint)
	if r.Model != "" {
		p.Line("model: %s%s", r.Model, clockNote(r.Run))
	}
	if r.Seed.Reused {
		p.Line("table %s: seeded before, %s rows counted, the scenario's entities found (seed phase skipped)", r.Table, num(r.Seed.Rows))
	} else if r.Seed.Entities > 0 {
		p.Line("table %s: seeded %s entities (%s rows) in %s partitions in %ss", r.Table, num(r.Seed.Entities), num(r.Seed.Rows), num(int64(r.Seed.Partitions)), fixed(r.Seed.DurationS, 1))
		if line := SeedRefusals(r.Seed); line != "" {
			p.Line("%s", line)
		}
	} else {
		p.Line("table %s", r.Table)
	}
	p.Line("measured %ss from %s (warm-up %gs excluded), %s, retry %s, seed %d",
		fixed(r.DurationS, 1), r.StartedAt.UTC().Format(time.RFC3339), r.Run.WarmupS, LoadShape(r.Run), r.Run.Retry, r.Run.Seed)
	for _, n := range r.Run.Notes {
		p.Line("note: %s", n)
	}
	if r.MergedShards > 0 {
		line := "merged from " + num(int64(r.MergedShards)) + " shard(s)"
		if len(r.MissingShards) > 0 {
			line += "; PARTIAL: missing shard " + strings.Join(r.MissingShards, ", ")
		}
		p.Line("%s", line)
	}
	if r.Interrupted || r.Failure != "" {
		p.Painted(textfit.Red, "RUN DID NOT COMPLETE: %s", r.Failure)
	}
	for _, o := range r.Outages {
		p.Painted(textfit.Red, "TARGET DOWN from %.1fs to %.1fs of the run (%.1fs): %s", o.StartS, o.EndS, o.EndS-o.StartS, o.Cause)
	}
	if r.Aborted != "" {
		p.Painted(textfit.Red, "RUN ABORTED: %s", r.Aborted)
	}
}

func writeVerify(p *textfit.Printer, v *Verify) {
	switch {
	case v == nil:
	case v.OK():
		p.Line("verify: all %s acknowledged writes read back as written", num(v.Checked))
	default:
		p.Painted(textfit.Red, "VERIFY FAILED: of %s acknowledged writes, %s missing, %s with another version, %s deleted but present, %s unreadable",
			num(v.Checked), num(v.Missing), num(v.Mismatched), num(v.Resurrected), num(v.Unreadable))
		for _, ex := range v.Examples {
			p.Line("  %s", ex)
		}
	}
}

func writeThresholds(p *textfit.Printer, ts []Threshold) {
	if len(ts) == 0 {
		return
	}
	p.Blank()
	p.Line("thresholds:")
	for _, t := range ts {
		mark := p.Style.Paint("ok  ", textfit.Green)
		if !t.OK {
			mark = p.Style.Paint("FAIL", textfit.Red)
		}
		if t.Missing != "" {
			p.Line("  %s %s  (nothing observed: %s)", mark, t.Expr, t.Missing)
			continue
		}
		p.Line("  %s %s  (observed %s%s%s)", mark, t.Expr, textfit.Float(t.Observed), t.Unit, observedIn(t))
	}
}

// render writes a table and the note of the columns it left out.
func render(p *textfit.Printer, t *textfit.Table) {
	dropped, err := t.Render(p, p.Style)
	if err == nil {
		if note := textfit.Dropped(dropped); note != "" {
			p.Line("%s", note)
		}
	}
}

func cell(s string) textfit.Cell { return textfit.Cell{Text: s} }

// warn is a cell in the warning colour when bad.
func warn(s string, bad bool) textfit.Cell {
	if bad {
		return textfit.Cell{Text: s, Color: textfit.Yellow}
	}
	return textfit.Cell{Text: s}
}

// bad is a cell in red when bad: a failure.
func bad(s string, bad bool) textfit.Cell {
	if bad {
		return textfit.Cell{Text: s, Color: textfit.Red}
	}
	return textfit.Cell{Text: s}
}

// verdictColor colours a partition or scheme verdict: red for a partition
// at or over its target, yellow for throttling or a problem, none for ok.
func verdictColor(v string) textfit.Color {
	switch {
	case v == "ok":
		return textfit.NoColor
	case strings.Contains(v, "OVER TARGET"), strings.Contains(v, "HOT"), strings.Contains(v, "hot partition"):
		return textfit.Red
	}
	return textfit.Yellow
}

func partitionVerdict(p Partition, target float64) string {
	switch {
	case p.OverTarget && p.PeakEntitiesPerSec > target:
		return "OVER TARGET"
	case p.OverTarget:
		return "HOT: throttled at target"
	case p.Throttled > 0:
		return "throttled"
	case target > 0 && p.PeakEntitiesPerSec > 0.8*target:
		return "near target"
	}
	return "ok"
}

func trimFloat(f float64) string { return textfit.Float(f) }
