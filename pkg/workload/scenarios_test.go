package workload

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// compareScenario runs every scheme of a ready scenario on the embedded
// service, scaled, and returns the reports by scheme.
func compareScenario(t *testing.T, file string, duration time.Duration) map[string]*report.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../scenarios", file))
	if err != nil {
		t.Fatal(err)
	}
	sc, errs := scenario.Parse(file, data)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// Scenarios that tune the model (the retry scenarios' load balancing
	// needs refusals to start within a second) run on it as written; the
	// others make claims about sustained rates and get stall-tolerant
	// buckets.
	mc := model.Default()
	mc.Burst = stallTolerant(mc.Burst)
	if sc.Embedded.Model != "" {
		if mc, err = model.Parse(sc.Embedded.Model); err != nil {
			t.Fatal(err)
		}
	}
	mc.PartitionTarget *= scale
	mc.RangeTarget *= scale
	mc.AccountTarget *= scale
	mc.ServerTarget *= scale
	fc, _ := faults.Parse(sc.Embedded.Faults)
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: mc, Faults: fc})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	svc := open(t, in.ConnectionString(), sc.Workload.Workers)
	pop, schemes, err := sc.Compile()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*report.Report{}
	for i, sch := range schemes {
		c := config(t, string(data), svc)
		c.Scheme, c.Pop = sch, pop
		c.Duration, c.Warmup = duration, time.Second
		c.Rate *= scale
		for k := range c.Stages {
			c.Stages[k].Target *= scale
		}
		c.PartitionTarget = mc.PartitionTarget
		c.Events.Phase = func(p string) { in.PauseModel(p != "run") }
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", sch.Name, err)
		}
		rep := report.Build(report.Meta{Scenario: sc.DisplayName(), Scheme: sch.Name, Run: report.RunInfo{PartitionTarget: mc.PartitionTarget}}, res.Summary)
		rep.EvaluateThresholds(sc.Exprs())
		out[sc.Schemes[i].Name] = rep
		t.Logf("%s: %s", sch.Name, report.SchemeVerdict(rep))
	}
	return out
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
		rs := compareScenario(t, "hot-partition.yaml", 4*time.Second)
		expect(t, "constant", hot(rs["constant"]), rs["constant"])
		expect(t, "hash-buckets", unthrottled(rs["hash-buckets"]), rs["hash-buckets"])
	})
	t.Run("append-only", func(t *testing.T) {
		rs := compareScenario(t, "append-only.yaml", 4*time.Second)
		for _, s := range []string{"append-only", "prepend-only"} {
			expect(t, s, !unthrottled(rs[s]) && !hot(rs[s]), rs[s])
		}
		expect(t, "guid", unthrottled(rs["guid"]), rs["guid"])
	})
	t.Run("iot-telemetry", func(t *testing.T) {
		rs := compareScenario(t, "iot-telemetry.yaml", 4*time.Second)
		for _, s := range []string{"device", "device-date", "device-guid"} {
			expect(t, s, unthrottled(rs[s]), rs[s])
		}
		expect(t, "date", hot(rs["date"]), rs["date"])
	})
	t.Run("multi-tenant", func(t *testing.T) {
		rs := compareScenario(t, "multi-tenant.yaml", 4*time.Second)
		expect(t, "tenant", hot(rs["tenant"]), rs["tenant"])
		expect(t, "tenant-month", hot(rs["tenant-month"]), rs["tenant-month"])
		expect(t, "tenant-bucket", unthrottled(rs["tenant-bucket"]), rs["tenant-bucket"])
	})
	t.Run("event-logs", func(t *testing.T) {
		rs := compareScenario(t, "event-logs.yaml", 4*time.Second)
		for _, s := range []string{"date", "hour", "minute"} {
			expect(t, s, hot(rs[s]), rs[s])
		}
		expect(t, "date-sharded", unthrottled(rs["date-sharded"]), rs["date-sharded"])
	})
	t.Run("natural-grouping", func(t *testing.T) {
		rs := compareScenario(t, "natural-grouping.yaml", 4*time.Second)
		expect(t, "natural", hot(rs["natural"]), rs["natural"])
		expect(t, "natural-bucketed", unthrottled(rs["natural-bucketed"]), rs["natural-bucketed"])
	})
	t.Run("ecommerce-orders", func(t *testing.T) {
		rs := compareScenario(t, "ecommerce-orders.yaml", 4*time.Second)
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
	t.Run("blog-posts", func(t *testing.T) {
		rs := compareScenario(t, "blog-posts.yaml", 4*time.Second)
		for s, r := range rs {
			expect(t, s, unthrottled(r), r)
			if ins := r.Operations["insert"]; ins.Ops == 0 || ins.Requests != 4*ins.Ops || ins.Entities != 4*ins.Ops {
				t.Errorf("%s: %d inserts took %d requests and wrote %d entities, want 4 each (post + 3 index rows)", s, ins.Ops, ins.Requests, ins.Entities)
			}
		}
	})
	t.Run("race-registrations", func(t *testing.T) {
		rs := compareScenario(t, "race-registrations.yaml", 4*time.Second)
		expect(t, "bib-only", unthrottled(rs["bib-only"]), rs["bib-only"])
		ins := rs["bib-age"].Operations["insert"]
		if ok := ins.Requests - ins.Errors - ins.Throttled; ins.Ops == 0 || ins.Entities != 2*ok {
			t.Errorf("bib-age: %d successful inserts wrote %d entities, want 2 rows each", ok, ins.Entities)
		}
	})
	t.Run("guid-partitions", func(t *testing.T) {
		rs := compareScenario(t, "guid-partitions.yaml", 4*time.Second)
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
	t.Run("retry", func(t *testing.T) {
		none := compareScenario(t, "retry-none.yaml", 9*time.Second)["constant"]
		expo := compareScenario(t, "retry-exponential.yaml", 9*time.Second)["constant"]
		if none.Totals.Retries != 0 || none.Totals.Failed == 0 {
			t.Errorf("none: %d retries, %d failed", none.Totals.Retries, none.Totals.Failed)
		}
		if expo.Totals.Retries == 0 || expo.Totals.Failed*5 > none.Totals.Failed {
			t.Errorf("exponential: %d retries, %d failed; none failed %d: want far fewer failures", expo.Totals.Retries, expo.Totals.Failed, none.Totals.Failed)
		}
	})
	t.Run("query-types", func(t *testing.T) {
		r := compareScenario(t, "query-types.yaml", 4*time.Second)["device-date"]
		pr, rq, ts := r.Operations["point_read"], r.Operations["partition_scan"], r.Operations["table_scan"]
		if !(pr.Latency.P50 < rq.Latency.P50 && rq.Latency.P50 < ts.Latency.P50) {
			t.Errorf("p50: point read %.2f, partition scan %.2f, table scan %.2f ms: want increasing", pr.Latency.P50, rq.Latency.P50, ts.Latency.P50)
		}
	})
	t.Run("partition-stress-test", func(t *testing.T) {
		r := compareScenario(t, "partition-stress-test.yaml", 4*time.Second)["device"]
		if !hot(r) || len(r.Partitions) != 1 || r.Partitions[0].PartitionKey != "dev-007" {
			t.Errorf("stress test: %d partitions, verdict %s", len(r.Partitions), report.SchemeVerdict(r))
		}
	})
	t.Run("quickstart", func(t *testing.T) {
		r := compareScenario(t, "quickstart.yaml", 4*time.Second)["device-date"]
		expect(t, "device-date", unthrottled(r) && r.ThresholdsOK(), r)
	})
}
