package workload

import (
	"context"
	"sync/atomic"
	"time"
)

// stopWatcher turns the run phase's stop into the end of its measured
// window and, a grace period later, the cancellation of the operations
// still in flight (k6's graceful stop).
//
// Its contract, once watch runs on a goroutine of its own:
//   - when stop ends before the deadline (Ctrl-C, or the run's own stop: an
//     abort_on_fail threshold, the target down, max_operations), the
//     watcher records that instant as the early stop and moves the
//     window's end there (setEnd); when stop ends at the deadline, nothing
//     is recorded and the window keeps its planned end;
//   - grace after stop ended, it cancels the operations (cancelOps), unless
//     ops ended first (a second Ctrl-C, or the phase returning), when it
//     returns at once.
//
// earlyStop may be called from any goroutine.
type stopWatcher struct {
	stop      context.Context // ends the window: its deadline is the planned end
	ops       context.Context // the operations' context, canceled by cancelOps
	cancelOps context.CancelFunc
	clock     Clock
	deadline  time.Time
	grace     time.Duration
	setEnd    func(time.Time) // moves the window's end (metrics.Registry.SetEnd)

	stoppedAt atomic.Int64  // unix ns of an early stop, 0 if none
	seen      chan struct{} // closed once stoppedAt holds the stop
}

// newStopWatcher returns the watcher of stop, which ends at deadline at
// the latest, for operations running in ops (canceled by cancelOps).
func newStopWatcher(stop, ops context.Context, cancelOps context.CancelFunc, clock Clock, deadline time.Time, grace time.Duration, setEnd func(time.Time)) *stopWatcher {
	return &stopWatcher{stop: stop, ops: ops, cancelOps: cancelOps, clock: clock, deadline: deadline, grace: grace,
		setEnd: setEnd, seen: make(chan struct{})}
}

// watch waits for the stop, records it, gives the operations in flight the
// grace period and cancels them; it returns once it has.
func (w *stopWatcher) watch() {
	w.clock.Until(time.Time{}, w.stop.Done())
	if now := w.clock.Now(); now.Before(w.deadline) {
		w.stoppedAt.Store(now.UnixNano())
		w.setEnd(now)
	}
	close(w.seen)
	w.clock.Until(w.clock.Now().Add(w.grace), w.ops.Done())
	w.cancelOps()
}

// earlyStop returns when the run stopped before its deadline, and whether
// it did. Once stop has ended it waits for watch to have recorded it (a
// loaded machine may schedule the watcher after the workers saw the stop).
func (w *stopWatcher) earlyStop() (time.Time, bool) {
	if w.stop.Err() != nil {
		w.clock.Until(time.Time{}, w.seen)
	}
	if ns := w.stoppedAt.Load(); ns != 0 {
		return time.Unix(0, ns), true
	}
	return time.Time{}, false
}
