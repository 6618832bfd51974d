package main

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/workload"
)

// live prints progress on stderr: a status line rewritten every second on a
// terminal, a plain line every 5 seconds otherwise.
type live struct {
	e       *env
	quiet   bool
	mu      sync.Mutex
	width   int
	lastOut time.Time
}

func newLive(e *env, quiet bool) *live { return &live{e: e, quiet: quiet} }

func (l *live) events(scheme string) workload.Events {
	if l.quiet {
		return workload.Events{}
	}
	return workload.Events{
		Phase: func(p workload.Phase) {
			if p != workload.PhaseDone {
				l.line(fmt.Sprintf("[%s] %s", scheme, p), true)
			}
		},
		SeedProgress: func(done, total int64) {
			if l.due(time.Second) {
				l.line(fmt.Sprintf("[%s] seed: %d of %d rows (%.0f%%)", scheme, done, total, 100*float64(done)/float64(max(total, 1))), false)
			}
		},
		Interval: func(_ metrics.Interval, lv metrics.Live) {
			period := time.Second
			if !l.e.isTerminal {
				period = 5 * time.Second
			}
			if !l.due(period) {
				return
			}
			hot := ""
			if lv.Hottest != "" {
				hot = fmt.Sprintf("  hottest %s %d/s", shorten(lv.Hottest, 32), lv.HottestEntities)
			}
			l.line(fmt.Sprintf("[%s] %4ds  %6.0f ops/s  %7.0f entities/s  p99 %7.2fms  throttled %d  errors %d  dropped %d%s",
				scheme, lv.Second+1, lv.OpsPerSec, lv.EntitiesPerSec, lv.P99, lv.Throttled, lv.Errors, lv.Dropped, hot), false)
		},
	}
}

func (l *live) due(period time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.lastOut) < period {
		return false
	}
	l.lastOut = now
	return true
}

// line shows s: in place on a terminal, as its own line otherwise (or when
// keep asks for a line that stays).
func (l *live) line(s string, keep bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.e.isTerminal {
		fmt.Fprintln(l.e.stderr, s)
		return
	}
	pad := ""
	if n := l.width - len(s); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(l.e.stderr, "\r%s%s", s, pad)
	l.width = len(s)
	if keep {
		fmt.Fprintln(l.e.stderr)
		l.width = 0
	}
}

// done ends the status line.
func (l *live) done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.e.isTerminal && l.width > 0 {
		fmt.Fprintln(l.e.stderr)
		l.width = 0
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
