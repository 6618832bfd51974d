package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/report"
)

const rampYAML = `name: ramp
seed: 1
population:
  entities: 1k
  fields:
    device: {kind: id, count: 10, prefix: d, width: 2}
schemes:
  - name: dev
    partition_key: "{device}"
    row_key: "{i:08}"
workload:
  warmup: 1s
  workers: 8
  stages: [{duration: 4s, rate: 50}]
  mix:
    - {op: point_read, weight: 1}
`

func writeScenario(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func decodeReport(t *testing.T, out string) *report.Report {
	t.Helper()
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return &r
}

// --duration on a ramp scales the ramp: it stays an open loop at the
// stages' rates (it once ran a closed loop at 8,183 ops/s), the report
// records the stages, and the intervals cover the measured window only.
func TestDurationKeepsTheRamp(t *testing.T) {
	path := writeScenario(t, "ramp.yaml", rampYAML)
	code, out, errs := runCLI(t, "run", path, "--duration", "2s", "--quiet", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeReport(t, out)
	if r.Run.Mode != "open" || len(r.Run.Stages) != 1 || r.Run.Stages[0].DurationS != 2 || r.Run.Stages[0].Rate != 50 {
		t.Errorf("run %+v, want an open loop ramping to 50 ops/s in 2 s", r.Run)
	}
	// 0 to 50 ops/s over 2 s: 50 operations.
	if n := r.Totals.Ops + r.Totals.Dropped; n < 48 || n > 52 || r.DurationS != 2 || len(r.Intervals) != 2 {
		t.Errorf("%d operations in %.2f s over %d intervals; want the ramp's 50 in 2 s", n, r.DurationS, len(r.Intervals))
	}
	if len(r.Run.Notes) != 1 || !strings.Contains(r.Run.Notes[0], "scaled") {
		t.Errorf("notes %q: the report should say the stages were scaled", r.Run.Notes)
	}
}

// A threshold on something the run did not observe fails (exit 99) and
// says so, rather than passing on a 0.
func TestThresholdOnNothingObservedFails(t *testing.T) {
	src, err := os.ReadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := writeScenario(t, "q.yaml", strings.Replace(string(src), "thresholds:\n", "thresholds:\n  - p99(table_scan) < 1s\n", 1))
	code, out, errs := runCLI(t, "run", path, "--duration", "1s", "--warmup", "0s", "--entities", "500", "--rate", "100", "--quiet")
	if code != exitThreshold {
		t.Errorf("exit %d, want 99: %s", code, errs)
	}
	if !strings.Contains(out, "FAIL p99(table_scan) < 1s  (nothing observed: no table_scan operation ran") {
		t.Errorf("the failure does not say nothing was observed:\n%s", out)
	}
}

// merge takes the distinct shards of one run and nothing else: the same
// shard twice, an unsharded report, a shard of another table, or an
// incomplete set are refused, naming the files; --partial merges what is
// there and the report names the missing shard.
func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(context.Background())
	dir := t.TempDir()
	// Without thresholds: what a run exits with is not what this is about.
	path := writeScenario(t, "shards.yaml", strings.Replace(rampYAML, "  stages: [{duration: 4s, rate: 50}]\n", "  rate: 50/s\n", 1))
	run := func(name string, extra ...string) string {
		out := filepath.Join(dir, name)
		args := append([]string{"run", path, "--target", in.ConnectionString(), "--duration", "2s",
			"--warmup", "0s", "--quiet", "--out", out}, extra...)
		if code, _, errs := runCLI(t, args...); code != exitOK {
			t.Errorf("%s: exit %d: %s", name, code, errs)
		}
		return out
	}
	// The shards of one run run at once; so do the others here, so that
	// only what the case is about differs.
	var s0, s1, other, whole string
	var wg sync.WaitGroup
	wg.Go(func() { s0 = run("s0.json", "--shard", "0/2", "--table", "tsmerge") })
	wg.Go(func() { s1 = run("s1.json", "--shard", "1/2", "--table", "tsmerge") })
	wg.Go(func() { other = run("other.json", "--shard", "1/2", "--table", "tsother") })
	wg.Go(func() { whole = run("whole.json") })
	wg.Wait()
	later := run("later.json", "--shard", "1/2", "--table", "tsmerge")
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{s0, s0}, "s0.json and " + s0 + " are both shard 0/2"},
		{[]string{s0, whole}, "whole.json is not a shard"},
		{[]string{s0, other}, `table "tsmerge" and "tsother"`},
		{[]string{s0, s1, s1}, "are both shard 1/2"},
		{[]string{s0, later}, "do not overlap"},
		{[]string{s0}, "1 of 2 shards given; missing 1/2 (merge a partial set with --partial)"},
	} {
		code, _, errs := runCLI(t, append([]string{"merge"}, tc.files...)...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("merge %v: exit %d, want 2 saying %q:\n%s", tc.files, code, tc.want, errs)
		}
	}
	code, out, errs := runCLI(t, "merge", s0, s1, "--format", "json")
	if code != exitOK {
		t.Fatalf("merge of both shards: exit %d: %s", code, errs)
	}
	m := decodeReport(t, out)
	r0, r1 := readReport(t, s0), readReport(t, s1)
	if m.Totals.Ops != r0.Totals.Ops+r1.Totals.Ops || m.MergedShards != 2 || m.Run.Rate != 50 {
		t.Errorf("merged %d ops from %d + %d, %d shards, rate %v", m.Totals.Ops, r0.Totals.Ops, r1.Totals.Ops, m.MergedShards, m.Run.Rate)
	}
	code, out, errs = runCLI(t, "merge", s0, "--partial")
	if code != exitOK || !strings.Contains(out, "PARTIAL: missing shard 1/2") {
		t.Errorf("partial merge: exit %d: %s\n%s", code, errs, out)
	}
}

func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	doc, err := report.ReadFile(path)
	if err != nil || doc.Report == nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc.Report
}
