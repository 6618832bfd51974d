package report

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
)

// One stream of requests recorded by one registry gives the same report as
// the stream split by partition over three registries (three shards) and
// merged: counters, status counts, percentiles, partitions, intervals.
func TestMergeOfShardsEqualsOneRun(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	whole := metrics.NewRegistry(metrics.Options{Start: t0})
	wrec := whole.NewRecorder()
	shards := make([]*metrics.Registry, 3)
	recs := make([]*metrics.Recorder, 3)
	for i := range shards {
		shards[i] = metrics.NewRegistry(metrics.Options{Start: t0})
		recs[i] = shards[i].NewRecorder()
	}
	r := rand.New(rand.NewPCG(1, 2))
	outcomes := []outcome.Outcome{outcome.New(201, ""), outcome.New(201, ""), outcome.New(200, ""), outcome.New(503, "ServerBusy"), outcome.New(409, "EntityAlreadyExists")}
	for i := 0; i < 30000; i++ {
		p := r.IntN(30)
		part := fmt.Sprintf("p%02d", p)
		op := metrics.Op(r.IntN(int(metrics.NumOps)))
		oc := outcomes[r.IntN(len(outcomes))]
		at := t0.Add(time.Duration(i) * 300 * time.Microsecond)
		lat := time.Duration(200+r.IntN(50000)) * time.Microsecond
		ents := 0
		if oc.Class == outcome.OK {
			ents = 1 + r.IntN(5)
		}
		for _, rec := range []*metrics.Recorder{wrec, recs[p%3]} {
			rec.Request(metrics.Request{Op: op, Partition: part, Outcome: oc, Entities: ents, Retry: i%7 == 0, At: at})
			rec.Done(op, part, at.Add(-lat), at, oc.Class == outcome.OK)
		}
	}
	end := t0.Add(9 * time.Second)
	build := func(reg *metrics.Registry, shard string) *Report {
		return Build(Meta{Scenario: "s", Scheme: "k", Run: RunInfo{Seed: 1, PartitionTarget: 2000, Shard: shard}}, reg.Finish(end))
	}
	want := build(whole, "")
	var parts []*Report
	for i, reg := range shards {
		parts = append(parts, build(reg, fmt.Sprintf("%d/3", i)))
		// Each shard seeds its share; their seed phases' statuses add up.
		parts[i].Seed.Status = map[string]int64{"202": int64(10 + i), "503 ServerBusy": int64(i)}
	}
	got, err := Merge(shardsOf(parts...), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{"202": 33, "503 ServerBusy": 3}; !reflect.DeepEqual(got.Seed.Status, want) {
		t.Errorf("seed status %v, want %v", got.Seed.Status, want)
	}
	if !reflect.DeepEqual(got.Totals, want.Totals) {
		t.Errorf("totals\n got %+v\nwant %+v", got.Totals, want.Totals)
	}
	for op, ws := range want.Operations {
		if !reflect.DeepEqual(got.Operations[op], ws) {
			t.Errorf("%s\n got %+v\nwant %+v", op, got.Operations[op], ws)
		}
	}
	if !reflect.DeepEqual(got.Partitions, want.Partitions) {
		t.Errorf("partitions differ:\n got %+v\nwant %+v", got.Partitions[:2], want.Partitions[:2])
	}
	if len(got.Intervals) != len(want.Intervals) {
		t.Fatalf("%d intervals, want %d", len(got.Intervals), len(want.Intervals))
	}
	for i := range want.Intervals {
		g, w := got.Intervals[i], want.Intervals[i]
		if g.Ops != w.Ops || g.Requests != w.Requests || g.Entities != w.Entities || g.Throttled != w.Throttled || g.Errors != w.Errors {
			t.Errorf("second %d: %+v, want %+v", i, g, w)
		}
	}
	if want.Histograms["total"] == "" || got.Histograms["total"] == "" {
		t.Error("reports must carry their encoded histograms")
	}
	if got.MergedShards != 3 || len(got.MissingShards) != 0 {
		t.Errorf("merged %d shards, missing %v", got.MergedShards, got.MissingShards)
	}
}

// shardsOf names reports shard-I.json.
func shardsOf(reps ...*Report) []Shard {
	out := make([]Shard, len(reps))
	for i, r := range reps {
		out[i] = Shard{Name: fmt.Sprintf("r%d.json", i), Report: r}
	}
	return out
}

// shard is a report of shard i of n of one run: one insert into partition
// "pI" in its one second.
func shard(i, n int) *Report {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	reg := metrics.NewRegistry(metrics.Options{Start: t0})
	rec := reg.NewRecorder()
	part := fmt.Sprintf("p%d", i)
	rec.Request(metrics.Request{Op: metrics.Insert, Partition: part, Outcome: outcome.New(201, ""), Entities: 1, At: t0.Add(time.Millisecond)})
	rec.Done(metrics.Insert, part, t0, t0.Add(time.Millisecond), true)
	return Build(Meta{Scenario: "s", Scheme: "k", Table: "tsrun", Target: Target{Kind: "embedded", Endpoint: "http://127.0.0.1:1/a"},
		Run: RunInfo{Mode: "open", Rate: 100, Seed: 1, PartitionTarget: 2000, Shard: fmt.Sprintf("%d/%d", i, n), ScenarioSHA256: "abc"}},
		reg.Finish(t0.Add(time.Second)))
}

// Merge refuses everything that is not the distinct shards of one run,
// naming the files, and an incomplete set unless partial.
func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	other := func(change func(r *Report)) *Report {
		r := shard(1, 3)
		change(r)
		return r
	}
	for _, tc := range []struct {
		name string
		reps []*Report
		want string
	}{
		{"the same shard twice", []*Report{shard(0, 3), shard(0, 3), shard(2, 3)}, "r0.json and r1.json are both shard 0/3"},
		{"an unsharded run", []*Report{shard(0, 2), other(func(r *Report) { r.Run.Shard = "" })}, "r1.json is not a shard"},
		{"another shard count", []*Report{shard(0, 3), shard(1, 2)}, "not the same number of shards"},
		{"another table", []*Report{shard(0, 3), other(func(r *Report) { r.Table = "tsother" })}, "table"},
		{"another target", []*Report{shard(0, 3), other(func(r *Report) { r.Target.Endpoint = "http://127.0.0.1:2/x" })}, "target"},
		{"another scheme", []*Report{shard(0, 3), other(func(r *Report) { r.Scheme = "hash" })}, "scheme"},
		{"another scenario file", []*Report{shard(0, 3), other(func(r *Report) { r.Run.ScenarioSHA256 = "def" })}, "scenario files differ"},
		{"another run id", []*Report{shard(0, 3), other(func(r *Report) { r.Run.ID = "job-2" })}, "run id"},
		{"another seed", []*Report{shard(0, 3), other(func(r *Report) { r.Run.Seed = 9 })}, "run settings differ"},
		{"another rate", []*Report{shard(0, 3), other(func(r *Report) { r.Run.Rate = 1 })}, "run settings differ"},
		{"another time", []*Report{shard(0, 3), other(func(r *Report) { r.StartedAt = r.StartedAt.Add(time.Hour) })}, "do not overlap"},
		{"an incomplete set", []*Report{shard(0, 3), shard(2, 3)}, "missing 1/3"},
	} {
		_, err := Merge(shardsOf(tc.reps...), false)
		if err == nil || !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	m, err := Merge(shardsOf(shard(0, 3), shard(2, 3)), true)
	if err != nil {
		t.Fatal(err)
	}
	if m.MergedShards != 2 || !reflect.DeepEqual(m.MissingShards, []string{"1/3"}) || len(m.Partitions) != 2 {
		t.Errorf("partial merge: %d shards, missing %v, %d partitions", m.MergedShards, m.MissingShards, len(m.Partitions))
	}
	var b bytes.Buffer
	if err := WriteText(&b, m); err != nil || !strings.Contains(b.String(), "missing shard 1/3") {
		t.Errorf("the text of a partial merge does not say what is missing:\n%s", b.String())
	}
}

// Merge sums what the shards of one run planned and did beside their
// figures: rates, workers, stage rates, operation caps and seed counts add;
// a reused table counts once; the earliest start and the longest duration
// win; failures are joined, the first abort kept, outages and heatmap
// series added; thresholds are evaluated again on the whole.
func TestMergeSumsRunAndSeed(t *testing.T) {
	a, b := shard(0, 2), shard(1, 2)
	for i, r := range []*Report{a, b} {
		r.Run.Workers, r.Run.Rate, r.Run.WarmupRate, r.Run.MaxOps = 4, 100, 10, 1000
		r.Run.Stages = []Stage{{DurationS: 5, Rate: 200}, {DurationS: 5, Rate: 50}}
		r.Seed = SeedInfo{Entities: int64(100 + i), Rows: int64(40 + i), Partitions: 3, DurationS: float64(2 + i), Throttled: int64(i)}
		r.Outages = []Outage{{StartS: float64(i), EndS: float64(i) + 0.5, Cause: fmt.Sprintf("cause %d", i)}}
		r.Heatmap = &Heatmap{BinSeconds: 1, Partitions: []string{"p", fmt.Sprintf("q%d", i)}, Entities: [][]int64{{1, int64(i)}, {5}}}
		r.Thresholds = []Threshold{{Expr: "requests >= 2"}}
	}
	b.StartedAt, b.DurationS = a.StartedAt.Add(-time.Millisecond), a.DurationS+0.25
	b.Seed.Reused = false
	a.Failure, b.Failure, b.Aborted = "first failed", "second failed", "p99 < 1"
	b.Interrupted = true
	m, err := Merge(shardsOf(a, b), false)
	if err != nil {
		t.Fatal(err)
	}
	wantRun := RunInfo{Mode: "open", Workers: 8, Rate: 200, WarmupRate: 20, MaxOps: 2000, Seed: 1, PartitionTarget: 2000, ScenarioSHA256: "abc",
		Stages: []Stage{{DurationS: 5, Rate: 400}, {DurationS: 5, Rate: 100}}}
	if !reflect.DeepEqual(m.Run, wantRun) {
		t.Errorf("run\n got %+v\nwant %+v", m.Run, wantRun)
	}
	if a.Run.Stages[0].Rate != 200 {
		t.Errorf("merging changed a shard's stages: %+v", a.Run.Stages)
	}
	wantSeed := SeedInfo{Entities: 201, Rows: 81, Partitions: 6, DurationS: 3, Throttled: 1}
	if !reflect.DeepEqual(m.Seed, wantSeed) {
		t.Errorf("seed\n got %+v\nwant %+v", m.Seed, wantSeed)
	}
	if !m.StartedAt.Equal(b.StartedAt) || m.DurationS != b.DurationS {
		t.Errorf("window %v + %gs, want %v + %gs", m.StartedAt, m.DurationS, b.StartedAt, b.DurationS)
	}
	if m.Failure != "first failed; second failed" || m.Aborted != "p99 < 1" || !m.Interrupted {
		t.Errorf("failure %q, aborted %q, interrupted %v", m.Failure, m.Aborted, m.Interrupted)
	}
	if len(m.Outages) != 2 || m.Outages[1].Cause != "cause 1" {
		t.Errorf("outages %+v", m.Outages)
	}
	wantHeat := &Heatmap{BinSeconds: 1, Partitions: []string{"p", "q0", "q1"}, Entities: [][]int64{{2, 1}, {5}, {5}}}
	if !reflect.DeepEqual(m.Heatmap, wantHeat) {
		t.Errorf("heatmap %+v, want %+v", m.Heatmap, wantHeat)
	}
	if len(m.Thresholds) != 1 || m.Thresholds[0].Expr != "requests >= 2" || !m.Thresholds[0].OK || m.Thresholds[0].Observed != 2 {
		t.Errorf("thresholds %+v", m.Thresholds)
	}
	// Shards that reused one seeded table counted the same rows.
	a.Seed.Reused, b.Seed.Reused = true, true
	if m, err = Merge(shardsOf(a, b), false); err != nil {
		t.Fatal(err)
	}
	if m.Seed.Rows != 41 || !m.Seed.Reused {
		t.Errorf("reused table: %d rows (reused %v), want 41", m.Seed.Rows, m.Seed.Reused)
	}
}

// A partition two shards both served (a scan's "*", or a partition whose
// shards overlap) has its counters and status counts added and its
// percentiles from the two histograms merged: the same figures one run
// recording both shards' requests reports.
func TestMergeSharedPartition(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	whole := metrics.NewRegistry(metrics.Options{Start: t0})
	regs := []*metrics.Registry{metrics.NewRegistry(metrics.Options{Start: t0}), metrics.NewRegistry(metrics.Options{Start: t0})}
	wrec := whole.NewRecorder()
	for i, reg := range regs {
		rec := reg.NewRecorder()
		for k := 0; k < 50; k++ {
			lat := time.Duration(1+k+100*i) * time.Millisecond
			at := t0.Add(time.Duration(10*k+i) * time.Millisecond)
			oc := outcome.New(200, "")
			if k%10 == i {
				oc = outcome.New(503, "ServerBusy")
			}
			for _, r := range []*metrics.Recorder{rec, wrec} {
				r.Request(metrics.Request{Op: metrics.TableScan, Partition: "*", Outcome: oc, Entities: 3, At: at})
				r.Done(metrics.TableScan, "*", at.Add(-lat), at, oc.Class == outcome.OK)
			}
		}
	}
	end := t0.Add(time.Second)
	meta := func(shard string) Meta {
		return Meta{Scenario: "s", Scheme: "k", Run: RunInfo{Seed: 1, PartitionTarget: 2000, Shard: shard}}
	}
	want := Build(meta(""), whole.Finish(end))
	m, err := Merge(shardsOf(Build(meta("0/2"), regs[0].Finish(end)), Build(meta("1/2"), regs[1].Finish(end))), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Partitions) != 1 || len(want.Partitions) != 1 {
		t.Fatalf("%d partitions merged, %d in one run, want 1", len(m.Partitions), len(want.Partitions))
	}
	g, w := m.Partitions[0], want.Partitions[0]
	if g.Counts != w.Counts || !reflect.DeepEqual(g.Status, w.Status) || g.Latency != w.Latency || g.Hist != w.Hist || g.EntitiesPerSec != w.EntitiesPerSec {
		t.Errorf("shared partition\n got %+v\nwant %+v", g, w)
	}
}
