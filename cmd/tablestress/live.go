package main

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/textfit"
	"github.com/tablestress/tablestress/pkg/workload"
)

// live prints progress on stderr: a status line rewritten every second on a
// terminal, fitted to its width so that a redraw never leaves a wrapped
// line behind; a plain line every 5 seconds otherwise.
type live struct {
	e     *env
	quiet bool
	st    textfit.Style
	// phases shows a line as each phase starts (not for find's steps).
	phases bool

	// now is the run's clock (time.Now unless set); virtual marks the
	// elapsed times of a run on a virtual clock as such.
	now     func() time.Time
	virtual bool

	mu       sync.Mutex
	shown    int // visible width of the status line on screen
	lastOut  time.Time
	phase    workload.Phase
	warmFrom time.Time
}

// defaultTermWidth is assumed for a terminal whose width is unknown.
const defaultTermWidth = 80

func newLive(e *env, quiet bool) *live {
	st := e.errStyle()
	if e.errTerminal && st.Width == 0 && !e.wide {
		st.Width = defaultTermWidth
	}
	return &live{e: e, quiet: quiet, st: st, phases: true, now: time.Now}
}

// onClock makes l read the run's clock c.
func (l *live) onClock(c clock.Clock) {
	l.now, l.virtual = c.Now, clock.IsVirtual(c)
}

// span is how long the warm-up and the measured run last, for "3s/25s".
type span struct{ warmup, run time.Duration }

func (l *live) events(scheme string, sp span) workload.Events {
	if l.quiet {
		return workload.Events{}
	}
	tag := "[" + scheme + "] "
	return workload.Events{
		Phase: func(p workload.Phase) {
			l.mu.Lock()
			l.phase = p
			if p == workload.PhaseWarmup {
				l.warmFrom = l.now()
			}
			l.mu.Unlock()
			if p != workload.PhaseDone && l.phases {
				l.line(tag+p.String(), nil, true)
			}
		},
		SeedProgress: func(done, total int64) {
			if l.phases && l.due(time.Second) {
				l.line(tag+"seed", []string{fmt.Sprintf("%s of %s rows (%.0f%%)", textfit.Int(done), textfit.Int(total), 100*float64(done)/float64(max(total, 1)))}, false)
			}
		},
		Interval: func(_ metrics.Interval, lv metrics.Live) {
			period := time.Second
			if !l.e.errTerminal {
				period = 5 * time.Second
			}
			if !l.due(period) {
				return
			}
			l.mu.Lock()
			warming, from := l.phase == workload.PhaseWarmup, l.warmFrom
			l.mu.Unlock()
			if warming {
				l.line(tag+"warming up", []string{elapsed(l.now().Sub(from), sp.warmup) + l.virtualTag()}, false)
				return
			}
			l.line(tag+elapsed(time.Duration(lv.Second+1)*time.Second, sp.run)+l.virtualTag(), liveParts(lv, l.st), false)
		},
	}
}

// virtualTag marks the elapsed time of a run on a virtual clock.
func (l *live) virtualTag() string {
	if l.virtual {
		return " virtual"
	}
	return ""
}

// liveParts are the figures of the status line, most important first: the
// line keeps as many as fit.
func liveParts(lv metrics.Live, st textfit.Style) []string {
	throttled := "throttled " + textfit.Int(lv.Throttled)
	if lv.Throttled > 0 {
		throttled = st.Paint(throttled, textfit.Yellow)
	}
	parts := []string{
		textfit.Rate(lv.OpsPerSec) + " ops/s",
		textfit.Rate(lv.EntitiesPerSec) + " entities/s",
		throttled,
		"p99 " + textfit.Float(lv.P99) + "ms",
		"errors " + textfit.Int(lv.Errors),
		"failed " + textfit.Int(lv.Failed),
		"dropped " + textfit.Int(lv.Dropped),
	}
	if lv.Hottest != "" {
		parts = append(parts, fmt.Sprintf("hottest %s %s/s", textfit.TruncateMiddle(lv.Hottest, 32), textfit.Int(lv.HottestEntities)))
	}
	return parts
}

// elapsed is "3s/25s", "75s/2m".
func elapsed(d, total time.Duration) string {
	t := total.Round(time.Second).String()
	t = strings.Replace(strings.Replace(t, "m0s", "m", 1), "h0m", "h", 1)
	return fmt.Sprintf("%ds/%s", int(d/time.Second), t)
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

// fit joins head and as many of parts as fit in max columns (0: all).
func fit(head string, parts []string, max int) string {
	s := head
	for _, p := range parts {
		next := s + "  " + p
		if max > 0 && textfit.Len(next) > max {
			break
		}
		s = next
	}
	if max > 0 && textfit.Len(s) > max {
		s = textfit.Truncate(s, max)
	}
	return s
}

// line shows head and what fits of parts: in place on a terminal (one
// column short of its width, so the cursor never wraps), as its own line
// otherwise (or when keep asks for a line that stays).
func (l *live) line(head string, parts []string, keep bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.e.errTerminal {
		fmt.Fprintln(l.e.stderr, fit(head, parts, l.st.Width))
		return
	}
	room := 0
	if l.st.Width > 0 {
		room = l.st.Width - 1
	}
	s := fit(head, parts, room)
	n := textfit.Len(s)
	pad := strings.Repeat(" ", max(l.shown-n, 0))
	fmt.Fprintf(l.e.stderr, "\r%s%s", s, pad)
	l.shown = n
	if keep {
		fmt.Fprintln(l.e.stderr)
		l.shown = 0
	}
}

// keep prints s as lines that stay, wrapped to the width and in colour c,
// replacing the status line.
func (l *live) keep(s string, c textfit.Color) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.e.errTerminal {
		fmt.Fprintf(l.e.stderr, "\r%s\r", strings.Repeat(" ", l.shown))
		l.shown = 0
	}
	for _, line := range textfit.Wrap(s, l.st.Width, "    ") {
		fmt.Fprintln(l.e.stderr, l.st.Paint(line, c))
	}
}

// done ends the status line.
func (l *live) done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.e.errTerminal && l.shown > 0 {
		fmt.Fprintln(l.e.stderr)
		l.shown = 0
	}
}
