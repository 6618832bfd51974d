package question

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// failing is a Source (not a Parallel one) over a model whose query
// number failAt (from 1) fails, as a request does after its retries.
type failing struct {
	Source
	n, failAt int
}

var errRefused = errors.New("refused")

func (f *failing) Query(ctx context.Context, q Query) ([]Row, error) {
	f.n++
	if f.n == f.failAt {
		return nil, errRefused
	}
	return f.Source.Query(ctx, q)
}

// parallel is a Source over a model that answers a fan-out's group and an
// index's point reads at once, recording what it was given.
type parallel struct {
	*counting
	groups [][]string
	keys   [][]Key
}

func (p *parallel) QueryAll(ctx context.Context, qs []Query) ([][]Row, error) {
	var pks []string
	out := make([][]Row, len(qs))
	for i, q := range qs {
		pks = append(pks, q.PK)
		rows, err := p.counting.Query(ctx, q)
		if err != nil {
			return out, err
		}
		out[i] = rows
	}
	p.groups = append(p.groups, pks)
	return out, nil
}

func (p *parallel) GetAll(ctx context.Context, keys []Key) ([]Row, []bool, error) {
	p.keys = append(p.keys, keys)
	rows, found := make([]Row, len(keys)), make([]bool, len(keys))
	for i, k := range keys {
		var err error
		if rows[i], found[i], err = p.counting.Get(ctx, k.PK, k.RK); err != nil {
			return rows, found, err
		}
	}
	return rows, found, nil
}

// A question whose request fails fails, wherever the request is in its
// walk: a fan-out's second bucket, or a day bucket's partition.
func TestExecuteFailsWhenARequestFails(t *testing.T) {
	pop := testPop(t, time.Minute)
	var picked keygen.Entity
	pop.Entity(1500, &picked)
	newest := question(t, pop, Spec{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 20})
	for _, spec := range []keygen.SchemeSpec{
		{Name: "buckets", PartitionKey: "{device}-{hash(guid) % 4}", RowKey: "{inverted_ticks}"},
		{Name: "days", PartitionKey: "{device}_{time:yyyy-MM-dd}", RowKey: "{inverted_ticks}"},
	} {
		s, err := keygen.CompileScheme(pop, spec)
		if err != nil {
			t.Fatal(err)
		}
		m := NewModel(pop, s, 2000)
		src := &failing{Source: &counting{m: m, parts: map[string]bool{}, upTo: keygen.Ticks(BoundsOf(pop, 2000).Last)}, failAt: 1}
		rows, err := Derive(newest, s).Execute(context.Background(), src, &picked, BoundsOf(pop, 2000))
		if !errors.Is(err, errRefused) {
			t.Errorf("%s: %d rows and error %v; want the refusal", spec.Name, len(rows), err)
		}
	}
}

// A Parallel source is given each group of a fan-out at once (the four
// hash buckets of a device) and an index's point reads at once, and the
// answer is the one a source asked one request at a time gives.
func TestExecuteHandsAParallelSourceEachGroup(t *testing.T) {
	pop := testPop(t, time.Minute)
	ctx := context.Background()
	var picked keygen.Entity
	pop.Entity(1500, &picked)
	b := BoundsOf(pop, 2000)
	newest := question(t, pop, Spec{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 20})
	s, err := keygen.CompileScheme(pop, keygen.SchemeSpec{Name: "buckets", PartitionKey: "{device}-{hash(guid) % 4}", RowKey: "{inverted_ticks}"})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(pop, s, 2000)
	one := func() *counting { return &counting{m: m, parts: map[string]bool{}, upTo: keygen.Ticks(b.Last)} }
	want, err := Derive(newest, s).Execute(ctx, one(), &picked, b)
	if err != nil {
		t.Fatal(err)
	}
	par := &parallel{counting: one()}
	got, err := Derive(newest, s).Execute(ctx, par, &picked, b)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("parallel answer %v, %v; want %v", got, err, want)
	}
	if len(par.groups) != 1 || len(par.groups[0]) != 4 {
		t.Errorf("groups given at once: %v; want the 4 buckets in one call", par.groups)
	}

	blog, err := keygen.CompileScheme(pop, keygen.SchemeSpec{Name: "posts", PartitionKey: "{time:yyyy-MM}", RowKey: "{slug}",
		Indexes: []keygen.IndexSpec{{Name: "PostsByCategory", PartitionKey: "{category}", RowKey: "{inverted_ticks}_{slug}"}}})
	if err != nil {
		t.Fatal(err)
	}
	cat := question(t, pop, Spec{Name: "cat", Known: []string{"category"}, Want: Newest, Limit: 5})
	bm := NewModel(pop, blog, 2000)
	par = &parallel{counting: &counting{m: bm, parts: map[string]bool{}, upTo: keygen.Ticks(b.Last)}}
	got, err = Derive(cat, blog).Execute(ctx, par, &picked, b)
	if err != nil || len(got) != 5 || len(par.keys) != 1 || len(par.keys[0]) != 5 {
		t.Errorf("index: %d rows, %v, point reads given at once %v; want the 5 in one call", len(got), err, par.keys)
	}
}

// The model counts the rounds a question waits for: a fan-out's buckets
// go out at once (4 requests, 1 round), an index's point reads too (the
// index page, then the 5 reads: 6 requests, 2 rounds), a range one page
// after another.
func TestModelCountsRounds(t *testing.T) {
	pop := testPop(t, time.Minute)
	ctx := context.Background()
	var picked keygen.Entity
	pop.Entity(1500, &picked)
	b := BoundsOf(pop, 2000)
	ask := func(spec keygen.SchemeSpec, q *Question) Cost {
		t.Helper()
		s, err := keygen.CompileScheme(pop, spec)
		if err != nil {
			t.Fatal(err)
		}
		_, cost, err := NewModel(pop, s, 2000).Ask(ctx, Derive(q, s), &picked, b)
		if err != nil {
			t.Fatal(err)
		}
		return cost
	}
	newest := question(t, pop, Spec{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 20})
	if c := ask(keygen.SchemeSpec{Name: "b", PartitionKey: "{device}-{hash(guid) % 4}", RowKey: "{inverted_ticks}"}, newest); c.Requests != 4 || c.Rounds != 1 {
		t.Errorf("fan-out: %+v; want 4 requests in 1 round", c)
	}
	cat := question(t, pop, Spec{Name: "cat", Known: []string{"category"}, Want: Newest, Limit: 5})
	blog := keygen.SchemeSpec{Name: "posts", PartitionKey: "{time:yyyy-MM}", RowKey: "{slug}",
		Indexes: []keygen.IndexSpec{{Name: "PostsByCategory", PartitionKey: "{category}", RowKey: "{inverted_ticks}_{slug}"}}}
	if c := ask(blog, cat); c.Requests != 6 || c.Rounds != 2 {
		t.Errorf("index: %+v; want 6 requests in 2 rounds", c)
	}
	all := question(t, pop, Spec{Name: "all", Known: []string{"device"}, Want: Newest, Limit: 1000})
	if c := ask(keygen.SchemeSpec{Name: "d", PartitionKey: "{device}", RowKey: "{guid}"}, all); c.Requests < 1 || c.Rounds != c.Requests {
		t.Errorf("one partition: %+v; want its pages one after another", c)
	}
}
