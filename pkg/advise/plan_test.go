package advise

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The proof's plan of each ready scenario, with the default options, the
// recommendation alone, a duration given (--proof-duration) and a warm-up
// given, is checked against a golden file, byte for byte: the schemes and
// their roles, the duration and why, the tolerance and every predicted
// figure. Run
// `go test ./pkg/advise -run Golden -update` after an intended change.
func TestPlanGolden(t *testing.T) {
	var b strings.Builder
	for _, name := range []string{"iot-telemetry", "ecommerce-orders", "event-logs", "blog-posts", "multi-tenant", "account-limit"} {
		a := adviseOn(t, name)
		for _, o := range []ProofOptions{{}, {RecommendedOnly: true}, {Duration: 7 * time.Second}, {Duration: time.Second}, {Warmup: 2 * time.Second, Duration: 400 * time.Second}} {
			out, err := json.MarshalIndent(a.mustPlan(t, o), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "=== %s %+v\n%s\n", name, o, out)
		}
	}
	testenv.Golden(t, "testdata/plan.golden", []byte(b.String()), *update)
}

// Advising one scenario twice gives byte-identical JSON: every sum over
// partitions, time buckets and counts runs in a fixed order, so no figure
// moves in its last digits from run to run. The scenarios are those whose
// figures add over many partitions (several pick shares, index rows, time
// buckets) and advise in well under a second; -count=N repeats the check.
func TestAdviseRepeatable(t *testing.T) {
	for _, name := range []string{"blog-posts", "guid-partitions", "selectivity", "query-types", "iot-telemetry"} {
		var first []byte
		for k := 0; k < 3; k++ {
			a := adviseWith(t, name, Defaults())
			out, err := json.MarshalIndent(a, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			plan, err := json.MarshalIndent(a.mustPlan(t, ProofOptions{}), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, plan...)
			if k == 0 {
				first = out
			} else if !bytes.Equal(out, first) {
				t.Errorf("%s: advising again gave different JSON:\n%s", name, testenv.FirstDiff(first, out))
				break
			}
		}
	}
}
