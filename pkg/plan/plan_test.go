package plan

import (
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
)

func testScenario(t testing.TB, builtin string, extra string) (*scenario.Scenario, *keygen.Population, *keygen.Scheme) {
	t.Helper()
	src := "population:\n  entities: 2000\n  interval: 1s\nschemes:\n  - builtin: " + builtin + "\nworkload:\n" + extra
	s, errs := scenario.Parse("t.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	pop, schemes, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return s, pop, schemes[0]
}

func TestMixWeights(t *testing.T) {
	s, pop, sch := testScenario(t, "device", "  mix:\n    - {op: point_read, weight: 70}\n    - {op: insert, weight: 20}\n    - {op: delete, weight: 10}\n")
	plan, err := NewPlan(s, pop, sch, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	st := keygen.NewStream(3, 3)
	const n = 100_000
	for i := 0; i < n; i++ {
		counts[plan.Mix.Pick(&st).Kind.String()]++
	}
	within(t, "point_read", counts["point_read"], n, 0.7, 5)
	within(t, "insert", counts["insert"], n, 0.2, 5)
	within(t, "delete", counts["delete"], n, 0.1, 5)
}

func TestPlannerStepsAreConsistent(t *testing.T) {
	s, pop, sch := testScenario(t, "bib-age", "  mix:\n    - {op: point_read}\n    - {op: insert}\n    - {op: delete}\n    - {op: table_scan}\n")
	plan, err := NewPlan(s, pop, sch, 2000, 7)
	if err != nil {
		t.Fatal(err)
	}
	pl := plan.NewPlanner(0)
	rows := map[int]int{}
	deleted := map[int64]bool{}
	for n := 0; n < 5000; n++ {
		st := pl.Next()
		switch st.Op.Kind.String() {
		case "point_read":
			if !plan.Space.Exists(st.Entity) {
				t.Fatalf("point read of missing entity %d", st.Entity)
			}
			rows[st.Row]++
		case "insert":
			if st.Entity < 2000 || plan.Space.Exists(st.Entity) {
				t.Fatalf("insert of entity %d which is not new", st.Entity)
			}
			plan.Written(st.Entity)
		case "delete":
			if st.Missing || deleted[st.Entity] || plan.Space.Exists(st.Entity) {
				t.Fatalf("delete claimed %d (missing %v, already deleted %v)", st.Entity, st.Missing, deleted[st.Entity])
			}
			deleted[st.Entity] = true
		case "table_scan":
			if st.Entity != -1 {
				t.Fatalf("table scan addresses entity %d", st.Entity)
			}
		}
	}
	if rows[0] == 0 || rows[1] == 0 || len(rows) != 2 {
		t.Errorf("point reads over BIB:/AGE: rows: %v", rows)
	}
}

func TestPlannerDeterministicPerWorker(t *testing.T) {
	s, pop, sch := testScenario(t, "device", "  distribution: zipf(1.1)\n  mix:\n    - {op: point_read}\n    - {op: range_query}\n")
	run := func() []int64 {
		plan, _ := NewPlan(s, pop, sch, 2000, 99)
		pl := plan.NewPlanner(3)
		var out []int64
		for n := 0; n < 200; n++ {
			out = append(out, pl.Next().Entity)
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d: %d then %d with the same seed", i, a[i], b[i])
		}
	}
}

func TestBatcherGroupsByPartition(t *testing.T) {
	s, pop, sch := testScenario(t, "hash-buckets", "  mix:\n    - {op: batch, size: 20}\n")
	plan, _ := NewPlan(s, pop, sch, 2000, 1)
	pl := plan.NewPlanner(0)
	var e keygen.Entity
	var k keygen.Keys
	for n := 0; n < 50; n++ {
		st := pl.Next()
		if len(st.Batch) != 20 {
			t.Fatalf("batch of %d with 16 hash buckets, want 20", len(st.Batch))
		}
		var pk string
		for j, i := range st.Batch {
			pop.Entity(i, &e)
			sch.Keys(&e, &k)
			if j == 0 {
				pk = string(k.PK)
			} else if string(k.PK) != pk {
				t.Fatalf("batch mixes partitions %q and %q", pk, k.PK)
			}
		}
	}
	// With a GUID per row, a batch can only ever hold one entity.
	s, pop, sch = testScenario(t, "guid", "  mix:\n    - {op: batch, size: 20}\n")
	plan, _ = NewPlan(s, pop, sch, 0, 1)
	pl = plan.NewPlanner(0)
	for n := 0; n < 10; n++ {
		if b := pl.Next().Batch; len(b) != 1 {
			t.Fatalf("guid batch of %d", len(b))
		}
	}
	if pending := pl.batch.count; pending > pendingLimit(20) {
		t.Errorf("%d entities pending, bound is %d", pending, pendingLimit(20))
	}
}

func TestTargetPartitions(t *testing.T) {
	s, pop, sch := testScenario(t, "device", "  target_partitions: [dev-0007]\n  mix:\n    - {op: point_read}\n    - {op: insert}\n")
	plan, err := NewPlan(s, pop, sch, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Targets.Len() < 5 || plan.Targets.Len() > 45 { // 2000 entities over 100 devices
		t.Fatalf("%d seeded entities in dev-0007", plan.Targets.Len())
	}
	pl := plan.NewPlanner(0)
	var e keygen.Entity
	var k keygen.Keys
	for n := 0; n < 500; n++ {
		st := pl.Next()
		if st.Missing {
			t.Fatal("missing entity")
		}
		pop.Entity(st.Entity, &e)
		sch.Keys(&e, &k)
		if string(k.PK) != "dev-0007" {
			t.Fatalf("%s addressed partition %q", st.Op.Kind, k.PK)
		}
		if st.Op.Kind == metrics.Insert {
			plan.Written(st.Entity)
		}
	}
	_, _, _ = s, time.Second, pop
	s2, pop2, sch2 := testScenario(t, "device", "  target_partitions: [nowhere]\n  mix:\n    - {op: point_read}\n")
	if _, err := NewPlan(s2, pop2, sch2, 2000, 1); err == nil {
		t.Error("a target partition with no entity and no inserts must be refused")
	}
}
