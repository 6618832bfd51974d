package session

import (
	"context"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/workload"
)

// tiny is a scenario of two schemes small enough to run in a test: point
// reads, inserts and range queries over 20 devices, at 300 ops/s.
const tiny = `name: tiny
seed: 7
population:
  entities: 2000
  fields:
    device: {kind: id, count: 20, prefix: d, width: 2}
schemes:
  - name: by-device
    partition_key: "{device}"
    row_key: "{ticks}"
  - name: one-partition
    partition_key: "all"
    row_key: "{device}_{ticks}"
workload:
  duration: 3s
  warmup: 0s
  rate: 300/s
  mix:
    - {op: point_read, weight: 6}
    - {op: insert, weight: 3}
    - {op: range_query, weight: 1, rows: 20}
`

// tinySpec is tiny compiled.
func tinySpec(t *testing.T) *plan.Spec {
	t.Helper()
	sc, errs := scenario.Parse("tiny.yaml", []byte(tiny))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sp, err := plan.Build(sc, nil, plan.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// A run is a library call: the embedded service opened in process on the
// virtual clock, a scheme run through the package's API, and its report's
// counts, partition by partition, are the service's own counters of the
// measured window (requests by outcome and entities served).
func TestRunReportsWhatTheServiceCounted(t *testing.T) {
	var srv *emulator.Server
	o := Options{Spec: tinySpec(t), Target: table.Target{Kind: table.KindEmbedded}, Embedded: emulator.Config{Model: model.Default()}}
	o.Keep = true // the table's counters stay readable after the run
	o.Progress = func(string, clock.Clock, time.Duration, time.Duration) (workload.Events, func()) {
		return workload.Events{Phase: func(p workload.Phase) {
			if p == workload.PhaseRun {
				srv.ResetStats() // the measured window only
			}
		}}, func() {}
	}
	ss, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	srv = ss.Server()
	if ss.vclock == nil || !ss.Target().InProcess {
		t.Fatalf("virtual clock %v, in process %v: want the embedded service in process on the virtual clock", ss.vclock != nil, ss.Target().InProcess)
	}
	rep, _, err := ss.Run(context.Background(), 0, false)
	if err != nil {
		t.Fatal(err)
	}
	server := srv.Stats().Tables[rep.Table]
	if server == nil {
		t.Fatalf("the service saw no request to %s", rep.Table)
	}
	var ops int64
	for _, n := range rep.Totals.Status {
		ops += n
	}
	if ops < 600 {
		t.Fatalf("the report counts %d requests, want the 900 of 3 s at 300 ops/s", ops)
	}
	var counted int64
	for _, p := range rep.Partitions {
		sp := server.Partitions[p.PartitionKey]
		if sp == nil {
			t.Errorf("partition %q: in the report, not counted by the service", p.PartitionKey)
			continue
		}
		for status, n := range p.Status {
			counted += n
			if sp.Requests[status] != n {
				t.Errorf("partition %q %s: report %d, service %d", p.PartitionKey, status, n, sp.Requests[status])
			}
		}
		if p.Entities != sp.Entities {
			t.Errorf("partition %q entities: report %d, service %d", p.PartitionKey, p.Entities, sp.Entities)
		}
	}
	if counted != ops {
		t.Errorf("the partitions count %d requests, the totals %d", counted, ops)
	}
}
