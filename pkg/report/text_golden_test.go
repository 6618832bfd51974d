package report

import (
	"bytes"
	"testing"

	"github.com/tablestress/tablestress/internal/testenv"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// The text of a run and of a comparison, at unlimited width, fitted to 100
// and 60 columns, in colour, charged in request units, merged from a
// partial set of shards, verified and judged by several models, is checked
// against a golden file; run `go test ./pkg/report -run Golden -update`
// after an intended change.
func TestTextGolden(t *testing.T) {
	sample := sampleReport()
	if _, err := sample.EvaluateThresholds([]string{"throttle_rate < 1%", "p99(insert) < 10ms"}); err != nil {
		t.Fatal(err)
	}
	merged := richReport("hash-buckets", false)
	merged.Model, merged.MergedShards, merged.MissingShards = "azure", 2, []string{"2/3"}
	merged.Seed = SeedInfo{Reused: true, Rows: 4200}
	merged.Verify = &Verify{Checked: 1000, Missing: 2, Mismatched: 1, Examples: []string{"p/r1 missing", "p/r2 mismatched"}}
	merged.Failure, merged.Interrupted = "the target stopped answering", true
	merged.Outages = []Outage{{StartS: 3, EndS: 4.5, Cause: "connection refused"}}
	noSeed := chargedReport(true)
	noSeed.Seed = SeedInfo{Entities: 500, Rows: 500, Partitions: 5, DurationS: 1.5, Throttled: 3, Status: map[string]int64{"202": 10, "503 ServerBusy": 3}}
	var b bytes.Buffer
	for _, tc := range []struct {
		r  *Report
		st textfit.Style
	}{
		{sample, textfit.Style{}}, {wideReport(), textfit.Style{Width: 100, Color: true}}, {wideReport(), textfit.Style{Width: 60}},
		{noSeed, textfit.Style{}}, {chargedReport(false), textfit.Style{Width: 80}}, {merged, textfit.Style{Color: true}},
	} {
		b.WriteString("=== text ===\n")
		if err := WriteTextStyle(&b, tc.r, tc.st); err != nil {
			t.Fatal(err)
		}
	}
	found := []*Report{wideReport(), richReport("hash-buckets", true)}
	models := []*Report{modelRun("a", "azure", 100, 10, "503 ServerBusy"), modelRun("b", "cosmos", 100, 0, ""), modelRun("c", "azure", 100, 40, "429 TooManyRequests")}
	// b's transactions hold one entity each: the judge's finding, as
	// compare passes it.
	oneEach := map[string]SchemeFacts{"b": {Findings: []KeyFinding{{Kind: "batch_fill", Words: "entity group transactions hold 1 of the 50 entities asked: too few new entities share a PartitionKey (a transaction needs one)", Ratio: 25}}}}
	for _, tc := range []struct {
		reps  []*Report
		st    textfit.Style
		facts map[string]SchemeFacts
	}{
		{found, textfit.Style{}, nil}, {found, textfit.Style{Width: 100, Color: true}, nil}, {found, textfit.Style{Width: 60}, nil},
		{[]*Report{chargedReport(true), chargedReport(false)}, textfit.Style{}, nil}, {models, textfit.Style{Color: true}, oneEach},
		{[]*Report{sample, merged}, textfit.Style{Width: 120}, nil}, {nil, textfit.Style{}, nil},
	} {
		b.WriteString("=== compare ===\n")
		if err := WriteCompareDoc(&b, NewCompare(tc.reps, nil, tc.facts), tc.st); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Golden(t, "testdata/text.golden", b.Bytes(), *update)
}
