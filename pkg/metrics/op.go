// Package metrics records what a run did: per-worker recorders on the hot
// path, merged once a second by the registry into per-operation HDR
// histograms, per-partition counters and compact histograms, per-second
// intervals and each partition's peak entities per second.
//
// Counting rules. A request is one HTTP request (an attempt of an operation,
// or one page of a query); an operation is what a worker set out to do.
// Status counts (keyed by outcome.Outcome.Key) sum to requests; throttled and
// errors count requests; entities count what successful requests served;
// latency is per completed operation, from its scheduled start.
package metrics

import "fmt"

// Op is an operation kind.
type Op uint8

// The operations, in report order.
const (
	PointRead Op = iota
	RangeQuery
	PartitionScan
	TableScan
	Insert
	UpsertMerge
	UpsertReplace
	Update
	Delete
	Batch
	NumOps
)

var opNames = [NumOps]string{"point_read", "range_query", "partition_scan", "table_scan", "insert", "upsert_merge", "upsert_replace", "update", "delete", "batch"}

// String returns the report name of the operation.
func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// ParseOp returns the operation called name.
func ParseOp(name string) (Op, error) {
	for i, n := range opNames {
		if n == name {
			return Op(i), nil
		}
	}
	return 0, fmt.Errorf("metrics: unknown operation %q", name)
}

// CrossPartition is the partition under which requests that span partitions
// (table scans, PartitionKey ranges) are recorded.
const CrossPartition = "*"
