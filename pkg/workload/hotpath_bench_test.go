package workload

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// The benchmarks of this file time the client's per-operation path (the
// executor, the closed loop, the open loop's scheduler) against a Store
// that answers at once, so that what they measure is tablestress's own
// work around a request, not a service's.

// instantStore is a Store that answers every request at once with success;
// a query's pager returns pages of rows entities, more of them while
// pages remain.
type instantStore struct {
	rows, pages int
	page        table.Page
	once        sync.Once
}

var okAnswer = table.Result{Outcome: outcome.Outcome{Class: outcome.OK, Status: 200}, Entities: 1}

func (s *instantStore) Insert(context.Context, []byte) table.Result { return okAnswer }
func (s *instantStore) Upsert(context.Context, []byte, table.UpdateMode) table.Result {
	return okAnswer
}
func (s *instantStore) Update(context.Context, []byte, table.UpdateMode, string) table.Result {
	return okAnswer
}
func (s *instantStore) Delete(context.Context, string, string, string) table.Result { return okAnswer }
func (s *instantStore) Get(context.Context, string, string, []string) table.Result  { return okAnswer }
func (s *instantStore) Submit(context.Context, []table.Action) table.Result         { return okAnswer }
func (s *instantStore) Query(context.Context, table.Query) Pager {
	s.once.Do(func() {
		s.page.Entities = make([][]byte, s.rows)
		for i := range s.page.Entities {
			s.page.Entities[i] = []byte(`{}`)
		}
	})
	return &instantPager{s: s}
}

type instantPager struct {
	s    *instantStore
	sent int
}

func (p *instantPager) Next(context.Context) (table.Page, table.Result, bool) {
	p.sent++
	r := okAnswer
	r.Entities = p.s.rows
	return p.s.page, r, p.sent < p.s.pages
}

// hotScenario is a workload of the operation mix, one partition key per
// device, for the benchmarks.
const hotScenario = `
seed: 7
population:
  entities: 20000
  interval: 10ms
  fields:
    device: {kind: id, count: 200, prefix: dev-, width: 3}
schemes:
  - name: dev
    partition_key: "{device}"
    row_key: "{inverted_ticks}"
workload:
  duration: 10s
  workers: 8
  mix:
%s`

// hotPool is a pool of workers over the scenario with mix, against an
// instant store, measuring from now.
func hotPool(b *testing.B, mix string, workers int) *pool {
	b.Helper()
	sc := fmt.Sprintf(hotScenario, mix)
	sp := spec(b, sc, plan.Overrides{})
	plan, err := plan.NewPlan(sp.Scenario, sp.Pop, sp.Schemes[0], sp.Entities, sp.Seed)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	reg := metrics.NewRegistry(metrics.Options{Start: start, End: start.Add(time.Hour)})
	st := &instantStore{rows: 20, pages: 2}
	return &pool{plan: plan, reg: reg, main: st, retry: sp.Retry, clock: clock.Wall{}, workers: workers,
		measureFrom: start, health: newHealth(start), stop: context.Background(), deadline: start.Add(time.Hour)}
}

// BenchmarkExecuteQuery times one query operation (range queries of 20
// rows, partition scans of two pages, table scans of two pages) through
// the executor, one worker.
func BenchmarkExecuteQuery(b *testing.B) {
	p := hotPool(b, `    - {op: range_query, weight: 3, rows: 20}
    - {op: partition_scan, weight: 1, max_pages: 2}
    - {op: table_scan, weight: 1, max_pages: 2}
`, 1)
	pl := p.plan.NewPlanner(0)
	x := p.executor(0, p.reg.NewRecorder(), pl.Stream())
	ctx := context.Background()
	steps := make([]plan.Step, 1024)
	for k := range steps {
		steps[k] = pl.Next()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		x.execute(ctx, steps[n%len(steps)], time.Now())
	}
}

// BenchmarkClosedLoop times an operation of the closed loop (point reads
// and upserts), 4 workers, max_operations b.N.
func BenchmarkClosedLoop(b *testing.B) {
	p := hotPool(b, `    - {op: point_read, weight: 3}
    - {op: upsert_replace, weight: 1}
`, 4)
	p.maxOps = int64(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	p.closed(context.Background())
}

// burst is a schedule of n operations all due at once.
type burst uint64

func (n burst) Due(k uint64) (time.Duration, bool) { return 0, k < uint64(n) }
func (burst) Rate(time.Duration) float64           { return 0 }
func (burst) Total() time.Duration                 { return 0 }

// BenchmarkOpenLoop times an operation of the open loop's scheduler (point
// reads, all due at once, 4 workers): each is handed to an idle worker or,
// the queue full, dropped and counted; dropped/op is the share dropped.
func BenchmarkOpenLoop(b *testing.B) {
	p := hotPool(b, `    - {op: point_read, weight: 1}
`, 4)
	b.ReportAllocs()
	b.ResetTimer()
	p.open(context.Background(), burst(b.N), p.measureFrom)
	b.StopTimer()
	s := p.reg.Finish(time.Now())
	b.ReportMetric(float64(s.Totals.Dropped)/float64(b.N), "dropped/op")
}
