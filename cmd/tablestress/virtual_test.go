package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// machineFields are the fields of a report that say when and where a run
// happened (docs/reports.md names them): everything else of a run on the
// virtual clock is a function of its scenario, flags and seed.
func withoutMachineFields(t *testing.T, js []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	runs := []any{doc}
	if rs, ok := doc["runs"].([]any); ok {
		runs = rs
	}
	for _, r := range runs {
		rep := r.(map[string]any)
		delete(rep, "started_at")
		delete(rep, "client")
		if run, ok := rep["run"].(map[string]any); ok {
			delete(run, "virtual_per_wall")
		}
	}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cpuHogs starts n processes that keep a CPU busy each, until the test
// ends.
func cpuHogs(t *testing.T, n int) {
	t.Helper()
	for range n {
		cmd := exec.Command("/bin/sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
}

// TestVirtualRunsAreByteIdentical: two runs of the same command line on
// the virtual clock write the same JSON report, byte for byte but for the
// fields that say when and where they ran, the second with two CPU-bound
// processes beside it: an open loop whose one partition is throttled and
// whose refused transactions are retried with jittered backoff, compared
// with 16 hash buckets, and a closed loop of reads, writes and queries.
func TestVirtualRunsAreByteIdentical(t *testing.T) {
	cases := map[string][]string{
		"open, throttled, retried": {"compare", "../../scenarios/hot-partition.yaml", "--duration", "3s", "--warmup", "1s",
			"--retry", "exponential(100ms,50ms,1s,3)"},
		"closed loop": {"run", "../../scenarios/quickstart.yaml", "--duration", "2s", "--warmup", "0s", "--rate", "0",
			"--workers", "24", "--entities", "5000"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var reports [2][]byte
			for i := range reports {
				if i == 1 {
					cpuHogs(t, 2)
				}
				out := filepath.Join(dir, "r"+string(rune('a'+i))+".json")
				code, _, errs := runCLI(t, append(args, "--quiet", "--clock", "virtual", "--out", out)...)
				if code != exitOK && code != exitThreshold {
					t.Fatalf("exit %d: %s", code, errs)
				}
				js, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(js), `"clock": "virtual"`) {
					t.Fatalf("the report does not say it ran on the virtual clock")
				}
				checkVirtualRun(t, js)
				reports[i] = withoutMachineFields(t, js)
			}
			if !bytes.Equal(reports[0], reports[1]) {
				a, b := strings.Split(string(reports[0]), "\n"), strings.Split(string(reports[1]), "\n")
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Fatalf("the reports differ from line %d:\n%s\n---\n%s", i+1, a[i], b[i])
					}
				}
				t.Fatalf("the reports differ in length: %d vs %d lines", len(a), len(b))
			}
		})
	}
}

// virtualReport is what checkVirtualRun reads of a report.
type virtualReport struct {
	Scheme string
	Totals struct {
		Ops, Requests int64
	}
	Operations map[string]struct {
		Ops     int64
		Latency struct{ P50 float64 } `json:"latency_ms"`
	}
	Partitions []struct{ Requests int64 }
	Intervals  []struct{ Requests int64 }
}

// checkVirtualRun holds a virtual run's figures to the model: a point
// read takes at least the model's 5 ms base (a query page as much), a
// write or a transaction at least its 10 ms, and neither more than a
// second in these runs; and every request the run made is counted once in
// the totals, its partition and its second.
func checkVirtualRun(t *testing.T, js []byte) {
	t.Helper()
	var doc struct{ Runs []virtualReport }
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) == 0 {
		var one virtualReport
		if err := json.Unmarshal(js, &one); err != nil {
			t.Fatal(err)
		}
		doc.Runs = append(doc.Runs, one)
	}
	least := map[string]float64{"point_read": 5, "range_query": 5, "insert": 10, "upsert_merge": 10, "batch": 10}
	for _, r := range doc.Runs {
		for op, st := range r.Operations {
			lo, ok := least[op]
			if !ok || st.Ops == 0 {
				continue
			}
			if p50 := st.Latency.P50; p50 < lo || p50 > 1000 {
				t.Errorf("%s: %s's median latency %v ms, outside the model's [%v ms, 1 s]", r.Scheme, op, p50, lo)
			}
		}
		var parts, secs int64
		for _, p := range r.Partitions {
			parts += p.Requests
		}
		for _, iv := range r.Intervals {
			secs += iv.Requests
		}
		if r.Totals.Requests < r.Totals.Ops || parts != r.Totals.Requests || secs != r.Totals.Requests {
			t.Errorf("%s: %d operations, %d requests in the totals, %d in the partitions, %d in the seconds",
				r.Scheme, r.Totals.Ops, r.Totals.Requests, parts, secs)
		}
	}
}
