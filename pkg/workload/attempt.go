package workload

import (
	"context"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// retry sends a request until it succeeds, fails for good (an outcome no
// retry cures), the strategy's retries are spent, or ctx or more ends
// (more, when not nil, ending stops further attempts without cancelling the
// one in flight: the run's end). Between attempts it waits the strategy's
// backoff on clock, or the service's RetryAfter hint when that is longer
// (Cosmos DB's x-ms-retry-after-ms). observe sees every attempt's result
// (n = 0 for the first) as it arrives. It returns the last result. It is
// the one retry loop of the run, the seed phase, row counting and verify.
func retry(ctx, more context.Context, clock Clock, r plan.Retrier, st *keygen.Stream,
	send func(context.Context) table.Result, observe func(res table.Result, n int)) table.Result {
	res, _ := retrySettled(ctx, more, clock, r, st, send, observe)
	return res
}

// retrySettled is retry, which also reports whether the last result
// settled the request (settled): false when ctx or more ending stopped
// the retries a failure had left.
func retrySettled(ctx, more context.Context, clock Clock, r plan.Retrier, st *keygen.Stream,
	send func(context.Context) table.Result, observe func(res table.Result, n int)) (table.Result, bool) {
	for n := 0; ; n++ {
		res := send(ctx)
		if observe != nil {
			observe(res, n)
		}
		if settled(res, n, r) {
			return res, true
		}
		if ctx.Err() != nil || (more != nil && more.Err() != nil) {
			return res, false
		}
		wait := max(r.Backoff(n+1, st), res.RetryAfter)
		if !clock.Sleep(ctx, wait) {
			return res, false
		}
	}
}

// settled reports whether attempt n's result ends a request whatever the
// run does: it succeeded, failed with an outcome no retry cures, or spent
// the strategy's retries.
func settled(res table.Result, n int, r plan.Retrier) bool {
	return res.Outcome.Class == outcome.OK || !res.Outcome.Retryable() || res.AccessDenied() || n >= r.Retries()
}

// attempts sends the requests of one worker's operations with the run's
// retry strategy, recording every attempt: throttled answers are never
// hidden by a retry that succeeds.
type attempts struct {
	rec    *metrics.Recorder
	retry  plan.Retrier
	st     *keygen.Stream
	clock  Clock
	health *health // may be nil
	// more ends when the run stops: no retry, and no further page of a
	// query, starts after the end; the request in flight completes.
	more context.Context
	// opStart is when the operation being performed was due to start.
	opStart time.Time
	// question is 1 + the index of the question being asked, 0 for none.
	question int
}

// do sends the request made by send with the run's retry strategy and
// returns the last result. page marks query pages.
func (a *attempts) do(ctx context.Context, op metrics.Op, part string, page bool, send func(context.Context) table.Result) table.Result {
	res, _ := a.doSettled(ctx, op, part, page, send)
	return res
}

// doSettled is do, which also reports whether the last result settled the
// request (retrySettled): false when the run's end stopped its retries.
func (a *attempts) doSettled(ctx context.Context, op metrics.Op, part string, page bool, send func(context.Context) table.Result) (table.Result, bool) {
	return retrySettled(ctx, a.more, a.clock, a.retry, a.st, send, func(res table.Result, n int) {
		now := a.clock.Now()
		a.health.observe(res, opKind(op), now)
		served := 0
		if res.Outcome.Class == outcome.OK {
			served = res.Entities
		}
		a.rec.Request(metrics.Request{Op: op, Partition: part, Outcome: res.Outcome, Entities: served, Retry: n > 0, Page: page, At: now, Start: a.opStart, Question: a.question,
			Charged: res.Charged, Charge: res.Charge})
	})
}

// opKind is what an operation needs of the target: "read", or the name of
// a write (for explaining a refusal).
func opKind(op metrics.Op) string {
	if op >= metrics.Insert {
		return op.String()
	}
	return "read"
}

// stopped reports whether the run has ended (no further page may start).
func (a *attempts) stopped() bool { return a.more != nil && a.more.Err() != nil }

// Clock is the time source of a run and the way its goroutines wait (the
// wall clock, or a virtual one): see package clock.
type Clock = clock.Clock
