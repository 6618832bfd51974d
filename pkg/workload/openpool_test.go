package workload

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// heldScenario inserts at 2,000 operations/s into a service that holds
// each answer for its modelled write time (10 ms): about 20 operations are
// in flight at once (Little's law).
const heldScenario = `
name: held
population:
  entities: 1000
  interval: 1ms
  payload: 100B
  fields:
    device: {kind: id, count: 100, prefix: dev-, width: 3}
schemes:
  - builtin: device
workload:
  warmup: 0s
  rate: 2000/s
  retry: none
  %s
  mix:
    - op: insert
`

// An open loop adds workers as its operations need them: against answers
// held 10 ms at 2,000 operations/s it starts about 20 (of the default
// bound of 1,000) and drops nothing; bounded to 10 workers it drops about
// half and has started all 10. The service is reached in process, on a
// fake clock, so the latency is the model's exactly.
//
// A burst shorter than the queue's window is delayed, not dropped: 200 ms
// of the load to 10 workers (half what it needs) queues the other half,
// within the quarter of a second the queue holds, and a pause of the load
// after it lets the workers catch up within the window. What is still
// queued when the window ends is dropped, not run after it.
func TestOpenPoolGrowsToTheLoad(t *testing.T) {
	burst := "workers: 10\n  stages: [{duration: 200ms, rate: 2000}, {duration: 1ms, rate: 0}, {duration: 399ms, rate: 0}]"
	for _, tc := range []struct {
		workers        string
		minUsed, max   int
		minDrop, maxDr float64
	}{
		{"duration: 3s", 20, 40, 0, 0},
		{"duration: 3s\n  workers: 10", 10, 10, 0.4, 0.6},
		{burst, 10, 10, 0, 0},
	} {
		synctest.Test(t, func(t *testing.T) {
			mc, err := model.Parse("azure,read=5ms,write=10ms,entity=0s,kib=0s,queue=0")
			if err != nil {
				t.Fatal(err)
			}
			p, err := emulator.StartInProcess(emulator.Config{Model: mc})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(context.Background())
			tg, _ := table.ParseTarget(p.ConnectionString())
			svc, err := table.Open(tg, table.Options{Workers: 16, Timeout: 10 * time.Second, RoundTripper: p})
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			c := config(t, fmt.Sprintf(heldScenario, tc.workers), TableService{Service: svc, Measured: p.Server}, plan.Overrides{})
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			tot := res.Summary.Totals
			drop := float64(tot.Dropped) / float64(tot.Ops+tot.Dropped)
			t.Logf("%q: %d workers, %.2f%% dropped", tc.workers, res.Workers, 100*drop)
			if res.Workers < tc.minUsed || res.Workers > tc.max || drop < tc.minDrop || drop > tc.maxDr {
				t.Errorf("%q: %d workers started, %.1f%% of %d operations dropped; want %d to %d workers, %.0f%% to %.0f%% dropped",
					tc.workers, res.Workers, 100*drop, tot.Ops+tot.Dropped, tc.minUsed, tc.max, 100*tc.minDrop, 100*tc.maxDr)
			}
		})
	}
}

// The open loop's workers share a few recorders, however many workers the
// pool grows to: a recorder per worker held a latency histogram for every
// partition each of a thousand workers touched.
func TestOpenPoolSharesRecorders(t *testing.T) {
	reg := metrics.NewRegistry(metrics.Options{})
	p := &pool{plan: &plan.Plan{}, reg: reg, workers: 1000, clock: clock.Wall{}}
	op := &openPool{p: p, ctx: context.Background(), jobs: clock.NewQueue[job](p.clock, 1), recs: p.openRecorders(), wg: clock.NewGroup(p.clock)}
	op.jobs.Close() // each worker finds the queue closed and returns
	for range p.workers {
		op.add()
	}
	op.wg.Wait()
	most := openRecordersPerCPU * runtime.GOMAXPROCS(0)
	if n := reg.Recorders(); op.workers != 1000 || n > most || n < 1 {
		t.Errorf("a pool of %d workers made %d recorders, want 1 to %d", op.workers, n, most)
	}
}

// The open loop's queue holds a quarter of a second of the schedule's peak
// rate, at least as many operations as the workers and at most
// openQueueMax: deep enough that a collection slowing the process for a few
// hundred milliseconds delays operations (their latency counts it) instead
// of dropping them.
func TestOpenQueueDepth(t *testing.T) {
	for _, c := range []struct {
		name    string
		pacer   plan.Pacer
		workers int
		want    int
	}{
		{"40,000/s", plan.NewPacer(plan.Load{Open: true, Rate: 40000, WarmupRate: 40000}, 2*time.Second, time.Minute), 1000, 10000},
		{"100/s: the workers", plan.NewPacer(plan.Load{Open: true, Rate: 100}, 0, time.Minute), 1000, 1000},
		{"a ramp to 80,000/s", plan.NewProfile(1000, plan.Stage{Duration: 10 * time.Second, Target: 80000}, plan.Stage{Duration: 10 * time.Second, Target: 2000}), 8, 20000},
		{"bounded", plan.NewPacer(plan.Load{Open: true, Rate: 1e8}, 0, time.Second), 8, openQueueMax},
	} {
		if got := openQueueDepth(c.pacer, c.workers); got != c.want {
			t.Errorf("%s: depth %d, want %d", c.name, got, c.want)
		}
	}
}
