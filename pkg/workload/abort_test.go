package workload

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
)

// abortScenario throttles from its first second: 300 inserts a second
// into one PartitionKey whose target is 50 entities a second.
const abortScenario = `population: {entities: 1000, fields: {order: {kind: sequence}}}
schemes: [{builtin: constant}]
workload:
  duration: 60s
  warmup: 0s
  rate: 300/s
  workers: 64
  mix: [{op: insert}]
thresholds:
  - {expr: "throttle_rate < 1%", abort_on_fail: true}
`

// On the fake clock, a threshold with abort_on_fail is judged once a
// second: it fails on the first tick (a second of which half the requests
// were throttled), the window ends there, 1 s into a 60 s run, and the run
// returns within the grace its in-flight requests may take.
func TestAbortOnFailStopsAtFirstTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mc, err := model.Parse("azure,partition=50")
		if err != nil {
			t.Fatal(err)
		}
		srv := newServer(t, mc, faults.Config{})
		svc := TableService{Service: bubbled(t, srv, 64), Measured: srv}
		c := config(t, abortScenario, svc, plan.Overrides{})
		c.Grace = 2 * time.Second
		var runAt time.Time
		c.Events.Phase = func(p Phase) {
			if p == PhaseRun {
				runAt = time.Now()
			}
		}
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(runAt)
		if !strings.Contains(res.Aborted, `threshold "throttle_rate < 1%" failed during the run`) {
			t.Errorf("aborted %q", res.Aborted)
		}
		if d := res.Summary.Duration(); d != time.Second || took > d+c.Grace {
			t.Errorf("the window lasted %v and Run returned %v after the run began; want the window to end on the first tick (1 s), and Run within the %v grace after", d, took, c.Grace)
		}
		// The first second's 300 requests, and the one scheduled on the tick
		// itself when it went out first.
		if s := res.Summary.Totals; s.Requests < 300 || s.Requests > 301 || 2*s.Throttled < s.Requests-1 {
			t.Errorf("%d requests, %d throttled: want the first second's 300, half of them throttled", s.Requests, s.Throttled)
		}
	})
}
