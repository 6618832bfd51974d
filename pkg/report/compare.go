package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// WriteCompare writes the side-by-side comparison of reps at unlimited
// width, without colour: WriteCompareStyle with the zero Style.
func WriteCompare(w io.Writer, reps []*Report) error {
	return WriteCompareStyle(w, reps, textfit.Style{})
}

// WriteCompareStyle writes the comparison of reps, decided as NewCompare
// decides it (each report's Result is set), fitted to st.
func WriteCompareStyle(w io.Writer, reps []*Report, st textfit.Style) error {
	if len(reps) == 0 {
		return nil
	}
	return WriteCompareDoc(w, NewCompare(reps, nil, nil), st)
}

// WriteCompareDoc writes a comparison fitted to st: what ran where and
// how, one row per scheme, best first (its result before any of its
// figures, then what succeeded and what failed beside it, latency,
// throttling, partitions and a verdict); throttling by code; latency by
// operation and the questions, one column or row per scheme; the
// thresholds; and last the decision. A search (compare --find) ends with
// what each scheme sustained instead.
func WriteCompareDoc(w io.Writer, c *Compare, st textfit.Style) error {
	if len(c.Runs) == 0 && len(c.NotRun) == 0 {
		return nil
	}
	ds := c.Decided()
	reps, rk := rankedRuns(c.Runs, ds)
	p := &textfit.Printer{W: w, Style: st}
	writeCompareHeader(p, c, reps)
	p.Blank()
	render(p, compareTable(reps, rk, c.NotRun, len(ds) > 0))
	if len(reps) > 0 {
		p.Blank()
		p.Line("throttled by code (share of requests):")
		for _, r := range reps {
			p.Line("  %s: %s", runLabel(r, reps), throttleCodes(r))
		}
		writeOpLatency(p, reps)
		writeQuestions(p, reps)
	}
	for _, r := range reps {
		if r.Find != nil {
			p.Blank()
			writeFind(p, r.Scheme, r.Find)
		}
	}
	WriteFindSummary(p, reps)
	writeCompareJudgements(p, reps)
	writeDecisions(p, ds)
	return p.Err
}

// compareTable is the table of schemes, one row per run, best first, then
// those not run: its place and result first, then what succeeded
// (answered operations and their entities per second) with what failed
// beside it, latency (of the answered operations), throttling, errors,
// drops, partitions, the busiest peak, pages per query and the scheme's
// verdict, coloured as its result is (a scheme that passes is never red).
// The MODEL column shows only when the runs were judged by different
// models.
func compareTable(reps []*Report, rk ranking, notRun []Planned, decided bool) *textfit.Table {
	perModel := len(reps) > 0 && models(reps) == "" && reps[0].Model+reps[len(reps)-1].Model != ""
	t := &textfit.Table{Cols: []textfit.Column{
		{Header: "#", Right: true, Drop: 6}, {Header: "SCHEME", Shrink: true}, {Header: "MODEL", Shrink: true}, {Header: "RESULT"},
		{Header: "ANSWERED/S", Short: "ANS/S", Right: true}, {Header: "ANSWERED ENTITIES/S", Short: "ANS ENT/S", Right: true}, {Header: "FAILED", Right: true},
		{Header: "P50 MS", Right: true, Drop: 4}, {Header: "P99 MS", Right: true, Drop: 2}, {Header: "P99.9 MS", Right: true, Drop: 5},
		{Header: "THROTTLED", Right: true, Drop: 1}, {Header: "ERRORS", Right: true, Drop: 3}, {Header: "DROPPED", Right: true, Drop: 3},
		{Header: "PARTITIONS", Short: "PARTS", Right: true, Drop: 2}, {Header: "BUSIEST PEAK/S", Short: "PEAK/S", Right: true}, {Header: "PAGES/QUERY", Short: "PAGES/Q", Right: true, Drop: 1},
		{Header: "VERDICT", Wrap: true, MinWrap: 18},
	}}
	var bad metrics.Counts
	for _, r := range reps {
		s := r.Totals
		bad.Add(metrics.Counts{Errors: s.Errors, Failed: s.Failed, Dropped: s.Dropped})
		v := rk.verdict(r)
		t.Cells(cell(rk.place[r]), cell(r.Scheme), cell(r.Model), resultCell(r.Result),
			cell(rate(perSec(s.Answered(), r.DurationS))), cell(rate(perSec(s.AnsweredEntities, r.DurationS))), resultFailedCell(r.Result, s.Counts),
			cell(latencyCell(s.Counts, s.Latency.P50)), cell(latencyCell(s.Counts, s.Latency.P99)), cell(latencyCell(s.Counts, s.Latency.P999)),
			warn(pct(s.Throttled, s.Requests), s.Throttled > 0), warn(num(s.Errors), s.Errors > 0),
			warn(num(s.Dropped), s.Dropped > 0), cell(num(int64(r.PartitionCount()))),
			cell(peakCell(r)), cell(pagesPerQuery(r)), textfit.Cell{Text: v, Color: resultColor(r.Result, v)})
	}
	for _, n := range notRun {
		row := []textfit.Cell{cell("-"), cell(n.Scheme), cell(n.Model), resultCell(ResultNotRun)}
		for len(row) < len(t.Cols)-1 {
			row = append(row, cell("-"))
		}
		t.Cells(append(row, cell("not run: the comparison stopped before it"))...)
	}
	t.Cols[2].Hide = !perModel
	t.Cols[0].Hide, t.Cols[3].Hide = !decided, !decided
	keepWhen(t, "ERRORS", bad.Errors > 0)
	keepWhen(t, "DROPPED", bad.Dropped > 0)
	return t
}

// writeCompareJudgements writes, after one blank line and only for runs
// that have any, each run's advice on dropped operations (yellow) and how
// many of its thresholds passed (red when one failed).
func writeCompareJudgements(p *textfit.Printer, reps []*Report) {
	blank := false
	for _, r := range reps {
		advice := DroppedAdvice(r)
		if advice == "" && len(r.Thresholds) == 0 {
			continue
		}
		if !blank {
			p.Blank()
			blank = true
		}
		if advice != "" {
			p.Painted(textfit.Yellow, "%s: %s", r.Scheme, advice)
		}
		if len(r.Thresholds) == 0 {
			continue
		}
		failed := 0
		for _, t := range r.Thresholds {
			if !t.OK {
				failed++
			}
		}
		line := fmt.Sprintf("thresholds %s: %d of %d passed", r.Scheme, len(r.Thresholds)-failed, len(r.Thresholds))
		if failed > 0 {
			p.Painted(textfit.Red, "%s", line)
		} else {
			p.Line("%s", line)
		}
	}
}

// writeOpLatency writes the latency of each operation side by side, one
// column per scheme: p50 / p99 / p99.9 when that fits, p99 alone when not.
func writeOpLatency(p *textfit.Printer, reps []*Report) {
	ops := map[string]bool{}
	for _, r := range reps {
		for op := range r.Operations {
			ops[op] = true
		}
	}
	var order []string
	for _, op := range operationOrder {
		if ops[op] {
			order = append(order, op)
		}
	}
	build := func(full bool) *textfit.Table {
		t := &textfit.Table{Cols: []textfit.Column{{Header: "OPERATION"}}}
		for _, r := range reps {
			t.Cols = append(t.Cols, textfit.Column{Header: runLabel(r, reps), Right: true})
		}
		for _, op := range order {
			row := []string{op}
			for _, r := range reps {
				s, ok := r.Operations[op]
				switch {
				case !ok:
					row = append(row, "-")
				case s.Ops > 0 && s.Answered() == 0:
					row = append(row, "all failed")
				case full:
					row = append(row, fmt.Sprintf("%s / %s / %s", ms(s.Latency.P50), ms(s.Latency.P99), ms(s.Latency.P999)))
				default:
					row = append(row, ms(s.Latency.P99))
				}
			}
			t.Row(row...)
		}
		return t
	}
	p.Blank()
	full := build(true)
	var b strings.Builder
	_, _ = full.Render(&b, textfit.Style{})
	if width := maxLine(b.String()); p.Style.Fits(width) {
		p.Line("latency by operation (p50 / p99 / p99.9 ms):")
		_, _ = full.Render(p, p.Style)
		return
	}
	p.Line("latency by operation (p99 ms; --wide adds p50 and p99.9):")
	_, _ = build(false).Render(p, p.Style)
}

func maxLine(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, textfit.Len(l))
	}
	return n
}

// models is the one model all runs share, or "" when they differ (each
// row then names its own).
func models(reps []*Report) string {
	for _, r := range reps[1:] {
		if r.Model != reps[0].Model {
			return ""
		}
	}
	return reps[0].Model
}

// pagesPerQuery is the average number of pages a query operation read.
func pagesPerQuery(r *Report) string {
	var pages, ops int64
	for _, op := range []string{metrics.RangeQuery.String(), metrics.PartitionScan.String(), metrics.TableScan.String()} {
		if s, ok := r.Operations[op]; ok {
			pages += s.Pages
			ops += s.Ops
		}
	}
	if ops == 0 {
		return "-"
	}
	return fixed(float64(pages)/float64(ops), 2)
}

// throttleCodes lists the throttling answers of a run by share of requests.
func throttleCodes(r *Report) string {
	type kv struct {
		k string
		n int64
	}
	var codes []kv
	for k, n := range r.Totals.Status {
		if isThrottleKey(k) {
			codes = append(codes, kv{k, n})
		}
	}
	if len(codes) == 0 {
		return "none"
	}
	sort.Slice(codes, func(i, j int) bool {
		return codes[i].n > codes[j].n || (codes[i].n == codes[j].n && codes[i].k < codes[j].k)
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = c.k + " " + pct(c.n, r.Totals.Requests)
	}
	return strings.Join(parts, ", ")
}

// isThrottleKey reports whether a status key is a throttling answer.
func isThrottleKey(k string) bool {
	return strings.HasPrefix(k, "503") || strings.HasPrefix(k, "504") || strings.HasPrefix(k, "429") || k == "500 OperationTimedOut"
}
