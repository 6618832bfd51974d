package advise

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// floatRE matches the JSON numbers with a fraction or an exponent.
var floatRE = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?[eE][-+]?[0-9]+|-?[0-9]+\.[0-9]+`)

// roundFloats writes every fractional number of a JSON document to 9
// significant digits: the predictions add over maps, so their last bits
// vary from run to run.
func roundFloats(doc []byte) []byte {
	return floatRE.ReplaceAllFunc(doc, func(n []byte) []byte {
		v, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return n
		}
		return []byte(strconv.FormatFloat(v, 'g', 9, 64))
	})
}

// The proof's plan of each ready scenario, with the default options, the
// recommendation alone, a duration given (--proof-duration) and a warm-up
// given, is checked against a golden file (to 9 significant digits): the schemes and their roles,
// the duration and why, the tolerance and every predicted figure. Run
// `go test ./pkg/advise -run Golden -update` after an intended change.
func TestPlanGolden(t *testing.T) {
	var b strings.Builder
	for _, name := range []string{"iot-telemetry", "ecommerce-orders", "event-logs", "blog-posts", "multi-tenant", "account-limit"} {
		a := adviseOn(t, name)
		for _, o := range []ProofOptions{{}, {RecommendedOnly: true}, {Duration: 7 * time.Second}, {Duration: time.Second}, {Warmup: 2 * time.Second, Duration: 400 * time.Second}} {
			out, err := json.MarshalIndent(a.Plan(o), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "=== %s %+v\n%s\n", name, o, roundFloats(out))
		}
	}
	const golden = "testdata/plan.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("plans differ from %s:\n%s", golden, b.String())
	}
}
