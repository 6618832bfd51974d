package report

import (
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// limited is an open-loop run of 10 s at 40,000 ops/s offered that
// completed 32,000 a second for 5 s and 30,000 for the rest, dropping the
// remainder, with a client section of busy (the process's share of its 2
// cores), machine busy and workers started of 1,000.
func limited(busy, machine float64, workers int) *Report {
	r := &Report{DurationS: 10, Run: RunInfo{Mode: "open", Workers: 1000, Rate: 40000}}
	for s := range 10 {
		ops := int64(30000)
		if s >= 3 && s < 8 {
			ops = 32000
		}
		r.Intervals = append(r.Intervals, Interval{Second: s, Counts: metrics.Counts{Ops: ops}})
		r.Totals.Ops += ops
	}
	r.Totals.Dropped = 400000 - r.Totals.Ops
	r.Totals.Requests = r.Totals.Ops
	r.Totals.OpsPerSec = float64(r.Totals.Ops) / 10
	r.Totals.Status = map[string]int64{"200": r.Totals.Ops}
	r.Totals.Latency.P90 = 2
	r.Client = &Client{Cores: 2, Busy: busy, MachineBusy: &machine, Workers: workers, WithService: true}
	return r
}

// A run that dropped work is a client limit when the client ran out of
// CPU, the machine's CPU was taken, or every worker was busy, in that
// order; not when the target refused requests, the run did not drop, the
// loop was closed, or the client had CPU and workers to spare. The rate
// sustained is the best five consecutive seconds.
func TestJudgeClient(t *testing.T) {
	throttled := limited(0.97, 0.99, 1000)
	throttled.Totals.Throttled = throttled.Totals.Requests / 10
	calm := limited(0.97, 0.99, 1000)
	calm.Totals.Dropped = 100 // 0.03%
	closed := limited(0.97, 0.99, 1000)
	closed.Run.Mode = "closed"
	// On a virtual clock the process's and the machine's CPU say nothing:
	// what dropped work found every worker busy.
	virtual := limited(0.97, 0.99, 40)
	virtual.Run.Clock = "virtual"
	for _, tt := range []struct {
		name  string
		r     *Report
		cause string
		help  string
	}{
		{"out of CPU", limited(0.97, 0.99, 40), "cpu", "tablestress and the embedded service in its process kept 97% of its 2 cores busy: split the load over 2 machines"},
		{"the machine taken", limited(0.4, 0.99, 40), "machine", "other processes kept the machine's CPUs busy (99% busy, tablestress 40% of its 2 cores)"},
		{"out of workers", limited(0.4, 0.5, 1000), "workers", "all 1,000 workers were busy"},
		{"out of workers on a busy machine, the process nearly idle", limited(0.01, 0.99, 1000), "workers", "all 1,000 workers were busy"},
		{"workers and CPU spare", limited(0.4, 0.5, 40), "", ""},
		{"a virtual clock, the machine taken", virtual, "workers", "all 1,000 workers were busy"},
		{"the target throttled", throttled, "", ""},
		{"under 1% dropped", calm, "", ""},
		{"closed loop", closed, "", ""},
	} {
		l := JudgeClient(tt.r)
		if tt.cause == "" {
			if l != nil {
				t.Errorf("%s: %+v, want no client limit", tt.name, l)
			}
			continue
		}
		if l == nil || l.Cause != tt.cause || !strings.HasPrefix(l.Help, tt.help) {
			t.Errorf("%s: %+v, want cause %s, help %q...", tt.name, l, tt.cause, tt.help)
			continue
		}
		if l.OfferedOpsPerSec != 40000 || l.SustainedOpsPerSec != 32000 {
			t.Errorf("%s: offered %v, sustained %v; want 40,000 and 32,000", tt.name, l.OfferedOpsPerSec, l.SustainedOpsPerSec)
		}
		tt.r.Client.Limit = l
		if a := DroppedAdvice(tt.r); !strings.Contains(a, "client limit: the client could not offer 40,000 ops/s") || !strings.Contains(a, "sustained at most 32,000 ops/s (80% of it, 8,000 short)") {
			t.Errorf("%s: advice %q", tt.name, a)
		}
	}
}

// A client that kept the rate over its best seconds but fell behind in
// bursts (pauses of its process) is a client limit that says so, with the
// rate it achieved over the run, never a negative shortfall; the help
// always names at least two machines.
func TestJudgeClientInBursts(t *testing.T) {
	r := &Report{DurationS: 10, Run: RunInfo{Mode: "open", Workers: 1000, Rate: 40000}}
	for s := range 10 {
		ops := int64(40100) // a little over: the seconds after a burst catch up
		if s == 7 {
			ops = 20000
		}
		r.Intervals = append(r.Intervals, Interval{Second: s, Counts: metrics.Counts{Ops: ops}})
		r.Totals.Ops += ops
	}
	r.Totals.Dropped = 400000 - r.Totals.Ops // 19,100: what second 7 dropped, less what the others caught up
	r.Totals.Requests = r.Totals.Ops
	r.Totals.OpsPerSec = float64(r.Totals.Ops) / 10
	r.Totals.Status = map[string]int64{"200": r.Totals.Ops}
	r.Client = &Client{Cores: 2, Busy: 0.97, Workers: 1000, WithService: true}
	l := JudgeClient(r)
	if l == nil || l.Cause != "cpu" {
		t.Fatalf("got %+v, want a client limit, cpu", l)
	}
	if l.AchievedOpsPerSec != 38090 || l.SustainedOpsPerSec < l.OfferedOpsPerSec {
		t.Errorf("achieved %v, sustained %v, offered %v; want 38,090 achieved and the sustained rate over the offered", l.AchievedOpsPerSec, l.SustainedOpsPerSec, l.OfferedOpsPerSec)
	}
	s := l.Sentence()
	for _, want := range []string{"could not offer 40,000 ops/s throughout, it ran out of CPU in bursts", "achieved 38,090 ops/s over the run (95.2% of it, 1,910 short)", "split the load over 2 machines"} {
		if !strings.Contains(s, want) {
			t.Errorf("sentence %q, want %q in it", s, want)
		}
	}
	if strings.Contains(s, ", -") {
		t.Errorf("sentence %q states a negative shortfall", s)
	}
}
