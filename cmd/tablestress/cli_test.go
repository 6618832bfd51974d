package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCLI executes a command line and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, stdin: strings.NewReader(""), hard: context.Background()}
	code := execute(context.Background(), args, e)
	return code, out.String(), errb.String()
}

func TestValidateReadyScenarios(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	if len(files) == 0 {
		t.Fatal("no ready scenarios")
	}
	benches, _ := filepath.Glob("../../bench/scenarios/*.yaml")
	if len(benches) == 0 {
		t.Fatal("no benchmark scenarios")
	}
	files = append(files, benches...)
	code, out, errs := runCLI(t, append([]string{"validate"}, files...)...)
	if code != exitOK {
		t.Fatalf("validate scenarios/*.yaml bench/scenarios/*.yaml exited %d:\n%s", code, errs)
	}
	if strings.Count(out, ": ok") != len(files) {
		t.Errorf("expected one ok line per file:\n%s", out)
	}
}

func TestValidateListsEveryMistake(t *testing.T) {
	code, _, errs := runCLI(t, "validate", "testdata/three-mistakes.yaml")
	if code != exitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, want := range []string{
		"testdata/three-mistakes.yaml:9:29: schemes[0].partition_key: '/' is not allowed in keys", // the '/' after {device}
		"testdata/three-mistakes.yaml:12:13: workload.duration: \"30 secs\" is not a duration",
		"testdata/three-mistakes.yaml:15:7: workload.mix[0].wieght: unknown field \"wieght\"",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("missing %q in:\n%s", want, errs)
		}
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"validate"},
		{"keys"},
		{"keys", "a.yaml", "b.yaml"},
		{"frobnicate"},
		{"keys", "--nope", "x.yaml"},
		{"keys", "../../scenarios/quickstart.yaml", "--ops", "0"},
		{"keys", "../../scenarios/quickstart.yaml", "--rate", "fast"},
		{"keys", "../../scenarios/quickstart.yaml", "--scheme", "nope"},
		{"validate", "does-not-exist.yaml"},
		{"run", "../../scenarios/quickstart.yaml", "--embedded-transport", "pipe"},
		{"run", "../../scenarios/quickstart.yaml", "--embedded-transport", "socket", "--target", "azurite"},
	} {
		if code, _, errs := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs)
		}
	}
}

func TestKeysJSON(t *testing.T) {
	code, out, errs := runCLI(t, "keys", "../../scenarios/quickstart.yaml", "--json", "--ops", "2000", "--rate", "800")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var as []struct {
		Scheme     string  `json:"scheme"`
		Ops        int     `json:"ops"`
		Rate       float64 `json:"rate"`
		OverTarget bool    `json:"over_target"`
		Population struct {
			Partitions int `json:"partitions"`
		} `json:"population"`
	}
	if err := json.Unmarshal([]byte(out), &as); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(as) != 1 || as[0].Ops != 2000 || as[0].Rate != 800 || as[0].Population.Partitions != 50 || as[0].OverTarget {
		t.Errorf("analysis: %+v", as)
	}
}

func TestSchemesAndSchemaAndVersion(t *testing.T) {
	code, out, _ := runCLI(t, "schemes")
	if code != exitOK || !strings.Contains(out, "hash-buckets") || !strings.Contains(out, "partition-") {
		t.Errorf("schemes: %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "schema")
	var v map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &v) != nil || v["title"] != "tablestress scenario" {
		t.Errorf("schema: %d %.200s", code, out)
	}
	code, out, _ = runCLI(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "tablestress ") {
		t.Errorf("version: %d %q", code, out)
	}
}

// A run on the embedded service writes a report that `report` renders
// again identically in every format.
// A run reaches the embedded service in process by default, or over a
// loopback socket with --embedded-transport socket, and its report says
// which; either way it re-renders as it printed.
func TestRunThenReport(t *testing.T) {
	for _, tc := range []struct{ transport, endpoint string }{
		{"", "in-process"},
		{"socket", "http://127.0.0.1:"},
	} {
		t.Run("transport="+tc.transport, func(t *testing.T) { testRunThenReport(t, tc.transport, tc.endpoint) })
	}
}

func testRunThenReport(t *testing.T, transport, endpoint string) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	csvPath := filepath.Join(dir, "p.csv")
	// The quickstart without its thresholds: a loaded machine's latency is
	// not what this test is about, and the run must exit 0.
	src, err := os.ReadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "quickstart.yaml")
	os.WriteFile(scen, []byte(string(src[:strings.Index(string(src), "thresholds:")])), 0o644)
	args := []string{"run", scen, "--duration", "2s", "--warmup", "0s", "--entities", "2000",
		"--rate", "200", "--quiet", "--out", out, "--csv", csvPath}
	if transport != "" {
		args = append(args, "--embedded-transport", transport)
	}
	code, text, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("run exited %d: %s\n%s", code, errs, text)
	}
	if !strings.Contains(text, "on embedded ("+endpoint) {
		t.Errorf("the report does not say the target is embedded (%s...):\n%s", endpoint, text)
	}
	code, again, errs := runCLI(t, "report", out)
	if code != exitOK || again != text {
		t.Errorf("report re-rendered differently (exit %d, %s):\n%s\n---\n%s", code, errs, again, text)
	}
	code, csvOut, _ := runCLI(t, "report", out, "--format", "csv")
	saved, _ := os.ReadFile(csvPath)
	if code != exitOK || csvOut != string(saved) || !strings.HasPrefix(csvOut, "scheme,partition_key,") {
		t.Errorf("csv: exit %d\n%s\nvs\n%s", code, csvOut, saved)
	}
	code, js, _ := runCLI(t, "report", out, "--format", "json")
	var doc map[string]any
	if code != exitOK || json.Unmarshal([]byte(js), &doc) != nil || doc["schema"] != "tablestress.report/v1" {
		t.Errorf("json: exit %d %.100s", code, js)
	}
	if tg, _ := doc["target"].(map[string]any); tg["kind"] != "embedded" || !strings.HasPrefix(fmt.Sprint(tg["endpoint"]), endpoint) {
		t.Errorf("the report's target %v, want embedded at %s...", tg, endpoint)
	}
	// The intervals are the measured window's 2 seconds, no drain second
	// after it.
	if ivs, _ := doc["intervals"].([]any); len(ivs) != 2 {
		t.Errorf("%d intervals in a 2 s run, want 2", len(ivs))
	}
	if code, _, _ := runCLI(t, "report", filepath.Join(dir, "missing.json")); code != exitUsage {
		t.Errorf("missing file: exit %d", code)
	}
}

// A failed threshold exits 99; a scenario whose thresholds pass exits 0.
func TestThresholdExitCode(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile("../../scenarios/quickstart.yaml")
	strict := strings.Replace(string(src), "  - p99(point_read) < 250ms", "  - p99(point_read) < 1us", 1)
	path := filepath.Join(dir, "strict.yaml")
	os.WriteFile(path, []byte(strict), 0o644)
	code, out, errs := runCLI(t, "run", path, "--duration", "1s", "--warmup", "0s", "--entities", "500", "--rate", "100", "--quiet")
	if code != exitThreshold || !strings.Contains(out, "FAIL p99(point_read) < 1us") {
		t.Errorf("exit %d, want 99:\n%s\n%s", code, out, errs)
	}
}

// A threshold with abort_on_fail stops the run early with exit code 99.
// This checks the command's wiring on the wall clock; when the run stops
// (on the first tick, 1 s in) is held on the fake clock by
// TestAbortOnFailStopsAtFirstTick in pkg/workload.
func TestAbortOnFail(t *testing.T) {
	dir := t.TempDir()
	src := `population: {entities: 1000, fields: {order: {kind: sequence}}}
schemes: [{builtin: constant}]
workload:
  duration: 60s
  rate: 300/s
  workers: 64
  mix: [{op: insert}]
thresholds:
  - {expr: "throttle_rate < 1%", abort_on_fail: true}
embedded:
  model: azure,partition=50   # a small target, so throttling does not depend on this machine's speed
`
	path := filepath.Join(dir, "abort.yaml")
	os.WriteFile(path, []byte(src), 0o644)
	code, out, errs := runCLI(t, "run", path, "--quiet", "--format", "json")
	var rep struct {
		Aborted   string  `json:"aborted"`
		DurationS float64 `json:"duration_s"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, errs)
	}
	if code != exitThreshold || !strings.Contains(rep.Aborted, `threshold "throttle_rate < 1%" failed during the run`) || rep.DurationS >= 60 {
		t.Errorf("exit %d, aborted %q after %.1fs of a 60s run", code, rep.Aborted, rep.DurationS)
	}
}

// A Cosmos DB 429 storm: every request throttled. The run completes (this
// is throttling, not a dead target) and the verdict says what happened.
func TestTooManyRequestsStorm(t *testing.T) {
	code, out, errs := runCLI(t, "run", "../../scenarios/quickstart.yaml", "--duration", "2s", "--warmup", "0s",
		"--entities", "500", "--rate", "100", "--quiet", "--retry", "none", "--faults", "429=100%")
	if code != exitThreshold { // throttle_rate < 1% fails
		t.Errorf("exit %d, want 99: %s", code, errs)
	}
	if !strings.Contains(out, "verdict: no request succeeded: 429 TooManyRequests ×") {
		t.Errorf("the verdict does not name the storm:\n%s", out)
	}
}

// keys judges partitions at the rate a run of the workload peaks at
// (plan.PeakRate): a stage's highest rate when only the stages have
// one, none for a closed loop, which then says so instead of a rate.
func TestKeysRateIsTheWorkloadsPeak(t *testing.T) {
	src, err := os.ReadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, workload string) string {
		text := regexp.MustCompile(`(?m)^  rate: .*$`).ReplaceAllString(string(src), workload)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	staged := write("staged.yaml", "  stages: [{duration: 5s, rate: 300}, {duration: 20s, rate: 1700}]")
	closed := write("closed.yaml", "  rate: 0")
	for _, tc := range []struct {
		path string
		want float64
	}{{staged, 1700}, {closed, 0}} {
		code, out, errs := runCLI(t, "keys", tc.path, "--json", "--ops", "500")
		var as []struct {
			Rate        float64 `json:"rate"`
			BusiestRate float64 `json:"busiest_entities_per_sec"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &as) != nil || len(as) != 1 || as[0].Rate != tc.want {
			t.Errorf("keys %s: exit %d, %s%s; want rate %v", filepath.Base(tc.path), code, out, errs, tc.want)
		}
	}
	code, out, _ := runCLI(t, "keys", closed, "--ops", "500")
	if code != exitOK || !strings.Contains(out, "a closed loop offers no rate: give --rate") || strings.Contains(out, "at 0.00 ops/s") {
		t.Errorf("keys of a closed loop: exit %d\n%s", code, out)
	}
}
