package workload

import (
	"context"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// virtualService is the embedded service in process on a new virtual
// clock, as tablestress run --clock virtual opens it.
func virtualService(t *testing.T, workers int) (TableService, *clock.Virtual) {
	t.Helper()
	v := clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	v.StuckAfter = 5 * time.Second
	in, err := emulator.StartInProcess(emulator.Config{Model: model.Default(), Clock: v})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(context.Background()) })
	tg, err := table.ParseTarget(in.ConnectionString())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := table.Open(tg, table.Options{Workers: workers, RoundTripper: in, Clock: v})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return TableService{Service: svc, Measured: in, Local: in}, v
}

const deleteAll = `
name: delete-all
seed: 3
population:
  entities: 20
  fields:
    device: {kind: id, count: 4, prefix: d-}
schemes:
  - name: device
    partition_key: "{device}"
    row_key: "{i:06}"
workload:
  duration: 3s
  warmup: 0s
  workers: 4
  retry: none
  mix:
    - {op: delete, weight: 1}
`

// A closed loop on the virtual clock whose operations find nothing to act
// on (every entity deleted) still reaches its end: each such operation
// takes the least virtual step, where it would otherwise hold the clock at
// one instant for ever. The 20 deletes are done, the rest dropped (each
// worker at most one a millisecond), and the window is the planned 3 s.
func TestVirtualClosedLoopOfNothingEnds(t *testing.T) {
	svc, v := virtualService(t, 4)
	c := config(t, deleteAll, svc, plan.Overrides{})
	c.Clock = v
	var res *Result
	var err error
	if cerr := v.Run(func() { res, err = Run(context.Background(), c) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	tot := res.Summary.Totals
	if tot.Ops != 20 || tot.Dropped == 0 || tot.Dropped > 4*3000 || res.Summary.Duration() != 3*time.Second {
		t.Fatalf("%d deletes done, %d dropped over %v; want 20 done, some dropped, over 3s", tot.Ops, tot.Dropped, res.Summary.Duration())
	}
}
