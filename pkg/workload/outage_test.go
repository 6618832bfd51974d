package workload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// The target dies mid-run: the run stops, says why, returns what it
// measured, and leaves no goroutine behind (over TCP; the bubble of
// TestTargetDiesStopsRunOnTime holds when it stops).
func TestTargetDiesStopsRun(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	tg, _ := table.ParseTarget(in.ConnectionString())
	svc, err := table.Open(tg, table.Options{Workers: 8, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc}, plan.Overrides{Duration: time.Minute})
	c.Grace = 2 * time.Second
	c.Events.Phase = func(p Phase) {
		if p == PhaseRun {
			time.AfterFunc(time.Second, func() { in.Close(context.Background()) })
		}
	}
	res, err := Run(context.Background(), c)
	svc.Close()
	if !errors.Is(err, ErrTargetDown) || !res.Interrupted || !strings.Contains(res.Failure, "stopped answering") {
		t.Fatalf("err %v, interrupted %v, failure %q", err, res.Interrupted, res.Failure)
	}
	s := res.Summary
	if s == nil || s.Totals.Ops == 0 || s.Totals.Status["transport"] == 0 {
		t.Fatalf("the partial summary is missing the failures: %+v", s)
	}
}

// deathAt is when, in the run phase, the bubbled tests' target dies: off
// the whole seconds of the run's once-a-second verdict and off the 5 ms
// schedule of 200 requests a second, so that no verdict and no request
// fall on the same instant of the fake clock as the death (or the return,
// a whole number of seconds later). The last answer is the request's of
// 1.25 s.
const deathAt = 1252500 * time.Microsecond

// On the fake clock: the target dies 1.2525 s into the run; its last
// answer came at 1.25 s, and the first verdict at least DownAfter (the default 5 s)
// later, on the tick of 7 s, stops the run. The window ends there, and Run
// returns at once: no request is in flight to wait for.
func TestTargetDiesStopsRunOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, model.Off(), faults.Config{})
		svc, tgt := bubbledTarget(t, srv, 8)
		c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc, Measured: srv}, plan.Overrides{Duration: time.Minute})
		c.Grace = 2 * time.Second
		var runAt time.Time
		c.Events.Phase = func(p Phase) {
			if p == PhaseRun {
				runAt = time.Now()
				time.AfterFunc(deathAt, tgt.stop)
			}
		}
		res, err := Run(context.Background(), c)
		if !errors.Is(err, ErrTargetDown) || !strings.Contains(res.Failure, "stopped answering 5s ago") {
			t.Fatalf("err %v, failure %q", err, res.Failure)
		}
		if d, took := res.Summary.Duration(), time.Since(runAt); d != 7*time.Second || took != d {
			t.Errorf("the window lasted %v and Run returned %v after the run began; want both 7 s (death at %v, 5 s of silence, the next whole second)", d, took, deathAt)
		}
	})
}

// With Reconnect the run rides out the outage, counts every failed request
// and records the gap, on the fake clock: the target dies 1.2525 s into
// the run and is back 4 s later. The outage starts at the last answer
// (1.25 s) and ends at the first verdict that sees answers again, the whole
// second after the return (6 s).
func TestReconnectCountsTheGap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, model.Off(), faults.Config{})
		svc, tgt := bubbledTarget(t, srv, 8)
		c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc, Measured: srv}, plan.Overrides{Duration: 9 * time.Second})
		c.Reconnect, c.DownAfter = true, time.Second
		c.Events.Phase = func(p Phase) {
			if p == PhaseRun {
				time.AfterFunc(deathAt, func() {
					tgt.stop()
					time.AfterFunc(4*time.Second, tgt.start)
				})
			}
		}
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Outages) != 1 {
			t.Fatalf("outages %+v, want one", res.Outages)
		}
		o := res.Outages[0]
		if o.Start != 1250*time.Millisecond || o.End != 6*time.Second || o.Cause == "" {
			t.Errorf("outage %+v, want from the last answer at 1.25 s to the verdict at 6 s, with a cause", o)
		}
		s := res.Summary
		// Every scheduled request of the gap failed and was counted: the
		// 800 of its 4 s at 200 a second (1.255 s to 5.25 s).
		if n := s.Totals.Status["transport"]; n != 800 {
			t.Errorf("%d failed requests counted, want the 800 of the gap", n)
		}
		var after int64
		for _, iv := range s.Intervals {
			if time.Duration(iv.Second)*time.Second >= o.End {
				after += iv.Requests
			}
		}
		if after == 0 {
			t.Error("no request after the target came back")
		}
	})
}

// The table is deleted under the run: every request is refused with 404
// TableNotFound, and the run stops saying so (its Failure is the cause, as
// the report words it).
func TestDeletedTableStopsRun(t *testing.T) {
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	svc := open(t, in.ConnectionString(), 8)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc}, plan.Overrides{Duration: time.Minute})
	c.DownAfter, c.Table = 2*time.Second, "vanishing"
	c.Events.Phase = func(p Phase) {
		if p == PhaseRun {
			time.AfterFunc(time.Second, func() { svc.DeleteTable(context.Background(), "vanishing") })
		}
	}
	res, err := Run(context.Background(), c)
	if !errors.Is(err, ErrTargetDown) || !strings.HasPrefix(res.Failure, "every request is refused: 404 TableNotFound") {
		t.Fatalf("err %v, failure %q: want the cause itself as the failure, not the error's wording", err, res.Failure)
	}
}
