package workload

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// slowStore answers every query page after its latency, on the clock of
// the bubble it runs in, with one row; other requests at once.
type slowStore struct {
	instantStore
	latency time.Duration
}

func (s *slowStore) Query(context.Context, table.Query) Pager { return &slowPager{s: s} }

type slowPager struct{ s *slowStore }

func (p *slowPager) Next(context.Context) (table.Page, table.Result, bool) {
	time.Sleep(p.s.latency)
	r := okAnswer
	return table.Page{Entities: [][]byte{[]byte(`{"Seq":"1"}`)}}, r, false
}

// A question's fan-out sends its partitions' queries at once, as an
// application does: over four hash buckets answering in 10 ms each, the
// question takes 10 ms, not 40, and each request is recorded once, under
// the question, with its bucket.
func TestFanOutAsksItsBucketsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sc := fmt.Sprintf(`
seed: 7
population:
  entities: 2000
  interval: 10ms
  fields:
    device: {kind: id, count: 20, prefix: dev-, width: 3}
questions:
  - {name: newest, known: [device], want: newest, limit: 10}
schemes:
  - name: buckets
    partition_key: "{device}-{hash(guid) %% 4}"
    row_key: "{inverted_ticks}"
workload:
  duration: 10s
  workers: 1
  mix:
%s`, "    - {question: newest}\n")
		sp := spec(t, sc, plan.Overrides{})
		plan, err := plan.NewPlan(sp.Scenario, sp.Pop, sp.Schemes[0], sp.Entities, sp.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if k := plan.Questions[0].Kind; k != "fan_out" {
			t.Fatalf("plan %s; want a fan-out", k)
		}
		start := time.Now()
		reg := metrics.NewRegistry(metrics.Options{Start: start, End: start.Add(time.Hour), Questions: []string{"newest"}})
		p := &pool{plan: plan, reg: reg, main: &slowStore{latency: 10 * time.Millisecond}, retry: sp.Retry, clock: clock.Wall{}, workers: 1,
			measureFrom: start, health: newHealth(start), stop: context.Background(), deadline: start.Add(time.Hour)}
		pl := plan.NewPlanner(0)
		x := p.executor(0, reg.NewRecorder(), pl.Stream())
		x.execute(context.Background(), pl.Next(), start)
		if took := time.Since(start); took != 10*time.Millisecond {
			t.Errorf("the question took %v; want 10ms, its four requests at once", took)
		}
		sum := reg.Finish(start.Add(time.Second))
		q := sum.Questions["newest"]
		if q.Requests != 4 || q.Partitions != 4 || q.Ops != 1 {
			t.Errorf("recorded %d requests over %d partitions in %d questions; want 4, 4, 1", q.Requests, q.Partitions, q.Ops)
		}
	})
}
