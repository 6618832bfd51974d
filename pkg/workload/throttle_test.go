package workload

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
)

// These tests drive the client and the embedded service together inside a
// synctest bubble (bubbled): time moves only when every goroutine waits, so
// the rates are the scenario's, whatever the machine's speed or load, and
// every figure is exact.

// throughputModel is Azure's model without its service time: the tests of
// throughput claims count entities per second of completion, which the
// service time would shift across second boundaries (the service time has
// tests of its own).
func throughputModel() model.Config {
	mc := model.Default()
	mc.Latency.On = false
	return mc
}

// newServer is an embedded service with the model mc.
func newServer(t *testing.T, mc model.Config, fc faults.Config) *emulator.Server {
	t.Helper()
	srv, err := emulator.New(emulator.Config{Model: mc, Faults: fc})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// The seeds' central claim, at the scenario's own rates on Azure's model:
// 6,000 entities/s (120 transactions of 50) into one constant PartitionKey
// are served at its 2,000 entities/s target in every second, the client
// sees it throttled and over target, and two thirds of the transactions
// are refused; the same stream over 16 hash buckets, on the same model, is
// served in full. Client and service agree on every count.
func TestHotPartitionThrottledToTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, throughputModel(), faults.Config{})
		svc := TableService{Service: bubbled(t, srv, 64), Measured: srv}
		// No warm-up: the service's counts then cover the measured window.
		sp := spec(t, readScenario(t, "hot-partition.yaml"), plan.Overrides{Duration: 5 * time.Second, Warmup: durationOf(0)})
		for i, sch := range sp.Schemes {
			c := Config{Spec: sp, Scheme: i, Service: svc, Keep: true}
			c.Events.Phase = func(p Phase) {
				if p == PhaseRun {
					srv.ResetStats()
				}
			}
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			rep := c.Report(res, nil, Meta{})
			checkAgainstServer(t, sch.Name, rep, srv.Stats().Tables[res.Table])
			peaks := srv.ModelPeaks(res.Table)
			offered := 120 * 50 // entities per second
			switch sch.Name {
			case "constant":
				for _, iv := range rep.Intervals {
					// The first second also takes the full bucket (0.1 s: 200 entities).
					if bucket := 200 * btoi(iv.Second == 0); iv.Entities < 2000-50 || iv.Entities > int64(2000+bucket+50) {
						t.Errorf("constant, second %d: %d entities served, want the 2,000 target (± one transaction, and the bucket in the first)", iv.Second, iv.Entities)
					}
				}
				p := rep.Partitions[0]
				share := float64(rep.Totals.Throttled) / float64(rep.Totals.Requests)
				if len(rep.Partitions) != 1 || !p.OverTarget || share < 0.64 || share > 0.69 {
					t.Errorf("constant: partitions %+v, %.3f of requests throttled; want Orders over target, two thirds throttled", rep.Partitions, share)
				}
				if got := peaks.Partitions["Orders"]; got < 2000 || got > 2200 {
					t.Errorf("constant: the service gave Orders %v entities in its busiest second, want 2,000 to 2,200 (its bucket)", got)
				}
			case "hash-buckets":
				for _, iv := range rep.Intervals {
					if iv.Entities < int64(offered)-50 || iv.Entities > int64(offered)+50 {
						t.Errorf("hash-buckets, second %d: %d entities served, want the %d offered", iv.Second, iv.Entities, offered)
					}
				}
				if rep.Totals.Throttled != 0 || len(rep.Partitions) != 16 || len(report.HotPartitions(rep)) != 0 {
					t.Errorf("hash-buckets: %d throttled over %d partitions, %d over target; want none over 16", rep.Totals.Throttled, len(rep.Partitions), len(report.HotPartitions(rep)))
				}
			default:
				t.Fatalf("scheme %q: this test knows constant and hash-buckets", sch.Name)
			}
			c.Service.DeleteTable(context.Background(), res.Table)
		}
	})
}

// Append-only and prepend-only PartitionKeys share the end range partition
// of the table although no partition is hot: it serves its target (scaled
// to 500 entities/s here, with 1,000 inserts/s offered) in every second,
// and the client sees throttling and no hot partition. Scattered keys are
// not throttled.
func TestAppendOnlyThrottledAtRangePartition(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const target = 500
		mc := throughputModel()
		mc.RangeTarget = target
		srv := newServer(t, mc, faults.Config{})
		svc := TableService{Service: bubbled(t, srv, 64), Measured: srv}
		sp := spec(t, readScenario(t, "append-only.yaml"), plan.Overrides{Rate: rateOf(2 * target), Duration: 4 * time.Second})
		for i, sch := range sp.Schemes {
			c := Config{Spec: sp, Scheme: i, Service: svc}
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			rep := c.Report(res, nil, Meta{})
			hot := len(report.HotPartitions(rep))
			switch sch.Name {
			case "append-only", "prepend-only":
				for _, iv := range rep.Intervals {
					if iv.Entities < target-5 || iv.Entities > target+5 {
						t.Errorf("%s, second %d: %d entities served, want the end range's %d", sch.Name, iv.Second, iv.Entities, target)
					}
				}
				if rep.Totals.Throttled == 0 || hot != 0 {
					t.Errorf("%s: %d throttled, %d partitions over target; want throttled without a hot partition", sch.Name, rep.Totals.Throttled, hot)
				}
			case "guid":
				if rep.Totals.Throttled != 0 || rep.Totals.EntitiesPerSec != 2*target {
					t.Errorf("guid: %d throttled, %.0f entities/s; want none throttled and the %d offered", rep.Totals.Throttled, rep.Totals.EntitiesPerSec, 2*target)
				}
			default:
				t.Fatalf("scheme %q: this test knows append-only, prepend-only and guid", sch.Name)
			}
		}
	})
}

// checkAgainstServer compares the client's counts per partition with the
// service's own, status by status.
func checkAgainstServer(t *testing.T, scheme string, rep *report.Report, server *emulator.TableStats) {
	t.Helper()
	if server == nil {
		t.Fatalf("%s: the service saw nothing of the table", scheme)
	}
	for _, p := range rep.Partitions {
		sp := server.Partitions[p.PartitionKey]
		if sp == nil || p.Entities != sp.Entities || p.Requests != sum(sp.Requests) {
			t.Errorf("%s: partition %q: client %d entities in %d requests, server %+v", scheme, p.PartitionKey, p.Entities, p.Requests, sp)
			continue
		}
		for status, n := range sp.Requests {
			if p.Status[status] != n {
				t.Errorf("%s: partition %q status %q: client %d, server %d", scheme, p.PartitionKey, status, p.Status[status], n)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sum(m map[string]int64) (n int64) {
	for _, v := range m {
		n += v
	}
	return n
}
