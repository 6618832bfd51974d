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
