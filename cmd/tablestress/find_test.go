package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/internal/testenv"
)

// findScenario is a small scenario for find: point reads and inserts over
// 20 partitions, no thresholds (the default rule decides).
const findScenario = `name: findsmall
population:
  entities: 400
  fields:
    device: {kind: id, count: 20, prefix: dev-, width: 3}
schemes:
  - builtin: device
workload:
  duration: 1s
  warmup: 0s
  workers: 64
  rate: 50/s
  mix:
    - {op: point_read, weight: 3}
    - {op: insert, weight: 1}
`

// findReport is what the tests read of find's JSON report.
type findReport struct {
	Schema string `json:"schema"`
	Run    struct {
		Rate float64 `json:"rate"`
	} `json:"run"`
	Find *struct {
		Rule     string  `json:"rule"`
		Limit    float64 `json:"limit_ops_per_sec"`
		LimitEnt float64 `json:"limit_entities_per_sec"`
		Ceiling  bool    `json:"ceiling"`
		FailedAt float64 `json:"failed_at_ops_per_sec"`
		Steps    []struct {
			Rate float64 `json:"rate"`
			OK   bool    `json:"ok"`
		} `json:"steps"`
	} `json:"find"`
}

// runFind runs find on the small scenario against target with a ceiling
// of 200 ops/s and returns its JSON report.
func runFind(t *testing.T, target string) findReport {
	t.Helper()
	dir := t.TempDir()
	scen := filepath.Join(dir, "find.yaml")
	os.WriteFile(scen, []byte(findScenario), 0o644)
	out := filepath.Join(dir, "find.json")
	code, text, errs := runCLI(t, "find", scen, "--target", target, "--max-rate", "200", "--quiet", "--out", out)
	if code != exitOK {
		t.Fatalf("find: exit %d\n%s\n%s", code, text, errs)
	}
	if !strings.Contains(text, "findsmall") || !strings.Contains(text, "device sustains") {
		t.Errorf("find's text does not state the limit:\n%s", text)
	}
	var rep findReport
	data, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(data, &rep) != nil || rep.Find == nil {
		t.Fatalf("no find section in the JSON report (%v):\n%.500s", err, data)
	}
	return rep
}

// checkFind holds a search to what it reports, whatever this machine's
// speed (the exact limit of a scheme is held on a fake clock, by
// pkg/workload's TestFindHotPartitionLimit): it starts at the scenario's
// 50 ops/s and stays within the 200 ops/s ceiling, never repeats a rate,
// its limit is its highest passing step (the ceiling when that passed),
// its failed_at its lowest failing one, and the report is the run at the
// limit.
func checkFind(t *testing.T, rep findReport) {
	t.Helper()
	f := rep.Find
	if len(f.Steps) == 0 || f.Steps[0].Rate != 50 {
		t.Fatalf("steps %+v: want the first at the scenario's 50 ops/s", f.Steps)
	}
	seen := map[float64]bool{}
	best, failed := 0.0, math.Inf(1)
	for _, s := range f.Steps {
		if seen[s.Rate] || s.Rate > 200 {
			t.Errorf("step at %v ops/s: repeated or over the ceiling (%+v)", s.Rate, f.Steps)
		}
		seen[s.Rate] = true
		if s.OK {
			best = max(best, s.Rate)
		} else {
			failed = min(failed, s.Rate)
		}
	}
	if f.Limit != best || f.Ceiling != (best == 200) || (!math.IsInf(failed, 1) && f.FailedAt != failed) || best >= failed {
		t.Errorf("find: %+v; its steps say limit %v, failed at %v", f, best, failed)
	}
	if best > 0 && (rep.Run.Rate != best || f.LimitEnt <= 0) {
		t.Errorf("the report is the run at %v ops/s (%v entities/s), want the limit %v", rep.Run.Rate, f.LimitEnt, best)
	}
	if rep.Schema != "tablestress.report/v1" || f.Rule == "" {
		t.Errorf("schema %q, rule %q", rep.Schema, f.Rule)
	}
}

// find searches on the embedded service and writes the search in the JSON
// report.
func TestFindEmbedded(t *testing.T) {
	checkFind(t, runFind(t, "embedded"))
}

// find works on Azurite (which never throttles: the search reaches its
// ceiling).
func TestFindAzurite(t *testing.T) {
	checkFind(t, runFind(t, testenv.Azurite(t)))
}

// find refuses a remote target without --max-rate, and the flags that
// would make steps share a table.
func TestFindRefuses(t *testing.T) {
	code, _, errs := runCLI(t, "find", "../../scenarios/hot-partition.yaml", "--target", "https://acct.table.core.windows.net", "--yes")
	if code != exitUsage || !strings.Contains(errs, "needs --max-rate") {
		t.Errorf("remote without --max-rate: exit %d %s", code, errs)
	}
	// With --max-rate it states the search's plan and, not on a terminal,
	// will not go on without --yes.
	code, _, errs = runCLI(t, "find", "../../scenarios/hot-partition.yaml", "--target", "https://acct.table.core.windows.net", "--max-rate", "500")
	if code != exitUsage || !strings.Contains(errs, "search for the highest rate") || !strings.Contains(errs, "at up to 500 ops/s") ||
		!strings.Contains(errs, "without --yes") {
		t.Errorf("remote without --yes: exit %d %s", code, errs)
	}
	code, _, errs = runCLI(t, "find", "../../scenarios/hot-partition.yaml", "--table", "tsx")
	if code != exitUsage || !strings.Contains(errs, "--table does not apply to find") {
		t.Errorf("--table: exit %d %s", code, errs)
	}
}
