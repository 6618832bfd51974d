package workload

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/report"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// The search's next rate: up by the factor while steps pass (to the
// ceiling), down while they fail, then halfway until within precision.
func TestNextRate(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		lo, hi, max float64
		next        float64
		done        bool
	}{
		{120, inf, 0, 240, false},       // passing: double
		{240, inf, 300, 300, false},     // up to the ceiling
		{300, inf, 300, 0, true},        // the ceiling passed
		{0, 120, 0, 60, false},          // failing: halve
		{0, 0.8, 0, 0, true},            // nothing sustained down to the floor
		{30, 60, 0, 45, false},          // bisect
		{39.375, 41.25, 0, 0, true},     // within 5%
		{37.5, 41.25, 0, 39.375, false}, // 10% apart: bisect again
	} {
		next, done := nextRate(tc.lo, tc.hi, 2, 0.05, tc.max)
		if next != tc.next || done != tc.done {
			t.Errorf("nextRate(%v, %v, max %v) = %v, %v; want %v, %v", tc.lo, tc.hi, tc.max, next, done, tc.next, tc.done)
		}
	}
}

// find on the hot-partition scenario, on Azure's model inside a synctest
// bubble (exact rates): the constant PartitionKey sustains its partition's
// 2,000 entities/s target (within 10%) and is limited by that partition;
// the same stream over 16 hash buckets sustains far more (here up to the
// search's ceiling of 240 transactions/s, 12,000 entities/s, six times
// constant's limit).
func TestFindHotPartitionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, model.Default(), faults.Config{})
		svc := TableService{Service: bubbled(t, srv, 64), Measured: srv}
		src := readScenario(t, "hot-partition.yaml")
		sc, errs := scenario.Parse("hot-partition.yaml", []byte(src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		limits := map[string]*report.Find{}
		for i, sch := range sc.Schemes {
			s := &Search{Scenario: sc, Source: []byte(src), Scheme: i, Template: Config{Service: svc}, MaxRate: 240,
				Overrides: plan.Overrides{Duration: 2 * time.Second, Warmup: durationOf(time.Second)}}
			rep, err := s.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if rep == nil || rep.Find == nil || len(rep.Find.Steps) < 2 {
				t.Fatalf("%s: no search in the report: %+v", sch.Name, rep)
			}
			limits[sch.Name] = rep.Find
			// The report is the run at the limit, and it passed.
			if rep.Run.Rate != rep.Find.LimitOpsPerSec || rep.Totals.Throttled > rep.Totals.Requests/100 {
				t.Errorf("%s: the report ran at %v ops/s with %d of %d requests throttled; the limit is %v",
					sch.Name, rep.Run.Rate, rep.Totals.Throttled, rep.Totals.Requests, rep.Find.LimitOpsPerSec)
			}
		}
		c, h := limits["constant"], limits["hash-buckets"]
		t.Logf("constant: %s\n%+v\nhash-buckets: %s\n%+v", c.Sentence(), c.Steps, h.Sentence(), h.Steps)
		if c.LimitEntitiesPerSec < 1800 || c.LimitEntitiesPerSec > 2200 || c.Ceiling || !strings.Contains(c.LimitedBy, "partition target (Orders)") {
			t.Errorf("constant: %s (limit %v entities/s, limited by %q); want 2,000 ± 10%% by the Orders partition\n%+v",
				c.Sentence(), c.LimitEntitiesPerSec, c.LimitedBy, c.Steps)
		}
		if c.FailedAtOpsPerSec <= c.LimitOpsPerSec || (c.FailedAtOpsPerSec-c.LimitOpsPerSec)/c.LimitOpsPerSec > 0.05 {
			t.Errorf("constant: passed at %v, failed at %v ops/s: the bisection did not close to 5%%", c.LimitOpsPerSec, c.FailedAtOpsPerSec)
		}
		if h.LimitEntitiesPerSec < 5*c.LimitEntitiesPerSec || !h.Ceiling {
			t.Errorf("hash-buckets: %s; want at least five times constant's %v, up to the ceiling", h.Sentence(), c.LimitEntitiesPerSec)
		}
	})
}

// A step that dropped work fails, and says why: a client limit (the
// client ran out of CPU, and what it sustained) as its own outcome,
// distinct from a partition's or the account's; without one, when the
// client measured its CPU and had some to spare, the target stalled. The
// search's limit then names it.
func TestFindStepDroppedByTheClient(t *testing.T) {
	rep := &report.Report{Run: report.RunInfo{Mode: "open"}}
	rep.Totals.Ops, rep.Totals.Dropped, rep.Totals.Requests = 9000, 1000, 9000
	rule := StopRule{}
	rep.Client = &report.Client{Busy: 0.3, Cores: 2, Workers: 8}
	stalled := rule.judge(rep)
	if !strings.HasSuffix(stalled, "the target stalled at times (the client had CPU and workers to spare)") {
		t.Errorf("no client limit: %q", stalled)
	}
	rep.Client = &report.Client{Limit: &report.ClientLimit{Cause: "cpu", OfferedOpsPerSec: 1000, SustainedOpsPerSec: 900, Help: "split the load"}}
	why := rule.judge(rep)
	if !strings.HasPrefix(why, "10% of the operations offered were dropped: client limit: the client could not offer 1,000 ops/s, it ran out of CPU: it sustained at most 900 ops/s") {
		t.Errorf("client limit: %q", why)
	}
	if got := rule.limitedBy(rep, why); got != why {
		t.Errorf("limited by %q, want the step's reason", got)
	}
}
