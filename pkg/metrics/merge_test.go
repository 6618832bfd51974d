package metrics

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// event is one record of a scripted stream: a request, an operation's end,
// or a drop, delivered at deliver (so that data arrives late).
type event struct {
	kind    int // 0 request, 1 done, 2 drop
	rec     int
	q       Request
	sched   time.Time
	ok      bool
	deliver time.Time
}

const streamRecorders = 4

// stream is a fixed-seed run of 40 s over 30 partitions (a few hot ones),
// the cross partition and table-level requests; one event in ten is
// delivered up to 3 s late.
func stream() []event {
	r := rand.New(rand.NewPCG(42, 43))
	var evs []event
	for i := range 30_000 {
		t := t0.Add(time.Duration(i) * 40 * time.Millisecond / 30)
		op := Op(r.IntN(int(NumOps)))
		part := "p" + strconv.Itoa(r.IntN(30))
		switch r.IntN(10) {
		case 0, 1, 2:
			part = "hot" + strconv.Itoa(r.IntN(3))
		case 3:
			part = CrossPartition
		case 4:
			if r.IntN(10) == 0 {
				part = ""
			}
		}
		deliver := t
		if r.IntN(10) == 0 {
			deliver = t.Add(time.Duration(r.IntN(3000)) * time.Millisecond)
		}
		e := event{kind: r.IntN(3), rec: r.IntN(streamRecorders), deliver: deliver,
			q: Request{Op: op, Partition: part, Outcome: mixOutcomes[r.IntN(len(mixOutcomes))], Entities: 1 + r.IntN(100),
				Retry: r.IntN(4) == 0, Page: r.IntN(5) == 0, At: t},
			sched: t.Add(-time.Duration(r.ExpFloat64()*20_000) * time.Microsecond), ok: r.IntN(5) > 0}
		if e.kind == 2 && r.IntN(3) > 0 { // drops are rarer
			e.kind = 0
		}
		evs = append(evs, e)
	}
	// Deliver in delivery order (stable: same-time events keep their order).
	slices.SortStableFunc(evs, func(a, b event) int { return a.deliver.Compare(b.deliver) })
	return evs
}

// replay feeds the events keep selects to a new registry, ticking once a
// second of delivery time, and returns its summary.
func replay(evs []event, opts Options, keep func(i int) bool) *Summary {
	reg := NewRegistry(opts)
	var recs [streamRecorders]*Recorder
	for i := range recs {
		recs[i] = reg.NewRecorder()
	}
	next := t0.Add(time.Second)
	for i, e := range evs {
		for !e.deliver.Before(next) {
			reg.Tick(next)
			next = next.Add(time.Second)
		}
		if !keep(i) {
			continue
		}
		rec := recs[e.rec]
		switch e.kind {
		case 0:
			rec.Request(e.q)
		case 1:
			rec.Done(e.q.Op, e.q.Partition, e.sched, e.q.At, e.ok)
		case 2:
			rec.Dropped(e.q.Op, e.q.At)
		}
	}
	return reg.Finish(t0.Add(40 * time.Second))
}

func toJSON(t *testing.T, s *Summary) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func threeShards(evs []event, opts Options) [3]*Summary {
	var shards [3]*Summary
	for k := range shards {
		shards[k] = replay(evs, opts, func(i int) bool { return (i*7+i/3)%3 == k })
	}
	return shards
}

// Recording a stream into one registry equals recording its 3-way split
// into three registries and merging: every counter, status, histogram,
// quantile, peak, interval, hottest partition and series, compared through
// the complete JSON encoding.
func TestMergeOfShardsEqualsOneRegistry(t *testing.T) {
	evs := stream()
	opts := Options{Start: t0, SeriesPartitions: -1}
	one := replay(evs, opts, func(int) bool { return true })
	shards := threeShards(evs, opts)
	merged := shards[0]
	for _, sh := range shards[1:] {
		if err := merged.Merge(sh); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := toJSON(t, merged), toJSON(t, one); got != want {
		t.Errorf("merged shards differ from one registry\nmerged: %.2000s\none:    %.2000s", got, want)
	}
	// The stream is what the test needs: 30 + 3 hot partitions and the cross partition, all peaks exact.
	if one.Totals.Requests == 0 || len(one.Partitions) != 34 || one.Partitions[0].Key[:3] != "hot" || len(one.Series) != 34 {
		t.Errorf("%d requests, %d partitions, busiest %q", one.Totals.Requests, len(one.Partitions), one.Partitions[0].Key)
	}
	for _, p := range one.Partitions {
		if !p.PeakExact {
			t.Errorf("%q: peak not exact", p.Key)
		}
	}
}

// Without one-second series for a partition in both shards, its merged peak
// is the larger shard peak: a lower bound, flagged. Everything else stays
// exact, and partitions that kept their series stay exact.
func TestMergePeakLowerBound(t *testing.T) {
	evs := stream()
	opts := Options{Start: t0, SeriesPartitions: 5}
	one := replay(evs, Options{Start: t0, SeriesPartitions: -1}, func(int) bool { return true })
	shards := threeShards(evs, opts)
	merged := shards[0]
	for _, sh := range shards[1:] {
		if err := merged.Merge(sh); err != nil {
			t.Fatal(err)
		}
	}
	if statsCounts(merged.Totals) != statsCounts(one.Totals) || len(merged.Partitions) != len(one.Partitions) {
		t.Fatalf("totals %v, want %v", statsCounts(merged.Totals), statsCounts(one.Totals))
	}
	for i, iv := range merged.Intervals {
		want := one.Intervals[i]
		if ivCounts(iv) != ivCounts(want) || iv.P99 != want.P99 || iv.Max != want.Max || iv.HottestEntities > want.HottestEntities {
			t.Errorf("second %d: %v p99 %v hottest %d, want %v p99 %v hottest at most %d", i, ivCounts(iv), iv.P99,
				iv.HottestEntities, ivCounts(want), want.P99, want.HottestEntities)
		}
	}
	bounds := 0
	for i, p := range merged.Partitions {
		want := one.Partitions[i]
		if p.Key != want.Key || partCounts(p) != partCounts(want) || p.Latency.Encode() != want.Latency.Encode() {
			t.Errorf("partition %d: %q %v, want %q %v", i, p.Key, partCounts(p), want.Key, partCounts(want))
		}
		switch {
		case p.PeakExact && p.Peak != want.Peak:
			t.Errorf("%q: exact peak %d, want %d", p.Key, p.Peak, want.Peak)
		case !p.PeakExact && (p.Peak > want.Peak || p.Peak*3 < want.Peak):
			t.Errorf("%q: lower bound %d against the true peak %d", p.Key, p.Peak, want.Peak)
		case !p.PeakExact:
			bounds++
		}
	}
	if bounds == 0 || !merged.Partitions[0].PeakExact || len(merged.Series) == 0 || len(merged.Series) > 5 {
		t.Errorf("%d lower bounds, busiest exact %v, %d series: want some bounds, the busiest exact, 1 to 5 series",
			bounds, merged.Partitions[0].PeakExact, len(merged.Series))
	}
	// The series kept are complete: those of one registry seeing everything.
	full := map[string][]int64{}
	for _, se := range one.Series {
		full[se.Partition] = se.Entities
	}
	for _, se := range merged.Series {
		if !slices.Equal(se.Entities, full[se.Partition]) {
			t.Errorf("series of %q is incomplete", se.Partition)
		}
	}
}

// A summary survives JSON, and merging decoded summaries is merging the
// originals.
func TestMergeAfterJSONRoundTrip(t *testing.T) {
	evs := stream()
	opts := Options{Start: t0}
	direct := threeShards(evs, opts)
	decoded := threeShards(evs, opts)
	for k, s := range decoded {
		var back Summary
		if err := json.Unmarshal([]byte(toJSON(t, s)), &back); err != nil {
			t.Fatal(err)
		}
		if toJSON(t, &back) != toJSON(t, s) {
			t.Fatalf("shard %d does not survive JSON", k)
		}
		decoded[k] = &back
	}
	for _, set := range [][3]*Summary{direct, decoded} {
		for _, sh := range set[1:] {
			if err := set[0].Merge(sh); err != nil {
				t.Fatal(err)
			}
		}
	}
	if toJSON(t, decoded[0]) != toJSON(t, direct[0]) {
		t.Error("merging decoded summaries differs from merging the originals")
	}
}

// Shards of different lengths merge: series are brought to the coarser bin
// width and intervals extend to the longer shard.
func TestMergeDifferentLengths(t *testing.T) {
	short, long := NewRegistry(Options{Start: t0}), NewRegistry(Options{Start: t0})
	rs, rl := short.NewRecorder(), long.NewRecorder()
	for s := range 300 {
		insert(rl, "P", 1, sec(s, 0))
		if s < 100 {
			insert(rs, "P", 2, sec(s, 0))
		}
	}
	a, b := short.Finish(sec(100, 0)), long.Finish(sec(300, 0))
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	if a.BinWidth != 2*time.Second || len(a.Intervals) != 300 || a.Duration() != 300*time.Second ||
		len(a.Series) != 1 || len(a.Series[0].Entities) != 150 || a.Series[0].Entities[0] != 6 || a.Series[0].Entities[149] != 2 {
		t.Errorf("width %v, %d intervals, series %v", a.BinWidth, len(a.Intervals), a.Series)
	}
	if p := a.Partitions[0]; p.Entities != 500 || p.Peak != 2 || p.PeakExact {
		t.Errorf("P: %d entities, peak %d exact %v; want 500, lower bound 2 (true 3): no one-second series in the long shard",
			p.Entities, p.Peak, p.PeakExact)
	}
}

// A second's hottest partition after a merge: from one-second series when
// both shards have them, else the hotter shard's; ties go to the smaller key.
func TestMergeHottest(t *testing.T) {
	shard := func(key string, n int) *Summary {
		reg := NewRegistry(Options{Start: t0})
		insert(reg.NewRecorder(), key, n, sec(0, 500))
		return reg.Finish(sec(1, 0))
	}
	tests := []struct {
		a, b     string
		na, nb   int
		noSeries bool
		want     string
		wantN    int64
	}{
		{"y", "x", 10, 10, false, "x", 10}, // tie, from series
		{"x", "y", 10, 10, false, "x", 10}, // tie, either order
		{"y", "x", 10, 10, true, "x", 10},  // tie, without series
		{"x", "x", 4, 5, true, "x", 9},     // same partition: the sum
		{"x", "y", 4, 5, true, "y", 5},     // the hotter shard's
	}
	for i, tt := range tests {
		a, b := shard(tt.a, tt.na), shard(tt.b, tt.nb)
		if tt.noSeries {
			b.Series = nil
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		if iv := a.Intervals[0]; iv.Hottest != tt.want || iv.HottestEntities != tt.wantN {
			t.Errorf("row %d: hottest %q %d, want %q %d", i, iv.Hottest, iv.HottestEntities, tt.want, tt.wantN)
		}
	}
}

func TestMergeRejects(t *testing.T) {
	a := NewRegistry(Options{Start: t0}).Finish(sec(1, 0))
	tests := []struct {
		name string
		o    *Summary
	}{
		{"nil", nil},
		{"other target", NewRegistry(Options{Start: t0, PartitionTarget: 1000}).Finish(sec(1, 0))},
		{"bad bin width", &Summary{PartitionTarget: DefaultPartitionTarget, BinWidth: 3 * time.Second}},
	}
	for _, tt := range tests {
		if err := a.Merge(tt.o); !errors.Is(err, ErrIncompatible) {
			t.Errorf("%s: %v, want ErrIncompatible", tt.name, err)
		}
	}
}

// Decoding a summary from arbitrary JSON and merging it never panics: it
// is a decoding error, a merge error, or a summary.
func FuzzSummaryJSONMerge(f *testing.F) {
	reg := NewRegistry(Options{Start: t0})
	insert(reg.NewRecorder(), "P", 3, sec(0, 10))
	b, err := json.Marshal(reg.Finish(sec(2, 0)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add(`{"bin_width_ns":1000000000,"partition_target":2000,"series":[{"partition_key":"P","entities":[1,2]}],"intervals":[{"second":-3}]}`)
	f.Fuzz(func(t *testing.T, js string) {
		var s Summary
		if json.Unmarshal([]byte(js), &s) != nil {
			return
		}
		other := NewRegistry(Options{Start: t0, PartitionTarget: s.PartitionTarget})
		insert(other.NewRecorder(), "P", 5, sec(1, 0))
		o := other.Finish(sec(3, 0))
		if err := s.Merge(o); err != nil && !errors.Is(err, ErrIncompatible) {
			t.Fatalf("merge error %v does not wrap ErrIncompatible", err)
		}
		if err := o.Merge(&s); err != nil && !errors.Is(err, ErrIncompatible) {
			t.Fatalf("merge error %v does not wrap ErrIncompatible", err)
		}
	})
}
