package plan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
)

const rampScenario = `
name: ramp
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
  warmup: 2s
  workers: 8
  %s
  stages: [{duration: 3s, rate: 50}, {duration: 6s, rate: 100}]
  mix:
    - {op: point_read, weight: 1}
`

// Build is the one translation from a scenario and the command line to a
// run; each row is an override and what the run then does.
func TestBuildAppliesOverrides(t *testing.T) {
	ptr := func(v float64) *float64 { return &v }
	tests := []struct {
		name     string
		rate     string // the workload's rate line
		o        Overrides
		open     bool
		rate0    float64
		stages   []Stage
		duration time.Duration
		warmRate float64
		note     string
	}{
		{"stages as written", "", Overrides{}, true, 0, []Stage{{3 * time.Second, 50}, {6 * time.Second, 100}}, 9 * time.Second, 50, ""},
		{"a start rate", "rate: 20", Overrides{}, true, 20, []Stage{{3 * time.Second, 50}, {6 * time.Second, 100}}, 9 * time.Second, 20, ""},
		// --duration on a ramp keeps the ramp (it once became a closed loop at 8,183 ops/s).
		{"--duration scales the stages", "", Overrides{Duration: 3 * time.Second}, true, 0, []Stage{{time.Second, 50}, {2 * time.Second, 100}}, 3 * time.Second, 50, "scaled the scenario's 2 stage(s) from 9s to 3s"},
		{"--rate replaces them", "", Overrides{Rate: ptr(70)}, true, 70, nil, 9 * time.Second, 70, "replaced the scenario's 2 stage(s) with a constant 70 ops/s"},
		{"--rate 0 is a closed loop", "", Overrides{Rate: ptr(0)}, false, 0, nil, 9 * time.Second, 0, "with a closed loop"},
		{"a shard takes its share", "rate: 20", Overrides{Shard: 1, Shards: 2}, true, 10, []Stage{{3 * time.Second, 25}, {6 * time.Second, 50}}, 9 * time.Second, 10, "one of 2 shards"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := build(t, fmt.Sprintf(rampScenario, tt.rate), tt.o)
			l := sp.Load
			if l.Open != tt.open || l.Rate != tt.rate0 || fmt.Sprint(l.Stages) != fmt.Sprint(tt.stages) || sp.Duration != tt.duration || l.WarmupRate != tt.warmRate {
				t.Errorf("load %+v over %v; want open %v from %v through %v over %v, warm-up at %v", l, sp.Duration, tt.open, tt.rate0, tt.stages, tt.duration, tt.warmRate)
			}
			if notes := strings.Join(sp.Notes, "; "); !strings.Contains(notes, tt.note) || (tt.note == "") != (notes == "") {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
			if p := sp.Pacer(); tt.open && p.Total() != sp.Warmup+sp.Duration {
				t.Errorf("the schedule lasts %v, want the warm-up and the measured %v", p.Total(), sp.Duration)
			}
		})
	}
}

// Overrides are validated like the file: an impossible combination is an
// error, not a run.
func TestBuildRefusesWhatCannotRun(t *testing.T) {
	src := fmt.Sprintf(rampScenario, "")
	sc, _ := scenario.Parse("ramp.yaml", []byte(src))
	if _, err := Build(sc, nil, Overrides{Shard: 2, Shards: 2}); !errors.Is(err, ErrOverride) {
		t.Errorf("shard 2 of 2: %v", err)
	}
	zero := int64(0)
	if _, err := Build(sc, nil, Overrides{Entities: &zero}); err == nil || !strings.Contains(err.Error(), "entities") {
		t.Errorf("reads with nothing seeded: %v", err)
	}
	if sc.Workload.Stages[0].Duration != scenario.Duration(3*time.Second) {
		t.Error("Build changed the scenario it was given")
	}
}

// The scenario file's operation names are the metrics' operations, in the
// same order: the run maps one onto the other.
func TestScenarioOpsAreMetricsOps(t *testing.T) {
	if len(scenario.Ops) != int(metrics.NumOps) {
		t.Fatalf("%d scenario operations, %d metrics operations", len(scenario.Ops), metrics.NumOps)
	}
	for i, name := range scenario.Ops {
		if op, err := metrics.ParseOp(name); err != nil || op != metrics.Op(i) {
			t.Errorf("%s: %v, %v; want operation %d", name, op, err, i)
		}
	}
}

// build builds the run of a scenario source with overrides: the one path
// the command line takes too.
func build(t testing.TB, src string, o Overrides) *Spec {
	t.Helper()
	sc, errs := scenario.Parse("it.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sp, err := Build(sc, []byte(src), o)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}
