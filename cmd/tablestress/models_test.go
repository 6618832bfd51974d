package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/report"
)

// --models is model.ParseList's list, its errors said of the flag.
func TestParseModels(t *testing.T) {
	if got, err := parseModels("azure,cosmos(ru=10000)"); err != nil || !slices.Equal(got, []string{"azure", "cosmos,ru=10000"}) {
		t.Errorf("parseModels = %q, %v", got, err)
	}
	_, err := parseModels("azure,cosmos(partition=5)")
	if want := `--models: "cosmos(partition=5)": "partition=5": partition belongs to azure, not cosmos`; codeOf(err) != exitUsage || !strings.HasPrefix(fmt.Sprint(err), want) {
		t.Errorf("parseModels = %v; want a usage error starting %q", err, want)
	}
}

// compare --models runs every scheme under each model, and each report and
// row says which model produced it.
func TestCompareAcrossModels(t *testing.T) {
	code, out, errs := runCLI(t, "compare", "../../scenarios/azure-vs-cosmos.yaml", "--duration", "1s", "--warmup", "0s", "--quiet",
		"--models", "azure(latency=off),cosmos(ru=4000,latency=off)", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var cmp report.Compare
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range cmp.Runs {
		got = append(got, r.Scheme+" @ "+r.Model)
	}
	want := []string{"constant @ azure,latency=off", "hash-buckets @ azure,latency=off", "constant @ cosmos,ru=4000,latency=off", "hash-buckets @ cosmos,ru=4000,latency=off"}
	if !slices.Equal(got, want) {
		t.Fatalf("runs %q, want %q", got, want)
	}
	var text strings.Builder
	if err := report.WriteCompare(&text, cmp.Runs); err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the comparison does not name %q:\n%s", w, text.String())
		}
	}
	if st := cmp.Runs[2].Totals.Status["429 TooManyRequests"]; st == 0 {
		t.Errorf("constant on Cosmos DB at 4,000 RU/s: no 429 among %v", cmp.Runs[2].Totals.Status)
	}
	// Each model's own yardstick: entities/s against Azure's 2,000 for
	// Azure's runs; request units against the physical partition's 4,000
	// RU/s share for Cosmos DB's, whose reports carry them.
	for i, r := range cmp.Runs {
		cosmos := i >= 2
		if cosmos != (r.Totals.RequestUnitsPerSec != nil) || cosmos != (r.Run.PartitionUnits == 4000) {
			t.Errorf("%s on %s: request units %v, share %v", r.Scheme, r.Model, r.Totals.RequestUnitsPerSec, r.Run.PartitionUnits)
		}
	}
	lines := strings.Split(text.String(), "\n")
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "constant ") && strings.Contains(l, "azure,latency=off") && !strings.Contains(l, "/2,000"),
			strings.HasPrefix(l, "constant ") && strings.Contains(l, "cosmos,ru=4000") && !strings.Contains(l, "/4,000 RU"):
			t.Errorf("a row without its model's yardstick: %q", l)
		}
	}
}

func TestCompareModelsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--models", "azure,cosmos(", "--duration", "1s"},
		{"--models", "azure", "--model", "off"},
		{"--models", "azure", "--target", "azurite"},
	} {
		if code, _, errs := runCLI(t, append([]string{"compare", "../../scenarios/hot-partition.yaml"}, args...)...); code != exitUsage || !strings.Contains(errs, "--model") {
			t.Errorf("%v: exit %d (%s), want 2 naming the flag", args, code, errs)
		}
	}
}

// A run's report says which model produced it, in its header too.
func TestRunReportNamesModel(t *testing.T) {
	code, out, errs := runCLI(t, "run", "../../scenarios/hot-partition.yaml", "--duration", "1s", "--warmup", "0s", "--quiet", "--model", "azure,latency=off")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "\nmodel: azure,latency=off\n") {
		t.Errorf("the report's header does not name the model:\n%s", out)
	}
}

// The embedded service's --model and --faults are read one way by run and
// by the emulator command: the same spec gets the same refusal, naming the
// flag, and exit 2.
func TestServiceFlagsReadAlike(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{"--model", "dynamo", `tablestress: --model: model: "dynamo": start with azure, cosmos or off`},
		{"--faults", "503=2", `tablestress: --faults: faults: "503=2": share must be a percentage like 2% or a fraction like 0.02`},
	} {
		var msgs []string
		for _, args := range [][]string{
			{"run", "../../scenarios/quickstart.yaml", "--quiet", tc.flag, tc.value},
			{"emulator", "--listen", "127.0.0.1:0", tc.flag, tc.value},
		} {
			code, _, errs := runCLI(t, args...)
			if code != exitUsage || !strings.HasPrefix(errs, tc.want) {
				t.Errorf("%v: exit %d, %q; want exit %d and %q", args, code, errs, exitUsage, tc.want)
			}
			msgs = append(msgs, errs)
		}
		if msgs[0] != msgs[1] {
			t.Errorf("%s %s: run says %q, emulator %q", tc.flag, tc.value, msgs[0], msgs[1])
		}
	}
}
