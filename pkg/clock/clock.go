package clock

import (
	"context"
	"time"
)

// Clock is the time source of a run and the way its goroutines wait.
// Wall and *Virtual implement it. Its methods are safe for concurrent use
// by the goroutines that may use them (see the package doc for Virtual's
// rules).
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// Sleep waits d, or until ctx is done; it reports whether d elapsed
	// (a d of zero or less returns at once, true unless ctx is done).
	Sleep(ctx context.Context, d time.Duration) bool
	// Until waits until t, or until one of done is closed; it reports
	// whether t came first. A nil channel in done never closes; a zero t
	// never comes (Until then waits for a channel alone).
	Until(t time.Time, done ...<-chan struct{}) bool
	// Go runs f on a goroutine of the clock's.
	Go(f func())
	// WithDeadline is context.WithDeadline on this clock: the context
	// ends at d, with context.Cause DeadlineExceeded (on a Virtual clock
	// its Err is then context.Canceled: test its cause).
	WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc)
}

// IsVirtual reports whether c is a virtual clock.
func IsVirtual(c Clock) bool {
	_, ok := c.(*Virtual)
	return ok
}

// TimedOut reports whether ctx ended at a deadline (of any clock) rather
// than by a cancellation.
func TimedOut(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded
}
