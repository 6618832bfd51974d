package report

import (
	"bytes"
	"flag"
	"testing"

	"github.com/tablestress/tablestress/internal/testenv"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The comparison table is checked against a golden file; run
// `go test ./pkg/report -run Golden -update` after an intended change.
func TestCompareGolden(t *testing.T) {
	hotRun := richReport("constant", true)
	hotRun.Find = nil // a comparison, not a search
	cool := richReport("hash-buckets", false)
	cool.Totals.Throttled, cool.Totals.Errors = 0, 0
	cool.Totals.Status = map[string]int64{"202": 60000}
	cool.Partitions = []Partition{{PartitionKey: "partition-003", Counts: metrics.Counts{Requests: 3750, Entities: 3750}, EntitiesPerSec: 375, PeakEntitiesPerSec: 400}}
	cool.Operations = map[string]Stats{"batch": {Counts: metrics.Counts{Ops: 1200, Requests: 1200, Entities: 60000}, Latency: Latency{P50: 2.95, P99: 10.7, P999: 15.7}}}
	// Thresholds are judged on each report's final figures, as a run does.
	for _, r := range []*Report{hotRun, cool} {
		if _, err := r.EvaluateThresholds([]string{"max_partition_peak < 2000", "throttle_rate < 1%"}); err != nil {
			t.Fatal(err)
		}
	}
	if v := SchemeVerdict(cool); v != "ok" || !cool.ThresholdsOK() || hotRun.ThresholdsOK() {
		t.Fatalf("hash-buckets verdict %q thresholds ok %v, constant thresholds ok %v: the data contradicts itself", v, cool.ThresholdsOK(), hotRun.ThresholdsOK())
	}
	var b bytes.Buffer
	if err := WriteCompare(&b, []*Report{hotRun, cool}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n--- the same at 100 columns ---\n")
	if err := WriteCompareStyle(&b, []*Report{hotRun, cool}, textfit.Style{Width: 100}); err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "testdata/compare.golden", b.Bytes(), *update)
}
