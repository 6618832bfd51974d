package workload

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// busyStore refuses every query page with 503 ServerBusy; the first
// page it refuses runs stop, when set (the run's end arriving while the
// request is in flight).
type busyStore struct {
	instantStore
	stop  context.CancelFunc
	pages int
}

func (s *busyStore) Query(context.Context, table.Query) Pager { return s }

func (s *busyStore) Next(context.Context) (table.Page, table.Result, bool) {
	s.pages++
	if s.stop != nil {
		s.stop()
	}
	return table.Page{}, table.Result{Outcome: outcome.Outcome{Class: outcome.Throttled, Status: 503, Code: "ServerBusy"}}, false
}

// A question whose request is refused as the run ends, with retries left
// that the end stops, did not fail: the end cut it short, and it is
// unfinished. The same refusal with the retries spent fails it.
func TestRetryStoppedByTheEndLeavesTheQuestionUnfinished(t *testing.T) {
	for _, c := range []struct {
		name                      string
		ends                      bool
		pages, failed, unfinished int64
	}{{"the end stops the retries", true, 1, 0, 1}, {"retries spent", false, 4, 1, 0}} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := `
seed: 7
population:
  entities: 200
  interval: 10ms
  fields:
    device: {kind: id, count: 20, prefix: dev-, width: 3}
questions:
  - {name: newest, known: [device], want: newest, limit: 10}
schemes:
  - {name: device, partition_key: "{device}", row_key: "{inverted_ticks}"}
workload:
  duration: 1s
  rate: 1/s
  mix:
    - {question: newest}
`
				sp := spec(t, sc, plan.Overrides{Retry: &scenario.Retry{Kind: "fixed", Delay: 100 * time.Millisecond, Retries: 3}})
				plan, err := plan.NewPlan(sp.Scenario, sp.Pop, sp.Schemes[0], sp.Entities, sp.Seed)
				if err != nil {
					t.Fatal(err)
				}
				stop, end := context.WithCancel(context.Background())
				defer end()
				store := &busyStore{}
				if c.ends {
					store.stop = end
				}
				start := time.Now()
				reg := metrics.NewRegistry(metrics.Options{Start: start, End: start.Add(time.Hour), Questions: []string{"newest"}})
				p := &pool{plan: plan, reg: reg, main: store, retry: sp.Retry, clock: clock.Wall{}, workers: 1,
					measureFrom: start, health: newHealth(start), stop: stop, deadline: start.Add(time.Hour)}
				pl := plan.NewPlanner(0)
				x := p.executor(0, reg.NewRecorder(), pl.Stream())
				x.execute(context.Background(), pl.Next(), start)
				q := reg.Finish(start.Add(time.Second)).Questions["newest"]
				if int64(store.pages) != c.pages || q.Requests != c.pages || q.Ops != c.failed || q.Failed != c.failed || q.Unfinished != c.unfinished || q.UnfinishedRequests != c.unfinished {
					t.Errorf("%d pages sent, %d requests recorded, %d questions, %d failed, %d unfinished (%d requests); want %d pages and requests, %d failed, %d unfinished",
						store.pages, q.Requests, q.Ops, q.Failed, q.Unfinished, q.UnfinishedRequests, c.pages, c.failed, c.unfinished)
				}
			})
		})
	}
}
