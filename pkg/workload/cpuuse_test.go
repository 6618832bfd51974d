package workload

import (
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/report"
)

// The machine's busy share comes from /proc/stat's first line: idle and
// iowait are idle, the rest (user, nice, system, irq, softirq, steal)
// busy, guest time not counted twice; another form is unknown.
func TestStatTicks(t *testing.T) {
	for _, tt := range []struct {
		line        string
		busy, total uint64
	}{
		{"cpu  100 5 50 800 20 3 2 10 7 0", 170, 990},
		{"cpu 1 2 3", 0, 0},                   // too few fields
		{"cpu 1 2 3 4", 6, 10},                // an old kernel: no iowait
		{"cpu0 100 5 50 800 20 3 2 10", 0, 0}, // one CPU's line, not the machine's
		{"cpu  1 x 3 4 5", 0, 0},
	} {
		if b, tot := statTicks([]byte(tt.line)); b != tt.busy || tot != tt.total {
			t.Errorf("%q: busy %d of %d, want %d of %d", tt.line, b, tot, tt.busy, tt.total)
		}
	}
}

// A run's report says what CPU it used: the process's time, per
// operation, and as a share of its cores over the window; the machine's
// share when known.
func TestClientReport(t *testing.T) {
	res := &Result{CPU: CPUUse{Process: 3 * time.Second, Wall: 2 * time.Second, Cores: 2, MachineBusy: 0.9}, Workers: 40}
	rep := &report.Report{}
	rep.Totals.Ops = 60_000
	c := clientReport(res, rep, true)
	if c == nil || c.CPUSeconds != 3 || c.Cores != 2 || c.Busy != 0.75 || c.MachineBusy == nil || *c.MachineBusy != 0.9 ||
		c.CPUPerOpUs != 50 || c.Workers != 40 || !c.WithService {
		t.Errorf("client %+v", c)
	}
	res.CPU.MachineBusy = -1
	if c := clientReport(res, rep, false); c.MachineBusy != nil || c.WithService {
		t.Errorf("unknown machine: %+v", c)
	}
	if c := clientReport(&Result{}, rep, false); c != nil {
		t.Errorf("a run phase that never measured: %+v", c)
	}
}
