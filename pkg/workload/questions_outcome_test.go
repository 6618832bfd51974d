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
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// askOnly runs every scheme of a ready scenario with only its questions in
// the mix and no payload (which the rows and requests do not depend on), at rate questions/s for d on the embedded service with Azure's
// model, its targets multiplied by scale, in a synctest bubble (the model's
// clock is the bubble's, so the figures do not depend on the machine), and
// returns the reports by scheme.
func askOnly(t *testing.T, file string, rate float64, d time.Duration, scale float64, only ...string) map[string]*report.Report {
	return askOnlyN(t, file, 0, rate, d, scale, only...)
}

// askOnlyN is askOnly with n entities seeded (0: the scenario's).
func askOnlyN(t *testing.T, file string, n int64, rate float64, d time.Duration, scale float64, only ...string) map[string]*report.Report {
	t.Helper()
	mc := model.Default()
	mc.PartitionTarget *= scale
	mc.RangeTarget *= scale
	mc.ServerTarget *= scale
	mc.AccountTarget *= scale
	return askOn(t, file, n, rate, d, mc, only...)
}

// askOn is askOnlyN on the embedded service with model mc.
func askOn(t *testing.T, file string, n int64, rate float64, d time.Duration, mc model.Config, only ...string) map[string]*report.Report {
	t.Helper()
	src := questionsOnly(lean(readScenario(t, file)), only)
	sc, errs := scenario.Parse(file, []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sc.Thresholds = nil
	o := plan.Overrides{Duration: d, Warmup: durationOf(0), Rate: &rate, Retry: &scenario.Retry{Kind: "none"}}
	if n > 0 {
		o.Entities = &n
	}
	sp, err := plan.Build(sc, []byte(src), o)
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mc, faults.Config{})
	svc := TableService{Service: bubbled(t, srv, sp.Workers), Measured: srv, Local: srv}
	out := map[string]*report.Report{}
	for i, sch := range sp.Schemes {
		c := Config{Spec: sp, Scheme: i, Service: svc, PartitionTarget: mc.PartitionTarget}
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", sch.Name, err)
		}
		out[sch.Name] = c.Report(res, nil, Meta{Model: mc.String()})
	}
	return out
}

// questionsOnly keeps only the question entries of a scenario's mix (only
// those asking the questions named in only, when given, adding those the
// mix does not ask).
func questionsOnly(src string, only []string) string {
	var out []string
	inMix := false
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "  mix:") {
			inMix = true
		} else if inMix && !strings.HasPrefix(line, "    ") {
			inMix = false
		}
		if inMix && strings.HasPrefix(line, "    -") && (!strings.Contains(line, "question:") || !mentions(line, only)) {
			continue
		}
		out = append(out, line)
	}
	src = strings.Join(out, "\n")
	for _, n := range only {
		if !strings.Contains(src, "question: "+n+",") && !strings.Contains(src, "question: "+n+"}") {
			src = strings.Replace(src, "  mix:\n", "  mix:\n    - {question: "+n+"}\n", 1) // declared, not in the mix
		}
	}
	return src
}

func mentions(line string, names []string) bool {
	for _, n := range names {
		if strings.Contains(line, "question: "+n+",") || strings.Contains(line, "question: "+n+"}") {
			return true
		}
	}
	return len(names) == 0
}

// answered returns a report's figures of question name, failing the test
// when the run did not answer it.
func answered(t *testing.T, rs map[string]*report.Report, scheme, name string) report.Question {
	t.Helper()
	q, ok := rs[scheme].Questions[name]
	if !ok || q.Ops == 0 {
		t.Fatalf("%s: question %s was not answered: %+v", scheme, name, q)
	}
	t.Logf("%-18s %-16s %-22s %6d asked %6.2f requests %6.2f partitions %9.1f rows visited (%s) %6.1f returned, %d throttled, p99 %.1f ms",
		name, scheme, q.Label(), q.Ops, q.RequestsPerQuestion, q.PartitionsPerQuestion, q.RowsVisitedPerQuestion, q.RowsVisitedFrom, q.RowsReturnedPerQuestion, q.Throttled, q.Latency.P99)
	return q
}

// Each of the five ready scenarios states at its top what its questions
// cost under each scheme; these tests hold them to it, with the rows
// visited counted by the embedded service itself.
func TestReadyScenarioQuestions(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds the ready scenarios' populations")
	}
	t.Run("iot-telemetry", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rs := askOnly(t, "iot-telemetry.yaml", 20, 2*time.Second, 1) // Azure's targets
			for _, s := range []string{"device", "device-date"} {
				if q := answered(t, rs, s, "newest-by-device"); q.Plan != "range" || q.RequestsPerQuestion != 1 || q.RowsVisitedPerQuestion != 50 || q.RowsVisitedFrom != "service" {
					t.Errorf("%s: newest 50 of a device should be one request visiting 50 rows", s)
				}
				if q := answered(t, rs, s, "reading"); q.Plan != "point" || q.RequestsPerQuestion != 1 {
					t.Errorf("%s: a reading should be one point read", s)
				}
			}
			g := answered(t, rs, "device-guid", "newest-by-device")
			if g.Plan != "scan" || g.RowsVisitedPerQuestion < 10*answered(t, rs, "device", "newest-by-device").RowsVisitedPerQuestion || g.RequestsPerQuestion != 1 {
				t.Errorf("device-guid: newest 50 should scan the device's partition, over 10x the rows visited of device, in one page")
			}
			if q := answered(t, rs, "date", "newest-by-device"); q.Plan != "scan" || q.Throttled == 0 {
				t.Errorf("date: newest 50 should scan the day's partition and be throttled")
			}
		})
	})
	t.Run("ecommerce-orders", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rs := askOnly(t, "ecommerce-orders.yaml", 6, 2*time.Second, 100) // what each plan costs, none throttled
			if q := answered(t, rs, "customer", "orders-of-customer"); q.Plan != "range" || q.PartitionsPerQuestion != 1 || q.RequestsPerQuestion != 1 || q.RowsVisitedPerQuestion > 10 {
				t.Errorf("customer: a customer's newest rows should be one range of one partition's few rows")
			}
			if q := answered(t, rs, "hash-buckets", "orders-of-customer"); q.Plan != "scan" || q.PartitionsPerQuestion != 16 || q.RequestsPerQuestion < 16 ||
				q.RowsVisitedPerQuestion != 20000 || q.RowsVisitedFrom != "service" {
				t.Errorf("hash-buckets: a customer's orders should scan all 16 buckets, every order visited")
			}
			for _, s := range []string{"constant", "hash-buckets"} {
				// An order's rows share the RowKey prefix {order}_ in one
				// partition: one range, a few rows (an order has one to
				// five rows seeded).
				if q := answered(t, rs, s, "order"); q.Plan != "range" || q.RequestsPerQuestion != 1 || q.PartitionsPerQuestion != 1 || q.RowsVisitedPerQuestion > 10 {
					t.Errorf("%s: an order by its id should be one range of its few rows", s)
				}
			}
			for _, s := range []string{"customer", "customer-year"} {
				// Thousands of pages at 5 ms each: none finishes within the
				// 2 s run, and each makes a hundred requests and more first.
				if q := rs[s].Questions["order"]; q.Plan != "scan" || q.Scope != "table" || q.Ops != 0 || q.Unfinished == 0 || q.Sums.UnfinishedRequests < 100*q.Unfinished {
					t.Errorf("%s: an order by its id alone should be a table scan of a hundred pages and more, unfinished at the end of the run: %+v", s, q)
				}
			}
			if q := answered(t, rs, "constant", "orders-of-customer"); q.Plan != "scan" || q.Scope != "partition" || q.PartitionsPerQuestion != 1 {
				t.Errorf("constant: a customer's orders should be a scan of the Orders partition")
			}
		})
	})
	t.Run("multi-tenant", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rs := askOnly(t, "multi-tenant.yaml", 4, 2*time.Second, 100)
			b := answered(t, rs, "tenant-bucket", "tenant-newest")
			if b.Plan != "fan_out" || b.PartitionsPerQuestion != 8 || b.RowsVisitedPerQuestion > 160 {
				t.Errorf("tenant-bucket: a tenant's newest 20 should be 8 ranges of at most 20 rows")
			}
			for _, s := range []string{"tenant", "tenant-month"} {
				if q := answered(t, rs, s, "tenant-newest"); q.Plan != "scan" || q.RowsVisitedPerQuestion < 5*b.RowsVisitedPerQuestion {
					t.Errorf("%s: a tenant's newest 20 should scan the tenant's partition, over 5x the rows of tenant-bucket", s)
				}
			}
		})
	})
	t.Run("event-logs", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// 2,000 events: a whole partition is still over 10x the 160 rows
			// of date-sharded, and the SDK decodes fewer rows under -race.
			rs := askOnlyN(t, "event-logs.yaml", 2000, 2, 2*time.Second, 100)
			sh := answered(t, rs, "date-sharded", "newest-events")
			if sh.Plan != "fan_out" || sh.PartitionsPerQuestion != 8 || sh.RowsVisitedPerQuestion > 160 {
				t.Errorf("date-sharded: the newest 20 events should be 8 ranges of at most 20 rows")
			}
			for _, s := range []string{"date", "hour", "minute"} {
				if q := answered(t, rs, s, "newest-events"); q.Plan != "scan" || q.RowsVisitedPerQuestion < 10*sh.RowsVisitedPerQuestion {
					t.Errorf("%s: the newest 20 events should scan the current partition, over 10x the rows of date-sharded", s)
				}
			}
			rs = askOnlyN(t, "event-logs.yaml", 2000, 1, 2*time.Second, 100, "this-minute")
			if q := answered(t, rs, "minute", "this-minute"); q.Plan != "range" || q.PartitionsPerQuestion != 1 {
				t.Errorf("minute: this minute's events should be one partition")
			}
			if q := answered(t, rs, "date-sharded", "this-minute"); q.Plan != "fan_out" || q.PartitionsPerQuestion != 8 {
				t.Errorf("date-sharded: this minute's events should be 8 ranges")
			}
			for _, s := range []string{"date", "hour"} {
				if q := answered(t, rs, s, "this-minute"); q.Plan != "scan" || q.Scope != "partition" {
					t.Errorf("%s: this minute's events should be a filtered scan of the partition", s)
				}
			}
		})
	})
	t.Run("blog-posts", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rs := askOnly(t, "blog-posts.yaml", 20, 2*time.Second, 100)
			for _, s := range []string{"posts-slug", "posts-inverted"} {
				if q := answered(t, rs, s, "post"); q.Plan != "point" || q.RequestsPerQuestion != 1 {
					t.Errorf("%s: a post by its URL should be a point read", s)
				}
				if q := answered(t, rs, s, "category-newest"); q.Plan != "index" || q.RequestsPerQuestion != 11 || q.PartitionsPerQuestion < 2 {
					t.Errorf("%s: a category's newest 10 should read PostsByCategory, then 10 point reads", s)
				}
			}
			inv, slug := answered(t, rs, "posts-inverted", "latest-posts"), answered(t, rs, "posts-slug", "latest-posts")
			if inv.Plan != "range" || inv.RowsVisitedPerQuestion > 20 || slug.Plan != "scan" || slug.RowsVisitedPerQuestion < 10*inv.RowsVisitedPerQuestion {
				t.Errorf("latest 10 posts: a range under posts-inverted, a scan of the month (over 10x the rows) under posts-slug")
			}
		})
	})
}
