package workload

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// A question still in flight when the measured window ends is cut short
// by the end (no further page starts): it is counted as unfinished, never
// as answered or failed, and its requests stay in the question's and the
// run's requests (the service served them, and client and service agree)
// but not in the per-question means, which are of the questions that
// finished. On the customer scheme of ecommerce-orders, an order by its id
// alone is a scan of the whole table: 20,000 orders over 10,000
// partitions, thousands of pages, at the model's pace on the bubble's
// clock. Without the model's base latency a scan takes its 20,000
// entities' 50 µs, a second: some of a 3 s run's questions finish, those
// asked in its last second do not; with Azure's 5 ms a page it takes
// longer than a 2 s run, and none finishes.
func TestQuestionsCutShortByTheEndAreUnfinished(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds ecommerce-orders' 20,000 orders")
	}
	t.Run("some finish", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			mc := model.Default()
			mc.Latency.Read = 0
			q := askCutShort(t, mc, 3*time.Second, "customer", "order")
			if q.Ops == 0 || q.Unfinished == 0 || q.Failed != 0 {
				t.Fatalf("want some of the questions answered, some unfinished, none failed: %d asked, %d failed, %d unfinished", q.Ops, q.Failed, q.Unfinished)
			}
			// Every finished question scanned the whole table.
			if q.RowsVisitedPerQuestion != 20000 || q.RowsVisitedFrom != "service" {
				t.Errorf("rows visited per question %v (%s), want the table's 20,000, counted by the service", q.RowsVisitedPerQuestion, q.RowsVisitedFrom)
			}
			// Every page of a finished question was a request answered (no
			// throttling, no retry): its requests per question are its pages.
			if pages := float64(q.Sums.Pages) / float64(q.Ops); q.RequestsPerQuestion != pages || q.Throttled != 0 || q.Retries != 0 {
				t.Errorf("%v requests per question, want the %v pages each finished question answered", q.RequestsPerQuestion, pages)
			}
			if want := q.Requests - int64(q.RequestsPerQuestion)*q.Ops; q.Sums.UnfinishedRequests != want || want < q.Unfinished {
				t.Errorf("the unfinished questions made %d requests, want the %d the question's %d requests leave, at least one each", q.Sums.UnfinishedRequests, want, q.Requests)
			}
		})
	})
	t.Run("none finish", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			q := askCutShort(t, model.Default(), 2*time.Second, "customer", "order")
			if q.Ops != 0 || q.Failed != 0 || q.Unfinished < 2 {
				t.Fatalf("want every question unfinished: %d asked (finished), %d failed, %d unfinished", q.Ops, q.Failed, q.Unfinished)
			}
			if q.RequestsPerQuestion != 0 || q.RowsVisitedPerQuestion != 0 || q.Sums.Visited != 0 || q.Requests == 0 || q.Sums.UnfinishedRequests != q.Requests {
				t.Errorf("want no per-question figure and every request the unfinished questions': %d requests, %d theirs, %v requests and %v rows visited per question",
					q.Requests, q.Sums.UnfinishedRequests, q.RequestsPerQuestion, q.RowsVisitedPerQuestion)
			}
		})
	})
}

// askCutShort asks ecommerce-orders' question name alone, 4 times a
// second for d with no warm-up, under scheme on the embedded
// service with model mc (its targets a hundred times over), checks that the run's requests are the service's,
// and returns the question's figures.
func askCutShort(t *testing.T, mc model.Config, d time.Duration, scheme, name string) report.Question {
	t.Helper()
	// Targets a hundred times Azure's: a scan is slow, not throttled.
	mc.PartitionTarget *= 100
	mc.RangeTarget *= 100
	mc.ServerTarget *= 100
	mc.AccountTarget *= 100
	src := questionsOnly(lean(readScenario(t, "ecommerce-orders.yaml")), []string{name})
	sc, errs := scenario.Parse("ecommerce-orders.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sc.Thresholds = nil
	rate := 4.0
	sp, err := plan.Build(sc, []byte(src), plan.Overrides{Duration: d, Warmup: durationOf(0), Rate: &rate, Retry: &scenario.Retry{Kind: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mc, faults.Config{})
	svc := TableService{Service: bubbled(t, srv, sp.Workers), Measured: srv, Local: srv}
	for i, sch := range sp.Schemes {
		if sch.Name != scheme {
			continue
		}
		c := Config{Spec: sp, Scheme: i, Service: svc, PartitionTarget: mc.PartitionTarget, Keep: true}
		c.Events.Phase = func(p Phase) {
			if p == PhaseRun {
				srv.ResetStats()
			}
		}
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		rep := c.Report(res, nil, Meta{Model: mc.String()})
		checkAgainstServer(t, sch.Name, rep, srv.Stats().Tables[res.Table])
		q := rep.Questions[name]
		if rep.Totals.Requests != q.Requests || rep.Operations["question"].Requests != q.Requests {
			t.Errorf("the run made %d requests, %d of its question operation, its question %d: want them all the question's", rep.Totals.Requests, rep.Operations["question"].Requests, q.Requests)
		}
		t.Logf("%d answered, %d unfinished, %d failed; %d requests (%d of the unfinished), %.2f requests and %.0f rows visited per question",
			q.Ops, q.Unfinished, q.Failed, q.Requests, q.Sums.UnfinishedRequests, q.RequestsPerQuestion, q.RowsVisitedPerQuestion)
		return q
	}
	t.Fatal("ecommerce-orders has no constant scheme")
	return report.Question{}
}
