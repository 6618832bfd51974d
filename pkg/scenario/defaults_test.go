package scenario

import (
	"reflect"
	"strings"
	"testing"
)

// Each operation of the mix gets the defaults of its kind, and only those:
// a weight of 1, a range query's rows and start, the pages of a query, a
// batch's size and kind, an update's ETag check; what the file gives (even
// 0 pages or weight) is kept.
func TestMixDefaults(t *testing.T) {
	src := strings.Replace(minimal, "    - op: point_read\n", `    - {op: point_read}
    - {op: range_query}
    - {op: range_query, rows: 7, from: start, max_pages: 0}
    - {op: partition_scan}
    - {op: table_scan, max_pages: 3}
    - {op: batch}
    - {op: batch, size: 9, kind: mixed, weight: 2.5}
    - {op: update}
    - {op: update, etag: false}
    - {op: insert}
`, 1)
	s, errs := Parse("d.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	yes, no := true, false
	want := []Operation{
		{Op: "point_read", Weight: 1},
		{Op: "range_query", Weight: 1, Rows: DefaultRangeRows, From: DefaultRangeFrom, MaxPages: DefaultMaxPages},
		{Op: "range_query", Weight: 1, Rows: 7, From: "start"},
		{Op: "partition_scan", Weight: 1, MaxPages: DefaultMaxPages},
		{Op: "table_scan", Weight: 1, MaxPages: 3},
		{Op: "batch", Weight: 1, Size: DefaultBatchSize, Kind: DefaultBatchKind},
		{Op: "batch", Weight: 2.5, Size: 9, Kind: "mixed"},
		{Op: "update", Weight: 1, ETag: &yes},
		{Op: "update", Weight: 1, ETag: &no},
		{Op: "insert", Weight: 1},
	}
	if !reflect.DeepEqual(s.Workload.Mix, want) {
		t.Errorf("mix\n got %+v\nwant %+v", s.Workload.Mix, want)
	}
	if s.Workload.Distribution != DefaultDistribution || s.Workload.Retry.Kind != "none" {
		t.Errorf("distribution %q, retry %q", s.Workload.Distribution, s.Workload.Retry.Kind)
	}
}

// A range query's rows default to 50 only when the file leaves them out:
// an explicit 0 (like one out of range) is refused at its line and column
// with the range that would be right, never replaced by the default.
func TestRangeRowsZeroIsRefused(t *testing.T) {
	src := strings.Replace(minimal, "    - op: point_read\n", "    - {op: range_query, rows: 0}\n    - {op: range_query, rows: 1}\n", 1)
	_, errs := Parse("r.yaml", []byte(src))
	want := "r.yaml:8:31: workload.mix[0].rows: 0 rows: use between 1 and 1000 (one page)"
	if len(errs) != 1 || errs[0].Error() != want {
		t.Errorf("got %v, want %s", errs, want)
	}
}

// A batch's size defaults to 50 only when the file leaves it out: an
// explicit 0 is refused at its line and column with the range Azure
// allows, never replaced by the default.
func TestBatchSizeZeroIsRefused(t *testing.T) {
	src := strings.Replace(minimal, "    - op: point_read\n", "    - {op: batch, size: 0}\n    - {op: batch}\n", 1)
	_, errs := Parse("b.yaml", []byte(src))
	want := "b.yaml:8:25: workload.mix[0].size: 0: an entity group transaction holds 1 to 100 operations"
	if len(errs) != 1 || errs[0].Error() != want {
		t.Fatalf("got %v, want %s", errs, want)
	}
}
