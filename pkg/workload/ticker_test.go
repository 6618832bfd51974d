package workload

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/table"
)

// tickerRun is what a phaseTicker did over a run on the fake clock: the
// seconds (from the phase's start) of its ticks, of the phases it entered
// and of its calls to stop, and its result.
type tickerRun struct {
	ticks, stops []time.Duration
	phases       map[Phase]time.Duration
	res          phaseResult
}

// runTicker runs a ticker of a phase with the warm-up and health h (made
// at the phase's start, the bubble's time 0) for the length of the phase,
// after setup (which may change the ticker and schedule events on h).
func runTicker(t *testing.T, c *Config, length time.Duration, setup func(*phaseTicker, *health, time.Time)) tickerRun {
	t.Helper()
	start := time.Now()
	var r tickerRun
	r.phases = map[Phase]time.Duration{}
	c.Clock = clock.Wall{}
	c.Events.Interval = func(metrics.Interval, metrics.Live) { r.ticks = append(r.ticks, time.Since(start)) }
	c.Events.Phase = func(p Phase) { r.phases[p] = time.Since(start) }
	h := newHealth(start)
	if !c.Reconnect {
		h.watchDenied()
	}
	measureFrom := start.Add(c.Warmup)
	reg := metrics.NewRegistry(metrics.Options{Start: measureFrom})
	tk := c.newPhaseTicker(reg, h, start, measureFrom, func() { r.stops = append(r.stops, time.Since(start)) })
	if setup != nil {
		setup(tk, h, start)
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		tk.run(done)
		close(exited)
	}()
	time.Sleep(length)
	close(done)
	<-exited
	r.res = tk.result(time.Now())
	return r
}

func tickerConfig(warmup time.Duration) *Config {
	return &Config{Spec: &plan.Spec{Scenario: &scenario.Scenario{}, Warmup: warmup}}
}

// seconds lists whole seconds as durations.
func seconds(s ...int) []time.Duration {
	out := make([]time.Duration, len(s))
	for k, n := range s {
		out[k] = time.Duration(n) * time.Second
	}
	return out
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// Over 5.5 s of a phase with a 2.5 s warm-up, the ticker ticks on each whole
// second of the phase (5 ticks: the warm-up's end is no tick and shifts
// none, and a tick whose work takes 300 ms delays none of the next),
// enters the warm-up at once and the run at 2.5 s, and stops nothing.
func TestPhaseTickerTicksEachSecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := runTicker(t, tickerConfig(2500*time.Millisecond), 5500*time.Millisecond, func(tk *phaseTicker, _ *health, _ time.Time) {
			report := tk.c.Events.Interval
			tk.c.Events.Interval = func(iv metrics.Interval, l metrics.Live) {
				report(iv, l)
				time.Sleep(300 * time.Millisecond) // a slow consumer of the live figures
			}
		})
		if !equalDurations(r.ticks, seconds(1, 2, 3, 4, 5)) {
			t.Errorf("ticks at %v, want each whole second 1-5 s", r.ticks)
		}
		if w, ok := r.phases[PhaseWarmup]; !ok || w != 0 || r.phases[PhaseRun] != 2500*time.Millisecond {
			t.Errorf("phases entered %v, want the warm-up at 0 and the run at 2.5 s", r.phases)
		}
		if len(r.stops) != 0 || r.res.down != "" || r.res.aborted != "" || len(r.res.outages) != 0 {
			t.Errorf("stops %v, result %+v: nothing should stop a quiet phase", r.stops, r.res)
		}
	})
}

// The target's last answer is the phase's start and a request fails at
// 0.5 s: with DownAfter 2 s, the verdict of 2 s finds it down and stops the
// run, once, saying why.
func TestPhaseTickerStopsWhenTargetDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := tickerConfig(0)
		c.DownAfter = 2 * time.Second
		r := runTicker(t, c, 4500*time.Millisecond, func(_ *phaseTicker, h *health, start time.Time) {
			h.observe(table.Result{Outcome: outcome.Outcome{Class: outcome.Transport}, Err: errors.New("boom")}, "read", start.Add(500*time.Millisecond))
		})
		if !equalDurations(r.stops, seconds(2)) || r.res.down != "the target stopped answering 2s ago: boom" {
			t.Errorf("stops at %v, down %q; want one stop at 2 s for the 2 s of silence", r.stops, r.res.down)
		}
	})
}

// With Reconnect and DownAfter 1 s: the target answers at 1.25 s, a request
// fails at 1.3 s, it answers again from 4.5 s on. The verdict of 3 s finds it
// down, that of 5 s up: one outage from its last answer (1.25 s) to 5 s,
// and the run goes on.
func TestPhaseTickerRecordsOutageWithReconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := tickerConfig(0)
		c.DownAfter, c.Reconnect = time.Second, true
		ok := table.Result{Outcome: outcome.Outcome{Class: outcome.OK, Status: 200}}
		r := runTicker(t, c, 6500*time.Millisecond, func(_ *phaseTicker, h *health, start time.Time) {
			h.observe(ok, "read", start.Add(1250*time.Millisecond))
			h.observe(table.Result{Outcome: outcome.Outcome{Class: outcome.Transport}, Err: errors.New("boom")}, "read", start.Add(1300*time.Millisecond))
			go func() { // answers every 100 ms from 4.5 s to the end
				time.Sleep(4500 * time.Millisecond)
				for ; time.Since(start) < 6500*time.Millisecond; time.Sleep(100 * time.Millisecond) {
					h.observe(ok, "read", time.Now())
				}
			}()
		})
		if len(r.stops) != 0 || r.res.down != "" {
			t.Errorf("stops %v, down %q: Reconnect rides out the outage", r.stops, r.res.down)
		}
		want := Outage{Start: 1250 * time.Millisecond, End: 5 * time.Second}
		if len(r.res.outages) != 1 || r.res.outages[0].Start != want.Start || r.res.outages[0].End != want.End || r.res.outages[0].Cause == "" {
			t.Errorf("outages %+v, want one from 1.25 s to 5 s with a cause", r.res.outages)
		}
	})
}

// An abort_on_fail threshold that fails on the second check stops the run
// at the tick of 2 s, with its reason, and is not checked again.
func TestPhaseTickerAbortsOnceAtFailingTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		checks := 0
		r := runTicker(t, tickerConfig(0), 4500*time.Millisecond, func(tk *phaseTicker, _ *health, _ time.Time) {
			tk.abort = func(*metrics.Summary) string {
				if checks++; checks == 2 {
					return "threshold failed"
				}
				return ""
			}
		})
		if !equalDurations(r.stops, seconds(2)) || r.res.aborted != "threshold failed" || checks != 2 {
			t.Errorf("stops at %v, aborted %q after %d checks; want one stop at 2 s after 2 checks", r.stops, r.res.aborted, checks)
		}
	})
}
