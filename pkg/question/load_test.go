package question

import (
	"context"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// AskLoad says, per partition, the rows a question's requests visited and
// returned, as a run's report attributes them: a range on the device's own
// partition, every hash bucket of a fan-out (each returning its own page,
// before the merge cuts the answer), and an index table's partition under
// its label.
func TestAskLoadPerPartition(t *testing.T) {
	pop := testPop(t, time.Minute)
	ctx := context.Background()
	var picked keygen.Entity
	pop.Entity(1500, &picked)
	device, _ := pop.FieldString(&picked, "device")
	const n = 2000
	newest := question(t, pop, Spec{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 20})

	ask := func(s *keygen.Scheme, q *Question) (map[string]PartLoad, Cost) {
		t.Helper()
		m := NewModel(pop, s, n)
		load, cost, err := m.AskLoad(ctx, Derive(q, s), &picked, BoundsOf(pop, n))
		if err != nil {
			t.Fatal(err)
		}
		visited := 0
		for _, l := range load {
			visited += l.Visited
		}
		if visited != cost.Visited {
			t.Errorf("%s: rows visited per partition sum to %d, the question visited %d", s.Name, visited, cost.Visited)
		}
		return load, cost
	}

	load, cost := ask(builtin(t, pop, "device"), newest)
	if l := load[device]; len(load) != 1 || l.Visited != 20 || l.Returned != 20 || cost.Returned != 20 {
		t.Errorf("device: load %v, cost %+v; want 20 rows visited and returned in %s alone", load, cost, device)
	}

	reading := question(t, pop, Spec{Name: "reading", Known: []string{"device", "time"}, Want: One})
	if load, cost = ask(builtin(t, pop, "device"), reading); cost.Gets != 1 || cost.Requests != 1 || load[device].Returned != 1 {
		t.Errorf("a point read: load %v, cost %+v; want one Get of one row", load, cost)
	}
	if _, cost = ask(builtin(t, pop, "device"), newest); cost.Gets != 0 {
		t.Errorf("a range counts %d Gets", cost.Gets)
	}

	bucketed, err := keygen.CompileScheme(pop, keygen.SchemeSpec{Name: "b", PartitionKey: "{device}-{hash(guid) % 4}", RowKey: "{inverted_ticks}"})
	if err != nil {
		t.Fatal(err)
	}
	load, cost = ask(bucketed, newest)
	returned := 0
	for pk, l := range load {
		returned += l.Returned
		if l.Returned > 20 || pk[:len(device)] != device {
			t.Errorf("bucket %s: %+v", pk, l)
		}
	}
	if len(load) != 4 || returned <= cost.Returned || cost.Returned != 20 {
		t.Errorf("4 buckets: load %v, cost %+v; want 4 partitions each returning its page, merged to 20", load, cost)
	}

	blog, err := keygen.CompileScheme(pop, keygen.SchemeSpec{Name: "posts", PartitionKey: "{time:yyyy-MM}", RowKey: "{slug}",
		Indexes: []keygen.IndexSpec{{Name: "PostsByCategory", PartitionKey: "{category}", RowKey: "{inverted_ticks}_{slug}"}}})
	if err != nil {
		t.Fatal(err)
	}
	cat := question(t, pop, Spec{Name: "cat", Known: []string{"category"}, Want: Newest, Limit: 5})
	load, _ = ask(blog, cat)
	category, _ := pop.FieldString(&picked, "category")
	if l := load["PostsByCategory/"+category]; l.Returned != 5 || l.Visited != 5 {
		t.Errorf("blog-posts: the index partition PostsByCategory/%s returned %+v (load %v); want 5", category, l, load)
	}
}

// A question asked when the table held fewer entities than the model
// (bounds before the model's last entity) neither visits nor finds the
// rows written after: a scan of a device's partition visits its rows of
// entities [0, 1000) only, and a point read of a later entity misses.
func TestAskLoadSeesOnlyRowsWrittenByItsBounds(t *testing.T) {
	pop := testPop(t, time.Minute)
	ctx := context.Background()
	s, err := keygen.CompileScheme(pop, keygen.SchemeSpec{Name: "g", PartitionKey: "{device}", RowKey: "{guid}"})
	if err != nil {
		t.Fatal(err)
	}
	const n, then = 2000, 1000
	m := NewModel(pop, s, n)
	var picked, e keygen.Entity
	pop.Entity(10, &picked)
	device, _ := pop.FieldString(&picked, "device")
	want := 0
	for i := int64(0); i < then; i++ {
		pop.Entity(i, &e)
		if d, _ := pop.FieldString(&e, "device"); d == device {
			want++
		}
	}
	newest := question(t, pop, Spec{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 20})
	load, _, err := m.AskLoad(ctx, Derive(newest, s), &picked, BoundsOf(pop, then))
	if err != nil {
		t.Fatal(err)
	}
	if l := load[device]; l.Visited != want || want == 0 {
		t.Errorf("a scan of %s by entity %d visited %d rows; want the %d written by then", device, then, l.Visited, want)
	}
	one := question(t, pop, Spec{Name: "one", Known: []string{"device", "time"}, Want: One})
	ticks := builtin(t, pop, "device")
	pm := NewModel(pop, ticks, n)
	pop.Entity(1500, &picked)
	if p := Derive(one, ticks); p.Kind != Point {
		t.Fatalf("plan %s; want a point read", p.Kind)
	}
	if _, cost, err := pm.AskLoad(ctx, Derive(one, ticks), &picked, BoundsOf(pop, then)); err != nil || cost.Returned != 0 {
		t.Errorf("entity 1500 read by entity %d: %+v, %v; want not found", then, cost, err)
	}
	if _, cost, err := pm.AskLoad(ctx, Derive(one, ticks), &picked, BoundsOf(pop, n)); err != nil || cost.Returned != 1 {
		t.Errorf("entity 1500 read by entity %d: %+v, %v; want found", n, cost, err)
	}
}
