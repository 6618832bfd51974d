package workload

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
)

// Seeding a service that throttles at its targets (the model measuring
// during the seed phase, as Azure does): paced by the seed limits, 6,000
// entities of one partition go in at its 1,000 entities/s without a single
// refusal; unpaced, the same seed is throttled and retried.
func TestSeedLimitsKeepUnderTheTargets(t *testing.T) {
	const src = `
seed: 1
population:
  entities: 6000
  fields:
    order: {kind: sequence}
schemes:
  - builtin: constant
workload:
  duration: 1s
  workers: 32
  mix: [{op: point_read}]
`
	for _, tc := range []struct {
		name   string
		limits SeedLimits
	}{
		{"paced", SeedLimits{Requests: 200, PartitionEntities: 1000}},
		{"unpaced", SeedLimits{}},
	} {
		synctest.Test(t, func(t *testing.T) {
			mc := model.Default()
			mc.PartitionTarget = 1000
			// The pacing is under test, not the service time: without it
			// the seed takes exactly what the rates allow.
			mc.Latency.On = false
			srv := newServer(t, mc, faults.Config{})
			// No Measured: the service throttles the seed phase like Azure.
			c := config(t, src, TableService{Service: bubbled(t, srv, 64)}, plan.Overrides{})
			c.SeedOnly, c.SeedLimits = true, tc.limits
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			// The seed phase's own time: the check that follows counts
			// the rows with queries, which draw on the partition's
			// target too (they cost what they visit).
			s := res.Seed
			took := s.Duration
			t.Logf("%s: %d rows in %v, %d requests, %d throttled", tc.name, s.Rows, took, s.Requests, s.Throttled)
			switch tc.name {
			case "paced":
				// 6,000 entities at 1,000/s after a 100-entity burst: 5.9 s.
				if s.Throttled != 0 || s.Rows != 6000 || took < 5800*time.Millisecond || took > 6*time.Second {
					t.Errorf("paced: %d throttled, %d rows in %v; want none throttled, 6,000 rows in 5.9 s", s.Throttled, s.Rows, took)
				}
			case "unpaced":
				if s.Throttled == 0 {
					t.Errorf("unpaced: %d requests, none throttled: the test does not show what pacing prevents", s.Requests)
				}
			}
		})
	}
}
