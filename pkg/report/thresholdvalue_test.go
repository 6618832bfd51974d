package report

import (
	"strings"
	"testing"
)

// A count, a share and a latency of an operation that never ran have no
// value: each says the operation did not run, whatever its comparison.
func TestThresholdValueOfAnOperationThatNeverRan(t *testing.T) {
	r := sampleReport() // inserts into one partition, nothing else
	for _, metric := range []string{"ops", "dropped", "entities_per_sec", "error_rate", "failed_rate", "p50"} {
		v, missing := r.ThresholdValue(metric, "point_read")
		if v != 0 || !strings.Contains(missing, "no point_read operation ran") {
			t.Errorf("%s(point_read) = %v, %q; want 0 and that no point_read operation ran", metric, v, missing)
		}
	}
	if v, missing := r.ThresholdValue("ops", "insert"); missing != "" || v != float64(r.Operations["insert"].Ops) {
		t.Errorf("ops(insert) = %v, %q; want %d observed", v, missing, r.Operations["insert"].Ops)
	}
	if _, missing := r.ThresholdValue("p42", ""); missing != "unknown metric p42" {
		t.Errorf("p42: %q", missing)
	}
}
