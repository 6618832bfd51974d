// Package metrics records what a run did: per-worker recorders on the hot
// path, merged once a second by a registry into per-operation HDR histograms,
// per-partition counters and compact histograms, one interval per second and
// each partition's peak entities per second. A run's Summary is plain,
// JSON-encodable data, and summaries of shards of one run merge exactly.
//
// Counting rules (the report documents them):
//
//   - A request is one HTTP request: an attempt of an operation, or one page
//     of a query. An operation is what a worker set out to do; it may take
//     several requests (retries after throttling, query pages).
//   - requests counts HTTP requests sent; status (keyed by outcome.Outcome.Key,
//     e.g. "201", "503 ServerBusy", "transport") sums exactly to requests;
//     throttled counts requests of class Throttled and errors every request
//     that was neither OK nor Throttled; retries counts requests that were
//     retry attempts and pages query pages.
//   - entities counts what successful requests served: a batch its entities,
//     a query the entities returned.
//   - ops counts completed operations, failed those that ended unsuccessfully
//     after all attempts, dropped those that were scheduled (open loop) but
//     could not start on time.
//   - latency is per answered operation (completed and not failed), from its
//     scheduled start to the end of its last request (coordinated omission
//     corrected by the caller passing the scheduled start). A failed
//     operation is counted in ops and failed but its time is in no latency
//     figure: the percentiles are those of the answers, never of failures.
//   - An operation belongs to the measured window when it started in it: one
//     started during the warm-up is excluded from every figure with all its
//     requests, however late it ends; one started before the window's end
//     counts, and what completes after the end counts in the window's last
//     second (Options.End). Seconds are counted from the start:
//     second = floor((t - start) / 1s).
//
// Requests with an empty Partition (table-level requests) count in the
// totals and per operation but under no partition. Requests spanning
// partitions (table scans, PartitionKey ranges) are recorded under
// CrossPartition, which is listed with the partitions but is never the
// hottest partition of a second and never over target.
package metrics

import (
	"errors"
	"fmt"
	"strings"
)

// Op is an operation kind.
type Op uint8

// The operations, in report order. NumOps is their number, not an operation.
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
	// Question is one of the application's questions, asked with the
	// scheme's plan (several requests: a fan-out, an index and its point
	// reads, a scan's pages); Summary.Questions has each question's own.
	Question
	NumOps
)

// CrossPartition is the partition under which requests that span partitions
// (table scans, PartitionKey ranges) are recorded.
const CrossPartition = "*"

// ErrUnknownOp is returned for an operation name that is not one of Op's.
var ErrUnknownOp = errors.New("metrics: unknown operation")

var opNames = [NumOps]string{"point_read", "range_query", "partition_scan", "table_scan", "insert",
	"upsert_merge", "upsert_replace", "update", "delete", "batch", "question"}

// String returns the report name of the operation ("point_read", ...), or
// "op(N)" for a value that is not an operation.
func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// ParseOp returns the operation whose report name is name. The error wraps
// ErrUnknownOp and lists the valid names.
func ParseOp(name string) (Op, error) {
	for i, n := range opNames {
		if n == name {
			return Op(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q: want one of %s", ErrUnknownOp, name, strings.Join(opNames[:], ", "))
}

// MarshalText encodes the operation as its report name, so that maps keyed
// by Op encode as JSON objects keyed by name.
func (o Op) MarshalText() ([]byte, error) {
	if o >= NumOps {
		return nil, fmt.Errorf("%w: %d", ErrUnknownOp, uint8(o))
	}
	return []byte(opNames[o]), nil
}

// UnmarshalText parses a report name (see ParseOp).
func (o *Op) UnmarshalText(b []byte) error {
	op, err := ParseOp(string(b))
	if err != nil {
		return err
	}
	*o = op
	return nil
}
