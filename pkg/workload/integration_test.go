package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// startEmbedded runs the embedded service for a test.
func startEmbedded(t *testing.T, mc model.Config, fc faults.Config) *emulator.Instance {
	t.Helper()
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: mc, Faults: fc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(context.Background()) })
	return in
}

// stallTolerant returns the model burst the outcome tests use: one second,
// or more if the scenario asks. A shared test machine can stall the client
// for a few hundred milliseconds (the race detector, GC, other packages'
// tests); the open-loop pacer then sends the missed schedule at once, as it
// must, and the model's default 100 ms buckets would refuse that bunch. The
// claims under test are about sustained rates (6,000 entities/s against a
// 2,000/s partition target, 375/s per hash bucket), which a one-second
// bucket leaves unchanged.
func stallTolerant(burst time.Duration) time.Duration { return max(burst, time.Second) }

func open(t *testing.T, conn string, workers int) *table.Service {
	t.Helper()
	tg, err := table.ParseTarget(conn)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := table.Open(tg, table.Options{Workers: workers, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

// config builds a run of the scenario's first scheme.
func config(t *testing.T, src string, svc *table.Service) Config {
	t.Helper()
	sc, errs := scenario.Parse("it.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	pop, schemes, err := sc.Compile()
	if err != nil {
		t.Fatal(err)
	}
	w := sc.Workload
	var stages []Stage
	for _, st := range w.Stages {
		stages = append(stages, Stage{Duration: st.Duration.D(), Target: float64(st.Rate)})
	}
	return Config{Scenario: sc, Pop: pop, Scheme: schemes[0], Service: TableService{Service: svc},
		Seed: sc.Seed, Entities: int64(sc.Population.Entities), Duration: w.Duration.D(), Warmup: w.Warmup.D(),
		MaxOps: int64(w.MaxOperations), Workers: w.Workers, Rate: float64(w.Rate), Stages: stages,
		Retry: NewRetrier(w.Retry), Grace: 10 * time.Second, PartitionTarget: PartitionTarget}
}

const accountingScenario = `
seed: 3
population:
  entities: 3000
  interval: 10ms
  fields:
    device: {kind: id, count: 40, prefix: dev-, width: 3}
schemes:
  - name: dev
    partition_key: "{device}"
    row_key: "{inverted_ticks}"
workload:
  duration: 3s
  workers: 16
  %s
  retry: %s
  mix:
    - {op: point_read, weight: 30}
    - {op: insert, weight: 20}
    - {op: batch, weight: 5, size: 10}
    - {op: delete, weight: 5}
    - {op: upsert_merge, weight: 5}
    - {op: update, weight: 5}
    - {op: range_query, weight: 10, rows: 20}
    - {op: table_scan, weight: 1, max_pages: 2}
`

// The client's counts per partition and status equal what the server saw,
// under injected throttling and dropped connections, with and without
// retries, open and closed loop.
func TestAccountingMatchesServer(t *testing.T) {
	fc, err := faults.Parse("503=4%,500=2%,504=1%,429=1%,drop=1%,seed=11")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ loop, retry string }{
		{"rate: 400", "none"},
		{"rate: 400", "exponential(2ms,1ms,20ms,3)"},
		{"", "fixed(1ms,2)"},
	} {
		t.Run(tc.loop+"/"+tc.retry, func(t *testing.T) {
			in := startEmbedded(t, model.Off(), fc)
			svc := open(t, in.ConnectionString(), 16)
			c := config(t, fmt.Sprintf(accountingScenario, tc.loop, tc.retry), svc)
			c.Events.Phase = func(p string) {
				if p == "run" {
					in.ResetStats() // compare the run phase only
				}
			}
			c.Keep = true
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			s := res.Summary
			server := in.Stats().Tables[res.Table]
			if server == nil {
				t.Fatal("the server saw no request to the table")
			}
			client := map[string]metrics.PartitionStats{}
			for _, p := range s.Partitions {
				client[p.Key] = p
			}
			var serverRequests int64
			for key, sp := range server.Partitions {
				if key == "" {
					continue // table-level requests (the tool does not count them as operations)
				}
				cp := client[key]
				for status, n := range sp.Requests {
					serverRequests += n
					if cp.Status[status] != n {
						t.Errorf("partition %q status %q: client %d, server %d", key, status, cp.Status[status], n)
					}
				}
				for status, n := range cp.Status {
					if sp.Requests[status] != n {
						t.Errorf("partition %q status %q: client %d, server %d", key, status, n, sp.Requests[status])
					}
				}
				if cp.Entities != sp.Entities {
					t.Errorf("partition %q entities: client %d, server %d", key, cp.Entities, sp.Entities)
				}
			}
			var sum int64
			for _, n := range s.Totals.Status {
				sum += n
			}
			if sum != s.Totals.Requests || s.Totals.Requests != serverRequests {
				t.Errorf("status counts sum to %d; requests %d; server saw %d", sum, s.Totals.Requests, serverRequests)
			}
			if s.Totals.Throttled == 0 || s.Totals.Status["transport"] == 0 {
				t.Errorf("the faults did not show: %v", s.Totals.Status)
			}
			if tc.retry != "none" && s.Totals.Retries == 0 {
				t.Error("no retries were recorded")
			}
			if tc.retry == "none" && s.Totals.Retries != 0 {
				t.Errorf("%d retries with retry none", s.Totals.Retries)
			}
			checkContents(t, svc, res)
		})
	}
}

// checkContents counts the rows of a kept table: the seeded rows, plus
// what successful inserts and batches wrote, minus what deletes removed.
func checkContents(t *testing.T, svc *table.Service, res *Result) {
	t.Helper()
	n, err := CountRows(context.Background(), TableStore{svc.Table(res.Table)})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	want := res.Seed.Rows + s.Ops[metrics.Insert].Entities + s.Ops[metrics.Batch].Entities - s.Ops[metrics.Delete].Entities
	// A dropped connection may hide a write the service applied: each such
	// write (transport outcome on a write) is one row of uncertainty.
	slack := int64(0)
	for _, op := range []metrics.Op{metrics.Insert, metrics.Batch, metrics.Delete, metrics.UpsertMerge} {
		slack += s.Ops[op].Status["transport"] * 10
	}
	if n != want && (slack == 0 || math.Abs(float64(n-want)) > float64(slack)) {
		t.Errorf("table holds %d rows; seeded %d + inserted %d + batched %d - deleted %d = %d",
			n, res.Seed.Rows, s.Ops[metrics.Insert].Entities, s.Ops[metrics.Batch].Entities, s.Ops[metrics.Delete].Entities, want)
	}
	svc.DeleteTable(context.Background(), res.Table)
}

// Without faults the table's contents match the counts exactly, against
// the embedded service and Azurite.
func TestTableContentsMatchCounts(t *testing.T) {
	conns := map[string]string{"embedded": startEmbedded(t, model.Off(), faults.Config{}).ConnectionString()}
	if az := os.Getenv("TABLESTRESS_AZURITE"); az != "" {
		conns["azurite"] = az
	} else {
		t.Log("TABLESTRESS_AZURITE is not set: embedded only (make test runs Azurite)")
	}
	for name, conn := range conns {
		t.Run(name, func(t *testing.T) {
			svc := open(t, conn, 16)
			c := config(t, fmt.Sprintf(accountingScenario, "rate: 300", "none"), svc)
			c.Keep = true
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.Totals.Errors != 0 {
				t.Errorf("errors without faults: %v", res.Summary.Totals.Status)
			}
			if res.SeedCounted != res.Seed.Rows || res.Seed.Rows != 3000 {
				t.Errorf("seed: wrote %d rows, counted %d", res.Seed.Rows, res.SeedCounted)
			}
			checkContents(t, svc, res)
		})
	}
}

// The seeds' central claim on the embedded service: a stream three times a
// partition's target into one PartitionKey is throttled to the target, the
// same stream over 16 hash buckets is not throttled at all. The scenario
// runs at 6,000 entities/s against 2,000; here both are halved (3,000
// against 1,000, the same 50-entity transactions) so that a shared CI
// machine running the race detector keeps up with the offered stream.
func TestHotPartitionThrottledToTarget(t *testing.T) {
	const target, scale = 1000.0, 0.5
	// constant runs on Azure's model as it is: its peak is measured against
	// the target. hash-buckets runs with stall-tolerant buckets: its claim
	// is that 3,000/16 entities/s per partition is never refused.
	azure := model.Default()
	azure.PartitionTarget = target
	tolerant := azure
	tolerant.Burst = stallTolerant(tolerant.Burst)
	instances := map[string]*emulator.Instance{
		"constant":     startEmbedded(t, azure, faults.Config{}),
		"hash-buckets": startEmbedded(t, tolerant, faults.Config{}),
	}
	data, err := os.ReadFile("../../scenarios/hot-partition.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, errs := scenario.Parse("hot-partition.yaml", data)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	pop, schemes, _ := sc.Compile()
	for i, sch := range schemes {
		in := instances[sc.Schemes[i].Name]
		if in == nil {
			t.Fatalf("hot-partition.yaml has a scheme %q this test does not know", sc.Schemes[i].Name)
		}
		c := config(t, string(data), open(t, in.ConnectionString(), 64))
		c.Scheme, c.Pop = sch, pop
		c.Rate *= scale
		c.PartitionTarget = target
		c.Duration = 8 * time.Second
		c.Events.Phase = func(p string) { in.PauseModel(p != "run") }
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Summary
		switch sc.Schemes[i].Name {
		case "constant":
			// Client seconds bin completions, so on a loaded machine a
			// second can catch responses the server admitted in the one
			// before, and the warmup's and grace period's in-flight
			// transactions land in the edge seconds. The median of the
			// interior seconds is what the server admitted per second; the
			// peak only has to be nearer the target than the stream offered.
			// Below the target there is more room: Azure's bucket holds
			// 0.1 s of tokens, so a server starved of CPU for longer loses
			// the difference, as a stalled partition server would. The
			// model's exact rate is TestPartitionTarget's, on a fake clock.
			if len(s.Partitions) != 1 || len(s.Series) != 1 {
				t.Fatalf("constant: %d partitions, %d series; want one", len(s.Partitions), len(s.Series))
			}
			p := s.Partitions[0]
			med, secs := interiorMedian(s.Series[0].Entities, int(s.Duration()/time.Second))
			t.Logf("constant: peak %d, median %.0f entities/s over seconds %v, %d throttled", p.Peak, med, secs, p.Throttled)
			if p.Throttled == 0 || float64(p.Peak) > 1.5*target {
				t.Errorf("constant: peak %d entities/s, %d throttled; want throttled near %.0f, not the %.0f offered", p.Peak, p.Throttled, target, 3*target)
			}
			if med > 1.1*target || med < 0.75*target {
				t.Errorf("constant: median %.0f entities/s over seconds %v, want %.0f (-25%%, +10%%)", med, secs, target)
			}
		case "hash-buckets":
			if s.Totals.Throttled != 0 || len(s.Partitions) != 16 {
				t.Errorf("hash-buckets: %d throttled over %d partitions, want none over 16", s.Totals.Throttled, len(s.Partitions))
			}
			if rate := float64(s.Totals.Entities) / s.Duration().Seconds(); rate < 2*target {
				t.Errorf("hash-buckets: %.0f entities/s served, want far above the %.0f of one partition", rate, target)
			}
		}
	}
}

// interiorMedian returns the median of bins[1:n-1], the measured seconds
// but the first and the last, and those seconds.
func interiorMedian(bins []int64, n int) (float64, []int64) {
	if n > len(bins) {
		n = len(bins)
	}
	if n < 3 {
		return 0, nil
	}
	secs := append([]int64(nil), bins[1:n-1]...)
	sorted := append([]int64(nil), secs...)
	slices.Sort(sorted)
	m := len(sorted)
	return float64(sorted[(m-1)/2]+sorted[m/2]) / 2, secs
}

// Append-only and prepend-only PartitionKeys share the end range partition's
// limit although no partition is hot; scattered keys are not throttled. The
// range target is scaled down to 500 entities/s and the rate to 1,000/s so
// the outcome does not depend on how fast this machine is.
func TestAppendOnlyThrottledAtRangePartition(t *testing.T) {
	mc := model.Default()
	mc.RangeTarget = 500
	in := startEmbedded(t, mc, faults.Config{})
	svc := open(t, in.ConnectionString(), 64)
	data, err := os.ReadFile("../../scenarios/append-only.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, errs := scenario.Parse("append-only.yaml", data)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	pop, schemes, _ := sc.Compile()
	for i, sch := range schemes {
		c := config(t, string(data), svc)
		c.Scheme, c.Pop = sch, pop
		c.Duration, c.Warmup, c.Rate = 6*time.Second, time.Second, 1000
		c.Events.Phase = func(p string) { in.PauseModel(p != "run") }
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Summary
		// The median of the interior seconds, for the reasons given in
		// TestHotPartitionThrottledToTarget.
		perSecond := make([]int64, len(s.Intervals))
		for k, iv := range s.Intervals {
			perSecond[k] = iv.Entities
		}
		served, secs := interiorMedian(perSecond, int(s.Duration()/time.Second))
		peak := s.Partitions[0].Peak
		switch sc.Schemes[i].Name {
		case "append-only", "prepend-only":
			if served > 575 || served < 375 || s.Totals.Throttled == 0 || peak > 10 {
				t.Errorf("%s: median %.0f entities/s served over seconds %v, %d throttled, busiest partition peak %d; want about 500/s (the range target), throttled, no hot partition",
					sc.Schemes[i].Name, served, secs, s.Totals.Throttled, peak)
			}
		case "guid":
			if s.Totals.Throttled != 0 || peak > 10 {
				t.Errorf("guid: %d throttled, busiest partition peak %d; want none throttled", s.Totals.Throttled, peak)
			}
		}
	}
}

// Ctrl-C: the run stops starting work, finishes in-flight operations, and
// returns a partial summary; the test table is deleted.
func TestInterruptStopsAndCleansUp(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := open(t, in.ConnectionString(), 8)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), svc)
	c.Duration = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	c.Events.Phase = func(p string) {
		if p == "run" {
			time.AfterFunc(1500*time.Millisecond, cancel)
		}
	}
	start := time.Now()
	res, err := Run(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Summary == nil || res.Summary.Totals.Ops == 0 {
		t.Fatalf("interrupted %v, summary %v", res.Interrupted, res.Summary != nil)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %v after an interrupt at 1.5s", d)
	}
	if ok, _ := svc.TableExists(context.Background(), res.Table); ok || res.Cleanup != nil {
		t.Errorf("table %s left behind (cleanup error %v)", res.Table, res.Cleanup)
	}
}

// A table the run did not create is never written without Reuse, and never
// deleted.
func TestExistingTableRefusedUnlessReused(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := open(t, in.ConnectionString(), 4)
	if r := svc.CreateTable(context.Background(), "userdata"); r.Err != nil {
		t.Fatal(r.Err)
	}
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc)
	c.Table, c.Duration = "userdata", time.Second
	if _, err := Run(context.Background(), c); !errors.Is(err, ErrTableExists) {
		t.Fatalf("existing table: %v, want ErrTableExists", err)
	}
	n, _ := CountRows(context.Background(), TableStore{svc.Table("userdata")})
	if n != 0 {
		t.Errorf("the refused run wrote %d rows", n)
	}
	c.Reuse = true
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if ok, _ := svc.TableExists(context.Background(), "userdata"); !ok {
		t.Error("a reused table was deleted")
	}
}

// --verify reads back every acknowledged write: it finds nothing wrong on a
// faithful service and catches one that acknowledges writes and drops them.
func TestVerifyCatchesDiscardedWrites(t *testing.T) {
	for _, spec := range []string{"", "discard=3%,seed=5"} {
		fc, _ := faults.Parse(spec)
		in := startEmbedded(t, model.Off(), faults.Config{})
		svc := open(t, in.ConnectionString(), 16)
		c := config(t, fmt.Sprintf(accountingScenario, "rate: 300", "none"), svc)
		c.Verify = true
		c.Events.Phase = func(p string) {
			if p == "run" {
				in.SetFaults(fc) // writes are discarded during the run only
			} else {
				in.SetFaults(faults.Config{})
			}
		}
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		v := res.Verify
		discarded := int64(0)
		for _, tb := range in.Stats().Tables {
			for _, p := range tb.Partitions {
				discarded += p.Discarded
			}
		}
		if v == nil || v.Checked == 0 {
			t.Fatalf("%q: nothing verified: %+v", spec, v)
		}
		if spec == "" && !v.OK() {
			t.Errorf("a faithful service failed verification: %+v", v)
		}
		if spec != "" && (v.OK() || v.Missing+v.Mismatched == 0 || discarded == 0) {
			t.Errorf("discarded %d writes, verification found %+v", discarded, v)
		}
	}
}

// TestAccountingSoak is TestAccountingMatchesServer at scale: set
// TABLESTRESS_SOAK_OPS (bench/accounting.sh runs it with 1,000,000).
func TestAccountingSoak(t *testing.T) {
	n, _ := strconv.ParseInt(os.Getenv("TABLESTRESS_SOAK_OPS"), 10, 64)
	if n <= 0 {
		t.Skip("set TABLESTRESS_SOAK_OPS (bench/accounting.sh) to run the soak")
	}
	fc, _ := faults.Parse("503=3%,500=1%,504=1%,429=1%,drop=0.5%,latency=1ms@5%,seed=19")
	for _, tc := range []struct{ loop, retry string }{
		{"rate: 2000", "none"},
		{"rate: 2000", "exponential(2ms,1ms,20ms,3)"},
		{"", "none"},
		{"", "fixed(1ms,2)"},
	} {
		t.Run(tc.loop+"/"+tc.retry, func(t *testing.T) {
			in := startEmbedded(t, model.Off(), fc)
			svc := open(t, in.ConnectionString(), 32)
			c := config(t, fmt.Sprintf(accountingScenario, tc.loop, tc.retry), svc)
			c.Duration, c.MaxOps, c.Workers = 24*time.Hour, n/4, 32
			c.Events.Phase = func(p string) {
				if p == "run" {
					in.ResetStats()
				}
			}
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			server := in.Stats().Tables[res.Table]
			client := map[string]map[string]int64{}
			var requests int64
			for _, p := range res.Summary.Partitions {
				client[p.Key] = p.Status
				for _, n := range p.Status {
					requests += n
				}
			}
			mismatches := 0
			for key, sp := range server.Partitions {
				if key == "" {
					continue // table-level requests
				}
				for status, n := range sp.Requests {
					if client[key][status] != n {
						mismatches++
					}
				}
				for status, n := range client[key] {
					if sp.Requests[status] != n {
						mismatches++
					}
				}
			}
			t.Logf("%d operations, %d requests, %d partition/status counts differ", res.Summary.Totals.Ops, requests, mismatches)
			if mismatches > 0 {
				t.Errorf("%d partition/status counts differ between client and server", mismatches)
			}
		})
	}
}

// Three shards of one run, driven at once against one embedded service:
// together they seed the population exactly once, cover disjoint
// partitions, and their counts per partition and status add up to what the
// service saw.
func TestShardsCoverTheRunOnce(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := open(t, in.ConnectionString(), 16)
	type out struct {
		res *Result
		err error
	}
	results := make(chan out, 3)
	in.ResetStats()
	for i := 0; i < 3; i++ {
		c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc)
		c.Table, c.Shard, c.Shards = "sharded", i, 3
		go func() {
			r, err := Run(context.Background(), c)
			results <- out{r, err}
		}()
	}
	owner := map[string]int{}
	var seeded int64
	var requests int64
	client := map[string]map[string]int64{}
	for i := 0; i < 3; i++ {
		o := <-results
		if o.err != nil {
			t.Fatal(o.err)
		}
		seeded += o.res.Seed.Entities
		for _, p := range o.res.Summary.Partitions {
			if p.Key == metrics.CrossPartition {
				continue
			}
			owner[p.Key]++
			client[p.Key] = p.Status
			for _, n := range p.Status {
				requests += n
			}
		}
	}
	if seeded != 3000 {
		t.Errorf("the shards seeded %d entities together, want 3000", seeded)
	}
	for k, n := range owner {
		if n != 1 {
			t.Errorf("partition %q was driven by %d shards", k, n)
		}
	}
	n, _ := CountRows(context.Background(), TableStore{svc.Table("sharded")})
	if n < 3000 {
		t.Errorf("the shared table holds %d rows, want the 3000 seeded and more", n)
	}
	for key, sp := range in.Stats().Tables["sharded"].Partitions {
		if key == "" || key == metrics.CrossPartition {
			continue
		}
		for status, sn := range sp.Requests {
			if client[key][status] > sn {
				t.Errorf("partition %q status %q: shards counted %d, server %d", key, status, client[key][status], sn)
			}
		}
	}
}
