package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// questionCols are the columns of a question table; scheme adds a SCHEME
// column (a comparison).
func questionCols(scheme bool) []textfit.Column {
	return []textfit.Column{
		{Header: "QUESTION", Shrink: true}, {Header: "SCHEME", Shrink: true, Hide: !scheme}, {Header: "PLAN"},
		{Header: "QUESTIONS/S", Short: "Q/S", Right: true, Drop: 4}, {Header: "REQUESTS/Q", Short: "REQS/Q", Right: true},
		{Header: "PARTITIONS/Q", Short: "PARTS/Q", Right: true, Drop: 2}, {Header: "ROWS VISITED/Q", Short: "VISITED/Q", Right: true},
		{Header: "THROTTLED", Right: true, Drop: 1}, {Header: "FAILED", Right: true, Drop: 1}, {Header: "P50 MS", Right: true, Drop: 3},
		{Header: "P99 MS", Right: true}, {Header: "P99.9 MS", Right: true, Drop: 5}, {Header: "RU/Q", Right: true, Drop: 2},
	}
}

// questionCells are one question's cells under one scheme.
func questionCells(name, scheme string, q Question) []textfit.Cell {
	ru := "-"
	if q.RequestUnitsPerQuestion != nil {
		ru = fixed(*q.RequestUnitsPerQuestion, 2)
	}
	label := textfit.Cell{Text: q.Label()}
	switch {
	case q.Plan == "scan" && q.Scope == "table":
		label.Color = textfit.Red
	case q.Plan == "scan":
		label.Color = textfit.Yellow
	}
	visited := "-"
	if q.Ops > 0 {
		visited = textfit.Float(round1(q.RowsVisitedPerQuestion))
		if estimatedVisits(q) {
			visited += "*"
		}
	}
	return []textfit.Cell{cell(name), cell(scheme), label, cell(rate(q.OpsPerSec)), cell(perQ(q, q.RequestsPerQuestion)),
		cell(perQ(q, q.PartitionsPerQuestion)), cell(visited), warn(pct(q.Throttled, q.Requests), q.Throttled > 0), failedCell(q.Counts),
		cell(latencyCell(q.Counts, q.Latency.P50)), cell(latencyCell(q.Counts, q.Latency.P99)), cell(latencyCell(q.Counts, q.Latency.P999)), cell(ru)}
}

func perQ(q Question, v float64) string {
	if q.Ops == 0 {
		return "-"
	}
	return fixed(v, 2)
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

// writeQuestions writes the questions of reps, each question's row under
// every scheme one after the other, with a note on where rows visited
// come from.
func writeQuestions(p *textfit.Printer, reps []*Report) {
	names := map[string]bool{}
	for _, r := range reps {
		for n := range r.Questions {
			names[n] = true
		}
	}
	if len(names) == 0 {
		return
	}
	set := map[string]Question{}
	for n := range names {
		set[n] = Question{}
	}
	order := QuestionOrder(set)
	t := &textfit.Table{Cols: questionCols(len(reps) > 1)}
	returned, failed := false, false
	for _, n := range order {
		for _, r := range reps {
			q, ok := r.Questions[n]
			if !ok {
				continue
			}
			returned = returned || (q.Ops > 0 && estimatedVisits(q))
			failed = failed || q.Failed > 0
			t.Cells(questionCells(n, runLabel(r, reps), q)...)
		}
	}
	keepWhen(t, "FAILED", failed)
	p.Blank()
	p.Line("questions: each as the scheme's plan answers it; latency of the whole question, from its scheduled start, of those answered; failed: the share of those asked that failed after their retries")
	render(p, t)
	if returned {
		p.Line("* rows returned: the service did not count the rows it visited (the embedded service counts them on every query page)")
	}
	for _, n := range questionNotes(reps) {
		if n.bad {
			p.Painted(textfit.Red, "%s", n.text)
		} else {
			p.Line("%s", n.text)
		}
	}
}

// questionNote is a sentence under the questions' table: a question
// never answered (bad), or asks the run's end cut short.
type questionNote struct {
	text string
	bad  bool
}

// questionNotes are the notes under the questions' table of reps, in
// question order, then run order: what the text and the HTML both say.
func questionNotes(reps []*Report) []questionNote {
	set := map[string]Question{}
	for _, r := range reps {
		for n := range r.Questions {
			set[n] = Question{}
		}
	}
	var out []questionNote
	for _, n := range QuestionOrder(set) {
		for _, r := range reps {
			q, ok := r.Questions[n]
			if ok && q.Ops > 0 && q.Answered() == 0 {
				out = append(out, questionNote{fmt.Sprintf("question %s%s was never answered: all %s asked failed after their retries (%s)",
					n, underScheme(r, reps), num(q.Ops), statusLine(q.Status)), true})
			}
			if ok && q.Unfinished > 0 {
				out = append(out, questionNote{unfinishedLine(n+underScheme(r, reps), q), false})
			}
		}
	}
	return out
}

// underScheme is " under SCHEME" in a comparison, "" for one run.
func underScheme(r *Report, reps []*Report) string {
	if len(reps) < 2 {
		return ""
	}
	return " under " + runLabel(r, reps)
}

// QuestionsCSVHeader is the header of the questions CSV.
var QuestionsCSVHeader = []string{"scheme", "question", "plan", "scope", "index", "ops", "questions_per_sec", "requests",
	"requests_per_question", "partitions_per_question", "rows_visited_per_question", "rows_visited_from", "rows_returned_per_question",
	"throttled", "failed", "dropped", "p50_ms", "p99_ms", "p999_ms", "request_units_per_question", "unfinished"}

// WriteQuestionsCSV writes one row per question and scheme. Latency is
// of the questions answered (ops - failed), empty when none was.
func WriteQuestionsCSV(w io.Writer, reports ...*Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(QuestionsCSVHeader); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range reports {
		for _, n := range QuestionOrder(r.Questions) {
			q := r.Questions[n]
			ru := ""
			if q.RequestUnitsPerQuestion != nil {
				ru = f(*q.RequestUnitsPerQuestion)
			}
			lat := func(v float64) string { // none when no question was answered
				if q.Answered() == 0 {
					return ""
				}
				return f(v)
			}
			rec := []string{r.Scheme, n, q.Plan, q.Scope, q.Index, i(q.Ops), f(q.OpsPerSec), i(q.Requests), f(q.RequestsPerQuestion),
				f(q.PartitionsPerQuestion), f(q.RowsVisitedPerQuestion), q.RowsVisitedFrom, f(q.RowsReturnedPerQuestion),
				i(q.Throttled), i(q.Failed), i(q.Dropped), lat(q.Latency.P50), lat(q.Latency.P99), lat(q.Latency.P999), ru, i(q.Unfinished)}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// hasQuestions reports whether any report asked a question.
func hasQuestions(reps []*Report) bool {
	for _, r := range reps {
		if len(r.Questions) > 0 {
			return true
		}
	}
	return false
}

// estimatedVisits reports whether a question's rows visited are, for some
// of its query pages, the rows returned (a service that does not count
// the rows it visits), which the text marks with an asterisk.
func estimatedVisits(q Question) bool {
	return q.RowsVisitedFrom == "rows returned" || q.RowsVisitedFrom == "both"
}

// unfinishedLine says how many of a question's asks the run's end cut
// short, and that their requests count in the totals but not in the
// per-question figures.
func unfinishedLine(name string, q Question) string {
	asks, their, reqs := "questions were", "their", "requests are"
	if q.Unfinished == 1 {
		asks, their = "question was", "its"
	}
	if q.Sums.UnfinishedRequests == 1 {
		reqs = "request is"
	}
	of := "none finished"
	if q.Ops > 0 {
		of = "the figures are of the " + num(q.Ops) + " that finished"
	}
	return fmt.Sprintf("question %s: %s %s still running when the run ended (unfinished: cut short by the end, neither answered nor failed); %s %s %s in the requests and the totals, not in the per-question figures; %s",
		name, num(q.Unfinished), asks, their, num(q.Sums.UnfinishedRequests), reqs, of)
}
