package plan

import (
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// OpCost is the one rule of what an operation on an existing entity asks
// of its partition and of the account; each row is an operation on a
// partition of 2,500 rows under a scheme with a secondary row and an
// index table.
func TestOpCost(t *testing.T) {
	pop, err := keygen.NewPopulation(keygen.PopulationSpec{Seed: 1, Start: time.Unix(0, 0), Interval: time.Second,
		Fields: []keygen.FieldSpec{{Name: "device", Kind: "id", Count: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	scheme, err := keygen.CompileScheme(pop, keygen.SchemeSpec{Name: "s", PartitionKey: "{device}", RowKey: "{i}",
		Rows: []string{"B_{i}"}, Indexes: []keygen.IndexSpec{{Name: "ByTime", PartitionKey: "{device}", RowKey: "{ticks}"}}})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	tests := []struct {
		kind metrics.Op
		spec scenario.Operation
		want Cost
		ok   bool
	}{
		{metrics.PointRead, scenario.Operation{}, Cost{Entities: 1, Requests: 1, Reads: 1}, true},
		{metrics.UpsertMerge, scenario.Operation{}, Cost{Entities: 1, Requests: 1, Writes: 1}, true},
		{metrics.Update, scenario.Operation{}, Cost{Entities: 1, Requests: 1, Writes: 1}, true},
		// An update that checks the ETag reads the entity first.
		{metrics.Update, scenario.Operation{ETag: &yes}, Cost{Entities: 2, Requests: 2, Reads: 1, Writes: 1}, true},
		// A delete removes both rows of the entity, and its index row.
		{metrics.Delete, scenario.Operation{}, Cost{Entities: 2, Requests: 2, Writes: 2}, true},
		{metrics.RangeQuery, scenario.Operation{Rows: 50}, Cost{Entities: 50, Requests: 1, Query: true}, true},
		// A partition scan reads the partition's rows, a page each 1,000.
		{metrics.PartitionScan, scenario.Operation{}, Cost{Entities: 2500, Requests: 3, Query: true}, true},
		{metrics.PartitionScan, scenario.Operation{MaxPages: 2}, Cost{Entities: 2000, Requests: 2, Query: true}, true},
		{metrics.Insert, scenario.Operation{}, Cost{}, false},
		{metrics.TableScan, scenario.Operation{}, Cost{}, false},
	}
	for _, tt := range tests {
		got, ok := OpCost(tt.kind, tt.spec, 2500, scheme)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v %+v: %+v, %v; want %+v, %v", tt.kind, tt.spec, got, ok, tt.want, tt.ok)
		}
	}
	// A range query of an empty partition returns nothing, in one request.
	if got, _ := OpCost(metrics.RangeQuery, scenario.Operation{Rows: 50}, 0, scheme); got.Entities != 0 || got.Requests != 1 {
		t.Errorf("a range query of an empty partition: %+v, want no entity in one request", got)
	}
}
