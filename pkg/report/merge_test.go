package report

import (
	"fmt"
	"math/rand/v2"
	"reflect"
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
	}
	got, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
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
	bad := *parts[1]
	bad.Run.Seed = 9
	if _, err := Merge([]*Report{parts[0], &bad}); err == nil {
		t.Error("reports of different runs were merged")
	}
}
