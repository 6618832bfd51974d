package workload

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
)

// The stop watcher on the fake clock: the window's planned end is 10 s
// after the start and the grace 2 s. Each row stops the run its own way
// (or not at all) and says when the watcher must record an early stop,
// when it must cancel the operations, and when it must return.
func TestStopWatcherEndsWindowAndCancelsAfterGrace(t *testing.T) {
	const never = time.Duration(-1)
	for _, tc := range []struct {
		name string
		// stopAt ends the run by the parent context (Ctrl-C), stopOwnAt by
		// the stop's own cancel (a threshold, the target down), hardAt
		// cancels the operations (a second Ctrl-C); never: not at all.
		stopAt, stopOwnAt, hardAt time.Duration
		early                     time.Duration // the early stop recorded; never: none
		canceled                  time.Duration // when the operations are canceled
	}{
		{"at the deadline", never, never, never, never, 12 * time.Second},              // planned end, then the grace
		{"on Ctrl-C", 3 * time.Second, never, never, 3 * time.Second, 5 * time.Second}, // early stop, then the grace
		{"on the run's own stop", never, 4 * time.Second, never, 4 * time.Second, 6 * time.Second},
		{"a hard stop cuts the grace", 3 * time.Second, never, 3500 * time.Millisecond, 3 * time.Second, 3500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				parent, ctrlC := context.WithCancel(context.Background())
				defer ctrlC()
				stop, cancelStop := context.WithDeadline(parent, start.Add(10*time.Second))
				defer cancelStop()
				hard, hardStop := context.WithCancel(context.Background())
				defer hardStop()
				ops, cancelOps := context.WithCancel(hard)
				var ends []time.Duration
				w := newStopWatcher(stop, ops, cancelOps, clock.Wall{}, start.Add(10*time.Second), 2*time.Second,
					func(at time.Time) { ends = append(ends, at.Sub(start)) })
				returned := make(chan time.Duration)
				go func() {
					w.watch()
					returned <- time.Since(start)
				}()
				at := func(d time.Duration, f func()) {
					if d != never {
						time.AfterFunc(d, f)
					}
				}
				at(tc.stopAt, ctrlC)
				at(tc.stopOwnAt, cancelStop)
				at(tc.hardAt, hardStop)
				<-ops.Done()
				if got := time.Since(start); got != tc.canceled {
					t.Errorf("operations canceled at %v, want %v", got, tc.canceled)
				}
				if got := <-returned; got != tc.canceled {
					t.Errorf("watch returned at %v, want %v", got, tc.canceled)
				}
				gotAt, early := w.earlyStop()
				switch {
				case tc.early == never && (early || len(ends) != 0):
					t.Errorf("early stop recorded at %v (window end moved to %v); the run stopped at its deadline", gotAt.Sub(start), ends)
				case tc.early != never && (!early || gotAt.Sub(start) != tc.early || len(ends) != 1 || ends[0] != tc.early):
					t.Errorf("early stop %v at %v, window end moved to %v; want %v", early, gotAt.Sub(start), ends, tc.early)
				}
			})
		})
	}
}
