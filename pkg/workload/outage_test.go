package workload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/table"
)

// The target dies mid-run: the run stops, says why, returns what it
// measured, and leaves no goroutine behind.
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
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc}, Overrides{Duration: time.Minute})
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
	// Stopped within the 5 s without answers plus the grace period, not after a minute.
	if d := s.Duration(); d > 20*time.Second {
		t.Errorf("the run went on for %v after the target died", d)
	}
}

// With Reconnect the run rides out the outage, counts every failed request
// and records the gap.
func TestReconnectCountsTheGap(t *testing.T) {
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	addr := in.Addr()
	svc := open(t, in.ConnectionString(), 8)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc}, Overrides{Duration: 9 * time.Second})
	// Down after 1 s of silence, a quarter of the 4 s gap: requests in
	// flight when the target closes are still answered while it drains
	// them, late on a loaded machine, and the verdict is taken once a
	// second; a late answer must not split the gap in two.
	c.Reconnect, c.DownAfter = true, time.Second
	c.Table = "reconnecting"
	restarted := make(chan *emulator.Instance, 1)
	c.Events.Phase = func(p Phase) {
		if p != PhaseRun {
			return
		}
		time.AfterFunc(time.Second, func() {
			in.Close(context.Background())
			time.AfterFunc(4*time.Second, func() {
				again, err := emulator.Start(addr, emulator.Config{Model: model.Off(), Faults: faults.Config{}})
				if err != nil {
					t.Errorf("restart: %v", err)
				}
				// The target comes back (empty: this one keeps no data).
				svc.CreateTable(context.Background(), "reconnecting")
				restarted <- again
			})
		})
	}
	res, err := Run(context.Background(), c)
	if again := <-restarted; again != nil {
		defer again.Close(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outages) != 1 {
		t.Fatalf("outages %+v, want one", res.Outages)
	}
	o := res.Outages[0]
	if o.End-o.Start < 2*time.Second || o.End-o.Start > 7*time.Second || o.Cause == "" {
		t.Errorf("outage %+v, want about 4 s with a cause", o)
	}
	s := res.Summary
	if s.Totals.Status["transport"] == 0 {
		t.Error("the failed requests of the outage were not counted")
	}
	var after int64
	for _, iv := range s.Intervals {
		if time.Duration(iv.Second)*time.Second > o.End {
			after += iv.Requests
		}
	}
	if after == 0 {
		t.Error("no request after the target came back")
	}
}

// The table is deleted under the run: every request is refused with 404
// TableNotFound, and the run stops saying so.
func TestDeletedTableStopsRun(t *testing.T) {
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	svc := open(t, in.ConnectionString(), 8)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), TableService{Service: svc}, Overrides{Duration: time.Minute})
	c.DownAfter, c.Table = 2*time.Second, "vanishing"
	c.Events.Phase = func(p Phase) {
		if p == PhaseRun {
			time.AfterFunc(time.Second, func() { svc.DeleteTable(context.Background(), "vanishing") })
		}
	}
	res, err := Run(context.Background(), c)
	if !errors.Is(err, ErrTargetDown) || !strings.Contains(res.Failure, "every request is refused: 404 TableNotFound") {
		t.Fatalf("err %v, failure %q", err, res.Failure)
	}
}
