package plan

import (
	"math"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// Cost is what one operation asks of the service in the partition of the
// entity it addresses: the simulation (Analyze) counts it, and the judge
// (pkg/judge) weighs it by the operation's rate.
type Cost struct {
	// Entities is what it counts toward the partition's target: the
	// entities it reads or writes there, or a query returns.
	Entities float64
	// Requests is what it counts toward the account's target: one a
	// request, a query one a page (azure.PageRequests).
	Requests float64
	// Reads and Writes are its point reads and its entity writes, and
	// Query is set for a query, charged for its pages and the entities it
	// returns: what a model of request units charges.
	Reads, Writes float64
	Query         bool
}

// OpCost is the one rule of what an operation on an existing entity costs,
// as the executor (pkg/workload) performs it, on a partition holding rows
// rows of the entity's table under scheme: a point read, an upsert or an
// update one entity (an update that checks the ETag reads it first: two
// requests); a delete every row of the entity, in one request, and one
// more request for each index table; a range query the rows it asks for
// that the partition holds, a partition scan the partition's rows up to
// its pages, each in pages of azure.PageRows. ok is false for the kinds
// costed by what they write or span (insert, batch, table_scan) and for
// questions, which their plans cost.
func OpCost(kind metrics.Op, spec scenario.Operation, rows float64, scheme *keygen.Scheme) (c Cost, ok bool) {
	switch kind {
	case metrics.PointRead:
		return Cost{Entities: 1, Requests: 1, Reads: 1}, true
	case metrics.UpsertMerge, metrics.UpsertReplace:
		return Cost{Entities: 1, Requests: 1, Writes: 1}, true
	case metrics.Update:
		if spec.ETag != nil && *spec.ETag {
			return Cost{Entities: 2, Requests: 2, Reads: 1, Writes: 1}, true
		}
		return Cost{Entities: 1, Requests: 1, Writes: 1}, true
	case metrics.Delete:
		n := float64(scheme.RowsPerEntity())
		return Cost{Entities: n, Requests: 1 + float64(len(scheme.Indexes)), Writes: n}, true
	case metrics.RangeQuery:
		return queryCost(math.Min(float64(spec.Rows), rows)), true
	case metrics.PartitionScan:
		if spec.MaxPages > 0 {
			rows = math.Min(rows, float64(spec.MaxPages)*azure.PageRows)
		}
		return queryCost(rows), true
	}
	return Cost{}, false
}

// queryCost is a query returning n entities from one partition: a page
// each azure.PageRows of them, and at least one.
func queryCost(n float64) Cost {
	pages := math.Max(1, math.Ceil(n/azure.PageRows-1e-9))
	return Cost{Entities: n, Requests: pages * azure.PageRequests, Query: true}
}
