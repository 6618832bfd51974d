package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
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

// reached is a started embedded service as a client reaches it (ways):
// over its socket, or in process (rt, the transport under the SDK).
type reached struct {
	*emulator.Server
	conn string
	rt   http.RoundTripper
}

// ways are how a client reaches the embedded service: the tests of what
// the client and the service count run both ways.
var ways = []string{"socket", "in-process"}

// startReached runs the embedded service for a test, reached the way way
// says.
func startReached(t *testing.T, way string, mc model.Config, fc faults.Config) *reached {
	t.Helper()
	if way == "socket" {
		in := startEmbedded(t, mc, fc)
		return &reached{Server: in.Server, conn: in.ConnectionString()}
	}
	p, err := emulator.StartInProcess(emulator.Config{Model: mc, Faults: fc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return &reached{Server: p.Server, conn: p.ConnectionString(), rt: p}
}

// client opens a client of r that switches its measurement with the run's
// phases, as the command line does.
func (r *reached) client(t *testing.T, workers int) TableService {
	return TableService{Service: openVia(t, r.conn, workers, r.rt), Measured: r.Server}
}

func open(t *testing.T, conn string, workers int) *table.Service {
	return openVia(t, conn, workers, nil)
}

// openVia opens a client of conn over rt (nil: the network).
func openVia(t *testing.T, conn string, workers int, rt http.RoundTripper) *table.Service {
	t.Helper()
	tg, err := table.ParseTarget(conn)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := table.Open(tg, table.Options{Workers: workers, Timeout: 10 * time.Second, RoundTripper: rt})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

// embedded opens a client of the embedded service that switches its
// measurement (model and faults) with the run's phases, as the command line
// does.
func embedded(t *testing.T, in *emulator.Instance, workers int) TableService {
	return TableService{Service: open(t, in.ConnectionString(), workers), Measured: in}
}

// spec builds the run of a scenario source with overrides: the one path
// the command line takes too.
func spec(t testing.TB, src string, o plan.Overrides) *plan.Spec {
	t.Helper()
	sc, errs := scenario.Parse("it.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sp, err := plan.Build(sc, []byte(src), o)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// config builds a run of the scenario's first scheme.
func config(t *testing.T, src string, svc Service, o plan.Overrides) Config {
	t.Helper()
	return Config{Spec: spec(t, src, o), Service: svc, Grace: 10 * time.Second}
}

// readScenario reads a ready scenario.
func readScenario(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../scenarios", file))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func durationOf(d time.Duration) *time.Duration { return &d }
func rateOf(r float64) *float64                 { return &r }

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
	for _, tc := range []struct{ way, loop, retry string }{
		{"socket", "rate: 400", "none"},
		{"in-process", "rate: 400", "none"},
		{"socket", "rate: 400", "exponential(2ms,1ms,20ms,3)"},
		{"in-process", "rate: 400", "exponential(2ms,1ms,20ms,3)"},
		{"socket", "", "fixed(1ms,2)"},
		{"in-process", "", "fixed(1ms,2)"},
	} {
		t.Run(tc.way+"/"+tc.loop+"/"+tc.retry, func(t *testing.T) {
			in := startReached(t, tc.way, model.Off(), fc)
			svc := in.client(t, 16)
			c := config(t, fmt.Sprintf(accountingScenario, tc.loop, tc.retry), svc, plan.Overrides{})
			c.Events.Phase = func(p Phase) {
				if p == PhaseRun {
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
			checkContents(t, svc.Service, res)
		})
	}
}

// checkContents counts the rows of a kept table: the seeded rows, plus
// what successful inserts and batches wrote, minus what deletes removed.
func checkContents(t *testing.T, svc *table.Service, res *Result) {
	t.Helper()
	n, err := CountRows(context.Background(), TableStore{svc.Table(res.Table)}, clock.Wall{})
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

// checkRaces holds each error of a run without faults to what can cause
// it: operations on one existing entity race, as they do on Azure. An
// update replaces under the ETag it has just read, and another worker's
// write or delete in between is answered 412 or 404; a point read of an
// entity being deleted is answered 404. Nothing else may fail. Each race
// needs its cause: a 404 a delete of the entity (at most as many as the
// deletes), a 412 another worker's write of it (at most as many as the
// updates and upserts that succeeded, and never half the updates: that
// would be broken ETags). With one worker nothing races, and nothing may
// fail at all.
func checkRaces(t *testing.T, s *metrics.Summary, workers int) {
	t.Helper()
	u, r := s.Ops[metrics.Update], s.Ops[metrics.PointRead]
	deletes := s.Ops[metrics.Delete].Status["204"]
	writes := u.Status["204"] + s.Ops[metrics.UpsertMerge].Status["204"]
	read404, upd404, upd412 := r.Status["404 ResourceNotFound"], u.Status["404 ResourceNotFound"], u.Status["412 UpdateConditionNotSatisfied"]
	t.Logf("%d worker(s): %d point reads and %d updates found their entity gone, %d updates met another ETag; %d deletes, %d updates and upserts, %d update requests",
		workers, read404, upd404, upd412, deletes, writes, u.Requests)
	if workers == 1 && s.Totals.Errors != 0 {
		t.Errorf("one worker, no faults: %d errors: %v", s.Totals.Errors, s.Totals.Status)
	}
	if races := read404 + upd404 + upd412; s.Totals.Errors != races {
		t.Errorf("errors without faults: %d, of which %d races on one entity: %v", s.Totals.Errors, races, s.Totals.Status)
	}
	if read404 > deletes || upd404 > deletes {
		t.Errorf("%d point reads and %d updates found their entity gone, with %d deletes to cause it", read404, upd404, deletes)
	}
	if upd412 > writes || u.Requests == 0 || 2*upd412 > u.Requests {
		t.Errorf("%d of %d updates met another ETag, with %d updates and upserts to cause it", upd412, u.Requests, writes)
	}
}

// Without faults the table's contents match the counts exactly, against
// the embedded service (over its socket and in process) and Azurite, and
// every error is a race of two workers on one entity (checkRaces), none
// with a single worker.
func TestTableContentsMatchCounts(t *testing.T) {
	conns := map[string]func(t *testing.T) (string, http.RoundTripper){
		"embedded": func(t *testing.T) (string, http.RoundTripper) {
			return startEmbedded(t, model.Off(), faults.Config{}).ConnectionString(), nil
		},
		"embedded in process": func(t *testing.T) (string, http.RoundTripper) {
			r := startReached(t, "in-process", model.Off(), faults.Config{})
			return r.conn, r.rt
		},
		"azurite": func(t *testing.T) (string, http.RoundTripper) { return testenv.Azurite(t), nil },
	}
	for name, conn := range conns {
		for _, workers := range []int{16, 1} {
			t.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(t *testing.T) {
				cs, rt := conn(t)
				svc := openVia(t, cs, 16, rt)
				loop, o := "rate: 300", plan.Overrides{Workers: workers}
				if workers == 1 {
					// Closed: one operation after another, a fixed number of
					// them (the one worker's mix is drawn from the seed, so
					// it holds the same updates however slow the machine).
					ops := int64(600)
					loop, o.MaxOps, o.Duration = "", &ops, time.Minute
				}
				c := config(t, fmt.Sprintf(accountingScenario, loop, "none"), TableService{Service: svc}, o)
				c.Keep = true
				res, err := Run(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				checkRaces(t, res.Summary, workers)
				if res.SeedCounted != res.Seed.Rows || res.Seed.Rows != 3000 {
					t.Errorf("seed: wrote %d rows, counted %d", res.Seed.Rows, res.SeedCounted)
				}
				checkContents(t, svc, res)
			})
		}
	}
}

// Ctrl-C: the run stops starting work, finishes in-flight operations, and
// returns a partial summary; the test table is deleted.
func TestInterruptStopsAndCleansUp(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := embedded(t, in, 8)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 200", "none"), svc, plan.Overrides{Duration: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	c.Events.Phase = func(p Phase) {
		if p == PhaseRun {
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
	svc := embedded(t, in, 4)
	if r := svc.CreateTable(context.Background(), "userdata"); r.Err != nil {
		t.Fatal(r.Err)
	}
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc, plan.Overrides{Duration: time.Second})
	c.Table = "userdata"
	if _, err := Run(context.Background(), c); !errors.Is(err, ErrTableExists) {
		t.Fatalf("existing table: %v, want ErrTableExists", err)
	}
	n, _ := CountRows(context.Background(), TableStore{svc.Table("userdata")}, clock.Wall{})
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
	for _, way := range ways {
		for _, spec := range []string{"", "discard=3%,seed=5"} {
			testVerify(t, way, spec)
		}
	}
}

// testVerify runs a verified run against a service reached the way way
// says, with the fault injection spec.
func testVerify(t *testing.T, way, spec string) {
	fc, _ := faults.Parse(spec)
	in := startReached(t, way, model.Off(), fc) // faults apply in the run phase only
	svc := in.client(t, 16)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 300", "none"), svc, plan.Overrides{})
	c.Verify = true
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
		t.Fatalf("%s %q: nothing verified: %+v", way, spec, v)
	}
	if spec == "" && !v.OK() {
		t.Errorf("a faithful service failed verification: %+v", v)
	}
	if spec != "" && (v.OK() || v.Missing+v.Mismatched == 0 || discarded == 0) {
		t.Errorf("discarded %d writes, verification found %+v", discarded, v)
	}
}

// TestAccountingSoak is TestAccountingMatchesServer at scale: set
// TABLESTRESS_SOAK_OPS (bench/accounting.sh runs it with 1,000,000).
func TestAccountingSoak(t *testing.T) {
	n, _ := strconv.ParseInt(os.Getenv("TABLESTRESS_SOAK_OPS"), 10, 64)
	if n <= 0 {
		testenv.OptIn(t, "set TABLESTRESS_SOAK_OPS (bench/accounting.sh) to run the soak")
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
			svc := embedded(t, in, 32)
			maxOps := n / 4
			c := config(t, fmt.Sprintf(accountingScenario, tc.loop, tc.retry), svc, plan.Overrides{Duration: 24 * time.Hour, MaxOps: &maxOps, Workers: 32})
			c.Events.Phase = func(p Phase) {
				if p == PhaseRun {
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
// partitions, the shared table holds what they wrote, and their counts per
// partition and status add up to what the service saw in their run phase,
// in both directions (table scans span partitions: the shards' "*" counts
// add up to the service's). The service's counters are reset once all
// three have seeded, and before any starts its run phase.
func TestShardsCoverTheRunOnce(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := embedded(t, in, 16)
	type out struct {
		res *Result
		err error
	}
	results := make(chan out, 3)
	var seeded sync.WaitGroup
	seeded.Add(3)
	running := make(chan struct{})
	go func() {
		seeded.Wait()
		in.ResetStats()
		close(running)
	}()
	for i := 0; i < 3; i++ {
		c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc, plan.Overrides{Shard: i, Shards: 3, Warmup: durationOf(0)})
		c.Table = "sharded"
		c.Events.Phase = func(p Phase) {
			if p == PhaseRun { // called before the run phase's first request
				seeded.Done()
				<-running
			}
		}
		go func() {
			r, err := Run(context.Background(), c)
			results <- out{r, err}
		}()
	}
	owner := map[string]int{}
	var seededEntities, wrote int64
	client := map[string]map[string]int64{}
	for i := 0; i < 3; i++ {
		o := <-results
		if o.err != nil {
			t.Fatal(o.err)
		}
		s := o.res.Summary
		seededEntities += o.res.Seed.Entities
		wrote += s.Ops[metrics.Insert].Entities + s.Ops[metrics.Batch].Entities - s.Ops[metrics.Delete].Entities
		for _, p := range s.Partitions {
			if p.Key != metrics.CrossPartition {
				owner[p.Key]++
			}
			if client[p.Key] == nil {
				client[p.Key] = map[string]int64{}
			}
			for status, n := range p.Status {
				client[p.Key][status] += n
			}
		}
	}
	if seededEntities != 3000 {
		t.Errorf("the shards seeded %d entities together, want 3000", seededEntities)
	}
	for k, n := range owner {
		if n != 1 {
			t.Errorf("partition %q was driven by %d shards", k, n)
		}
	}
	server := in.Stats().Tables["sharded"].Partitions // before counting the rows: that is a table scan too
	if n, _ := CountRows(context.Background(), TableStore{svc.Table("sharded")}, clock.Wall{}); n != 3000+wrote {
		t.Errorf("the shared table holds %d rows; the shards seeded 3000 and wrote %d more", n, wrote)
	}
	for key, sp := range server {
		if key == "" {
			continue // table-level requests (the tool does not count them as operations)
		}
		for status, sn := range sp.Requests {
			if client[key][status] != sn {
				t.Errorf("partition %q status %q: shards counted %d, server %d", key, status, client[key][status], sn)
			}
		}
	}
	for key, statuses := range client {
		for status, n := range statuses {
			if sn := server[key]; sn == nil || sn.Requests[status] != n {
				t.Errorf("partition %q status %q: shards counted %d, the server saw fewer", key, status, n)
			}
		}
	}
	if len(owner) < 30 {
		t.Errorf("the shards drove %d partitions, want most of the 40", len(owner))
	}
}
