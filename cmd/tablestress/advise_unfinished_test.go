package main

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/advise"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// A question of the scenario's own scheme that cannot finish within the
// proof's run (an order by its id alone, under a customer PartitionKey: a
// scan of the whole table, thousands of pages at 5 ms each, in a 2 s run)
// is not checked, with the reason in words, and not measured as if it
// had finished: no per-question figure, none counted as failed, its
// unfinished questions counted; the proof's verdict does not rest on it.
func TestAdviseProofDoesNotCheckUnfinishedQuestions(t *testing.T) {
	code, doc, errs := adviseJSON(t, "testdata/advise-unfinished.yaml", "--proof-entities", "20000", "--proof-duration", "2s", "--proof-warmup", "1s")
	if doc.Proof == nil || !doc.Proof.Run {
		t.Fatalf("exit %d, no proof run: %s", code, errs)
	}
	var found bool
	for _, r := range doc.Proof.Schemes {
		if r.Role != "own" {
			continue
		}
		for _, q := range r.Questions {
			if q.Name != "order" {
				continue
			}
			found = true
			if q.Asked != 0 || q.Failed != 0 || q.Unfinished == 0 || q.Requests != 0 || q.RowsVisited != 0 {
				t.Errorf("own scheme's order: %d asked, %d failed, %d unfinished, %v requests and %v rows visited a question; want every question unfinished, no figure",
					q.Asked, q.Failed, q.Unfinished, q.Requests, q.RowsVisited)
			}
			if !strings.Contains(q.NotChecked, "questions finished within the 2s run (predicted ") || !strings.HasSuffix(q.NotChecked, ": not checked") {
				t.Errorf("own scheme's order: not_checked %q, want the reason in words", q.NotChecked)
			}
			if !strings.Contains(strings.Join(doc.Proof.Notes, ";"), "order under "+r.Scheme+" (own): none of its ") {
				t.Errorf("notes %q: want the unchecked question named", doc.Proof.Notes)
			}
		}
	}
	if !found {
		t.Fatalf("the proof ran no own scheme asking order: %+v", doc.Proof.Schemes)
	}
	for _, f := range doc.Proof.Failures {
		if strings.Contains(f, "order ") {
			t.Errorf("failure %q: an unfinished question does not fail the proof", f)
		}
	}
}

// The proof's table shows a question none of whose asks finished as
// unfinished, not checked (when WITHIN fits), with no measured figure,
// and its verdict names how many of the recommendation's questions it
// checked, at 100 columns too.
func TestProofTextShowsUncheckedQuestions(t *testing.T) {
	pr := &advise.Proof{Run: true, OK: true, Rate: 100, DurationS: 2, Tolerance: advise.MaxOff, Entities: 20_000, Schemes: []advise.ProofRun{{
		Scheme: "rec", Role: "recommended", Questions: []advise.ProofQuestion{
			{Name: "feed", Plan: "range", PredictedRequests: 1, Requests: 1, PredictedRowsVisited: 3, RowsVisited: 3, Tolerance: advise.MaxOff, Checked: true, Asked: 9},
			{Name: "user-newest", Plan: "scan (table)", PredictedRequests: 8647, Requests: 95, PredictedRowsVisited: 20001, RowsVisited: 230, Tolerance: advise.MaxOff, Checked: true,
				Unfinished: 11, NotChecked: "none of its 11 questions finished within the 2s run (predicted 8,647 requests each; they made 95 each on average before the end): not checked"},
		}}}}
	for _, width := range []int{0, 100} {
		var b strings.Builder
		printProof(&textfit.Printer{W: &b, Style: textfit.Style{Width: width}}, pr)
		out := b.String()
		var row string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "user-newest") {
				row = l
			}
		}
		if strings.Count(row, "unfinished") != 2 || (width == 0 && !strings.Contains(row, "not checked")) || strings.Contains(row, " 95 ") || strings.Contains(row, "230") {
			t.Errorf("width %d: the row %q should say unfinished (and, with room for WITHIN, not checked), and show no measured figure", width, row)
		}
		if !strings.Contains(strings.Join(strings.Fields(out), " "), "the requests and rows visited of the 1 of its 2 questions it checked within theirs") {
			t.Errorf("width %d: the verdict should say how many questions were checked:\n%s", width, out)
		}
	}
}
