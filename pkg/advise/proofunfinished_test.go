package advise

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/report"
)

// The proof reads a question's figures of the questions that finished
// within its run only: a question none of whose asks finished is not
// checked, with the reason in words, and neither fails the proof nor is
// counted as checked; one some of whose asks finished is checked on
// those, with a note of how many the run's end cut short; one all of
// whose finished asks failed is not checked either (a failure ends a
// question partway), the failures failing the proof on their own.
func TestProofDoesNotCheckUnfinishedQuestions(t *testing.T) {
	rep := func(asked, failed, unfinished int64, reqs float64) *report.Report {
		r := &report.Report{Partitions: []report.Partition{{PartitionKey: "a", EntitiesPerSec: 1000}}, Questions: map[string]report.Question{}}
		r.Totals.Requests, r.Totals.Ops = 100_000, 100_000
		q := report.Question{RequestsPerQuestion: reqs, RowsVisitedPerQuestion: 217_889, RowsVisitedFrom: "service", Unfinished: unfinished}
		q.Ops, q.Failed, q.Sums.Unfinished, q.Sums.UnfinishedRequests = asked, failed, unfinished, 20*unfinished
		r.Questions["user-newest"] = q
		return r
	}
	for _, c := range []struct {
		name       string
		rec        *report.Report
		ok         bool
		notChecked string
		says       string
	}{
		{"none finished", rep(0, 0, 3, 0), true,
			"none of its 3 questions finished within the 2s run (predicted 12,613 requests each, modelled at about 1.4 minutes a question; they made 20 each on average before the end): not checked",
			"user-newest: none of its 3 questions finished"},
		{"the one unfinished", rep(0, 0, 1, 0), true,
			"its one question did not finish within the 2s run (predicted 12,613 requests, modelled at about 1.4 minutes a question; it made 20 before the end): not checked",
			"user-newest: its one question did not finish"},
		{"the one finished failed", rep(1, 1, 1, 30), false, "its one question that finished failed (after retries), partway: its requests and rows visited are not a question's, so they were not checked; 1 more was still running", "failed 1 of the 1 times"},
		{"some finished", rep(5, 0, 2, 12_613), true, "", "user-newest: 2 of its 7 questions were still running when the run ended (cut short, not failed): its figures are of the 5 that finished"},
		{"some finished, off", rep(5, 0, 2, 16_000), false, "", "user-newest took 16,000 requests a question"},
		{"all finished failed", rep(5, 5, 2, 30), false, "all 5 of its questions that finished failed (after retries), partway", "failed 5 of the 5 times"},
	} {
		p := &Proof{Rate: 100, Entities: 1_000_000, DurationS: 2, Tolerance: MaxOff, Schemes: []ProofRun{{Scheme: "rec", Role: "recommended",
			Predicted: ProofFigures{BusiestEntitiesPerSec: 1000},
			Questions: []ProofQuestion{{Name: "user-newest", PredictedRequests: 12_613, PredictedRowsVisited: 217_889, predictedMs: 84_000,
				Tolerance: MaxOff, Checked: true, PredictedPerSecond: 1.5}}}}}
		p.Judge(map[string]*report.Report{"rec": c.rec})
		q := p.Schemes[0].Questions[0]
		all := strings.Join(append(p.Failures, p.Notes...), ";")
		if p.OK != c.ok || !strings.HasPrefix(q.NotChecked, c.notChecked) || (q.NotChecked == "") != (c.notChecked == "") || !strings.Contains(all, c.says) {
			t.Errorf("%s: ok %v, not checked %q, failures %q, notes %q; want ok %v, not checked %q, saying %q", c.name, p.OK, q.NotChecked, p.Failures, p.Notes, c.ok, c.notChecked, c.says)
		}
		if strings.Contains(strings.Join(p.Failures, ";"), "requests a question") != (c.name == "some finished, off") {
			t.Errorf("%s: failures %q: only the finished questions' figures are checked", c.name, p.Failures)
		}
		if q.Unfinished != c.rec.Questions["user-newest"].Unfinished {
			t.Errorf("%s: %d unfinished, want the run's", c.name, q.Unfinished)
		}
	}
}

// The proof's why says which question cannot finish within its run: its
// last request is modelled to start after the run's end. A question of
// one request, however long, finishes: the request in flight at the end
// completes.
func TestSlowWhyNamesQuestionsLongerThanTheRun(t *testing.T) {
	runs := []ProofRun{{Scheme: "own", Questions: []ProofQuestion{{Name: "user-newest", PredictedRequests: 12_613, predictedMs: 84_000, predictedRounds: 12_613},
		{Name: "one-page", PredictedRequests: 1, predictedMs: 5000, predictedRounds: 1}, {Name: "message", PredictedRequests: 1, predictedMs: 5, predictedRounds: 1}}}}
	got := slowWhy(runs, 2e9)
	if !strings.HasSuffix(got, "after the end of the 2s run, so none of their questions can finish within it and they are not checked: user-newest under own (about 1.4 minutes a question, 12,613 requests)") {
		t.Errorf("why %q", got)
	}
}
