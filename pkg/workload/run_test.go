package workload

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
)

// rampScenario is a ramp of two stages after a warm-up (%s: the
// workload's rate line).
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

// max_operations counts the measured operations: the warm-up's do not use
// the budget (they once used all of it, and the run measured nothing).
func TestMaxOpsCountsMeasuredOperations(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	n := int64(60)
	for _, loop := range []string{"rate: 200", ""} {
		c := config(t, fmt.Sprintf(accountingScenario, loop, "none"), embedded(t, in, 8),
			plan.Overrides{MaxOps: &n, Warmup: durationOf(time.Second), Duration: time.Minute})
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Summary
		if got := s.Totals.Ops + s.Totals.Dropped; got != n {
			t.Errorf("%q: %d operations measured (%d dropped), want %d", loop, got, s.Totals.Dropped, n)
		}
		if s.Duration() >= time.Minute || s.Duration() <= 0 {
			t.Errorf("%q: measured %v, want the time the %d operations took", loop, s.Duration(), n)
		}
	}
}

// A ramp with a warm-up measures the whole ramp after the warm-up, at the
// ramp's rates, and the report records the stages.
func TestRampRunsAfterWarmup(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	c := config(t, fmt.Sprintf(rampScenario, ""), embedded(t, in, 8), plan.Overrides{Duration: 3 * time.Second, Warmup: durationOf(time.Second)})
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	rep := c.Report(res, nil, Meta{})
	// 1 s from 0 to 50/s, then 2 s from 50 to 100/s: 25 + 150 operations.
	if rep.DurationS < 2.9 || rep.DurationS > 3.1 || rep.Totals.Ops+rep.Totals.Dropped < 170 || rep.Totals.Ops+rep.Totals.Dropped > 180 {
		t.Errorf("measured %.2f s, %d operations; want 3 s and the ramp's 175", rep.DurationS, rep.Totals.Ops+rep.Totals.Dropped)
	}
	if rep.Run.Mode != "open" || len(rep.Run.Stages) != 2 || rep.Run.Stages[1].Rate != 100 || rep.Run.WarmupRate != 50 || len(rep.Intervals) != 3 {
		t.Errorf("run %+v, %d intervals", rep.Run, len(rep.Intervals))
	}
}
