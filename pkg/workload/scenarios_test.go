package workload

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// scale is how far the ready-scenario tests scale rates and the model's
// targets down together: the outcome (which scheme is throttled) is the
// same, and it does not depend on how fast the test machine is.
const scale = 0.25

// compareScenario runs every scheme of a ready scenario on one embedded
// service with Azure's model (or the scenario's own), rates and targets
// scaled together, and returns the reports by scheme. Inside a synctest
// bubble (the outcome tests but query-types) the client and the service
// share the bubble's fake clock, so the outcome is exact whatever the
// machine's load; outside it runs on the wall clock over loopback.
func compareScenario(t *testing.T, file string, duration time.Duration, fake bool) map[string]*report.Report {
	t.Helper()
	src := readScenario(t, file)
	sc, errs := scenario.Parse(file, []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	mc := model.Default()
	if sc.Embedded.Model != "" {
		var err error
		if mc, err = model.Parse(sc.Embedded.Model); err != nil {
			t.Fatal(err)
		}
	}
	mc.PartitionTarget *= scale
	mc.RangeTarget *= scale
	mc.AccountTarget *= scale
	mc.ServerTarget *= scale
	fc, _ := faults.Parse(sc.Embedded.Faults)
	cfg := emulator.Config{Model: mc, Faults: fc}
	var svc TableService
	if fake {
		srv := newServer(t, mc, fc)
		svc = TableService{Service: bubbled(t, srv, sc.Workload.Workers), Measured: srv}
	} else {
		in, err := emulator.Start("127.0.0.1:0", cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close(context.Background())
		svc = embedded(t, in, sc.Workload.Workers)
	}
	sp := spec(t, src, Overrides{Duration: duration, Warmup: durationOf(time.Second)}) // duration 0: the scenario's
	sp.Load.Rate *= scale
	sp.Load.WarmupRate *= scale
	for k := range sp.Load.Stages {
		sp.Load.Stages[k].Target *= scale
	}
	out := map[string]*report.Report{}
	for i, sch := range sp.Schemes {
		c := Config{Spec: sp, Scheme: i, Service: svc, PartitionTarget: mc.PartitionTarget}
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", sch.Name, err)
		}
		rep := c.Report(res, nil, Meta{})
		out[sch.Name] = rep
		t.Logf("%s: %s", sch.Name, report.SchemeVerdict(rep))
	}
	return out
}

// expectOutcome runs check on the reports of a ready scenario run in a synctest
// bubble.
func expectOutcome(t *testing.T, file string, duration time.Duration, check func(t *testing.T, rs map[string]*report.Report)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) { check(t, compareScenario(t, file, duration, true)) })
}

func hot(r *report.Report) bool         { return len(report.HotPartitions(r)) > 0 }
func unthrottled(r *report.Report) bool { return r.Totals.Throttled == 0 }

// Each ready scenario's comment states its expected outcome; these tests
// hold the scenarios to it.
func TestReadyScenarioOutcomes(t *testing.T) {
	if testing.Short() {
		t.Skip("the ready scenarios take a few minutes")
	}
	expect := func(t *testing.T, name string, ok bool, r *report.Report) {
		t.Helper()
		if !ok {
			t.Errorf("%s: unexpected outcome: %s (throttled %d of %d requests)", name, report.SchemeVerdict(r), r.Totals.Throttled, r.Totals.Requests)
		}
	}
	t.Run("hot-partition", func(t *testing.T) {
		expectOutcome(t, "hot-partition.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			expect(t, "constant", hot(rs["constant"]), rs["constant"])
			expect(t, "hash-buckets", unthrottled(rs["hash-buckets"]), rs["hash-buckets"])
		})
	})
	t.Run("append-only", func(t *testing.T) {
		expectOutcome(t, "append-only.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			for _, s := range []string{"append-only", "prepend-only"} {
				expect(t, s, !unthrottled(rs[s]) && !hot(rs[s]), rs[s])
			}
			expect(t, "guid", unthrottled(rs["guid"]), rs["guid"])
		})
	})
	t.Run("iot-telemetry", func(t *testing.T) {
		expectOutcome(t, "iot-telemetry.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			for _, s := range []string{"device", "device-date", "device-guid"} {
				expect(t, s, unthrottled(rs[s]), rs[s])
			}
			expect(t, "date", hot(rs["date"]), rs["date"])
		})
	})
	t.Run("multi-tenant", func(t *testing.T) {
		expectOutcome(t, "multi-tenant.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			expect(t, "tenant", hot(rs["tenant"]), rs["tenant"])
			expect(t, "tenant-month", hot(rs["tenant-month"]), rs["tenant-month"])
			expect(t, "tenant-bucket", unthrottled(rs["tenant-bucket"]), rs["tenant-bucket"])
		})
	})
	t.Run("event-logs", func(t *testing.T) {
		expectOutcome(t, "event-logs.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			for _, s := range []string{"date", "hour", "minute"} {
				expect(t, s, hot(rs[s]), rs[s])
			}
			expect(t, "date-sharded", unthrottled(rs["date-sharded"]), rs["date-sharded"])
		})
	})
	t.Run("natural-grouping", func(t *testing.T) {
		expectOutcome(t, "natural-grouping.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			expect(t, "natural", hot(rs["natural"]), rs["natural"])
			expect(t, "natural-bucketed", unthrottled(rs["natural-bucketed"]), rs["natural-bucketed"])
		})
	})
	t.Run("ecommerce-orders", func(t *testing.T) {
		expectOutcome(t, "ecommerce-orders.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			expect(t, "constant", hot(rs["constant"]), rs["constant"])
			for _, s := range []string{"customer", "customer-year"} {
				expect(t, s, unthrottled(rs[s]), rs[s])
				if scan := rs[s].Operations["partition_scan"]; scan.Ops == 0 || scan.Entities/scan.Ops > 20 {
					t.Errorf("%s: partition scans read %d entities in %d scans, want a few each", s, scan.Entities, scan.Ops)
				}
			}
			if scan := rs["hash-buckets"].Operations["partition_scan"]; scan.Ops == 0 || scan.Entities/max(scan.Requests-scan.Errors-scan.Throttled, 1) < 500 {
				t.Errorf("hash-buckets: partition scans read %d entities in %d requests, want hundreds each", scan.Entities, scan.Requests)
			}
		})
	})
	t.Run("blog-posts", func(t *testing.T) {
		expectOutcome(t, "blog-posts.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			for s, r := range rs {
				expect(t, s, unthrottled(r), r)
				if ins := r.Operations["insert"]; ins.Ops == 0 || ins.Requests != 4*ins.Ops || ins.Entities != 4*ins.Ops {
					t.Errorf("%s: %d inserts took %d requests and wrote %d entities, want 4 each (post + 3 index rows)", s, ins.Ops, ins.Requests, ins.Entities)
				}
			}
		})
	})
	t.Run("race-registrations", func(t *testing.T) {
		expectOutcome(t, "race-registrations.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			expect(t, "bib-only", unthrottled(rs["bib-only"]), rs["bib-only"])
			ins := rs["bib-age"].Operations["insert"]
			if ok := ins.Requests - ins.Errors - ins.Throttled; ins.Ops == 0 || ins.Entities != 2*ok {
				t.Errorf("bib-age: %d successful inserts wrote %d entities, want 2 rows each", ok, ins.Entities)
			}
		})
	})
	t.Run("guid-partitions", func(t *testing.T) {
		expectOutcome(t, "guid-partitions.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			g, d := rs["guid"], rs["device"]
			if b := g.Operations["batch"]; b.Entities != b.Requests {
				t.Errorf("guid: batches wrote %d entities in %d transactions, want one each", b.Entities, b.Requests)
			}
			if q := g.Operations["range_query"]; q.Entities != q.Ops {
				t.Errorf("guid: range queries found %d entities in %d queries, want one each", q.Entities, q.Ops)
			}
			if b := d.Operations["batch"]; b.Entities < 15*b.Requests {
				t.Errorf("device: batches wrote %d entities in %d transactions, want about 20 each", b.Entities, b.Requests)
			}
			if !strings.Contains(report.SchemeVerdict(g), "batches impossible") {
				t.Errorf("guid verdict: %s", report.SchemeVerdict(g))
			}
		})
	})
	t.Run("retry", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// The scenarios' own 15 s: the move comes 7 s in.
			none := compareScenario(t, "retry-none.yaml", 0, true)["constant"]
			fixed := compareScenario(t, "retry-fixed.yaml", 0, true)["constant"]
			expo := compareScenario(t, "retry-exponential.yaml", 0, true)["constant"]
			if none.Totals.Retries != 0 || none.Totals.Failed < 1000 {
				t.Errorf("none: %d retries, %d failed; want no retry and over a thousand failures", none.Totals.Retries, none.Totals.Failed)
			}
			if fixed.Totals.Retries == 0 || 2*fixed.Totals.Failed < none.Totals.Failed {
				t.Errorf("fixed: %d retries, %d failed; none failed %d: want most of them to fail too", fixed.Totals.Retries, fixed.Totals.Failed, none.Totals.Failed)
			}
			if expo.Totals.Retries == 0 || 20*expo.Totals.Failed > none.Totals.Failed {
				t.Errorf("exponential: %d retries, %d failed; none failed %d: want almost none to fail", expo.Totals.Retries, expo.Totals.Failed, none.Totals.Failed)
			}
		})
	})
	t.Run("query-types", func(t *testing.T) {
		// Latency is this machine's (the wall clock): outside the bubble.
		r := compareScenario(t, "query-types.yaml", 4*time.Second, false)["device-date"]
		pr, rq, ts := r.Operations["point_read"], r.Operations["partition_scan"], r.Operations["table_scan"]
		if !(pr.Latency.P50 < rq.Latency.P50 && rq.Latency.P50 < ts.Latency.P50) {
			t.Errorf("p50: point read %.2f, partition scan %.2f, table scan %.2f ms: want increasing", pr.Latency.P50, rq.Latency.P50, ts.Latency.P50)
		}
	})
	t.Run("partition-stress-test", func(t *testing.T) {
		expectOutcome(t, "partition-stress-test.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			r := rs["device"]
			if !hot(r) || len(r.Partitions) != 1 || r.Partitions[0].PartitionKey != "dev-007" {
				t.Errorf("stress test: %d partitions, verdict %s", len(r.Partitions), report.SchemeVerdict(r))
			}
		})
	})
	t.Run("quickstart", func(t *testing.T) {
		expectOutcome(t, "quickstart.yaml", 4*time.Second, func(t *testing.T, rs map[string]*report.Report) {
			r := rs["device-date"]
			expect(t, "device-date", unthrottled(r) && r.ThresholdsOK(), r)
		})
	})
}
