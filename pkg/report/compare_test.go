package report

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The comparison table is checked against a golden file; run
// `go test ./pkg/report -run Golden -update` after an intended change.
func TestCompareGolden(t *testing.T) {
	hotRun := richReport("constant", true)
	cool := richReport("hash-buckets", false)
	cool.Totals.Throttled, cool.Totals.Errors = 0, 0
	cool.Totals.Status = map[string]int64{"202": 60000}
	cool.Partitions = []Partition{{PartitionKey: "partition-003", Requests: 3750, Entities: 3750, EntitiesPerSec: 375, PeakEntitiesPerSec: 400}}
	cool.Operations = map[string]Stats{"batch": {Ops: 1200, Requests: 1200, Entities: 60000, Latency: Latency{P50: 2.95, P99: 10.7, P999: 15.7}}}
	var b bytes.Buffer
	if err := WriteCompare(&b, []*Report{hotRun, cool}); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/compare.golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("compare table differs from %s:\n%s\n--- want ---\n%s", golden, b.String(), want)
	}
}
