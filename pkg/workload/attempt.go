package workload

import (
	"context"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/table"
)

// attempts sends one request with the run's retry strategy, recording every
// attempt: throttled answers are never hidden by a retry that succeeds.
type attempts struct {
	rec    *metrics.Recorder
	retry  Retrier
	st     *keygen.Stream
	clock  Clock
	health *health // may be nil
}

// do sends the request made by send until it succeeds, fails for good, or the
// retries are spent, and returns the last result. page marks query pages.
func (a *attempts) do(ctx context.Context, op metrics.Op, part string, page bool, send func(context.Context) table.Result) table.Result {
	for n := 0; ; n++ {
		res := send(ctx)
		now := a.clock.Now()
		a.health.observe(res, now)
		served := 0
		if res.Outcome.Class == outcome.OK {
			served = res.Entities
		}
		a.rec.Request(metrics.Request{Op: op, Partition: part, Outcome: res.Outcome, Entities: served, Retry: n > 0, Page: page, At: now})
		if res.Outcome.Class == outcome.OK || !res.Outcome.Retryable() || n >= a.retry.Retries() || ctx.Err() != nil {
			return res
		}
		wait := a.retry.Backoff(n+1, a.st)
		if res.RetryAfter > wait {
			wait = res.RetryAfter // Cosmos DB's x-ms-retry-after-ms
		}
		if !a.clock.Sleep(ctx, wait) {
			return res
		}
	}
}

// Clock is the time source of a run, injectable for tests.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done; it reports whether d elapsed.
	Sleep(ctx context.Context, d time.Duration) bool
	// After returns a channel that receives after d.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// After implements Clock.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Sleep implements Clock.
func (RealClock) Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
