package report

import (
	"fmt"
	"math"
)

// DroppedShare is the share of the operations offered (run or dropped)
// dropped above which the report explains the drops and what to change.
const DroppedShare = 0.01

// DroppedAdvice explains dropped operations over DroppedShare of a run and
// says what to change, with the figures that decide it; "" when there are
// not that many.
//
// An open-loop operation is dropped when it is due and no worker is free.
// By Little's law the workers busy at once are the rate times the time an
// operation holds a worker; with the p90 latency standing in for that time
// (a conservative mean), busy = ops/s × p90. When the target throttles or
// fails more than 1% of requests, operations hold workers because the
// target cannot keep up, and more workers would only queue more requests.
// When busy reaches most of the workers, the pool is too small. Otherwise
// the target stalled at times, or operations found no existing entity to
// act on (the only drops of a closed loop).
func DroppedAdvice(r *Report) string {
	t := r.Totals
	if t.Dropped == 0 || float64(t.Dropped) <= DroppedShare*float64(t.Offered()) {
		return ""
	}
	head := fmt.Sprintf("dropped: %s of the operations offered (%s of %s)", pct(t.Dropped, t.Offered()), num(t.Dropped), num(t.Offered()))
	if r.Run.Mode != "open" {
		return head + ": they found no existing entity to act on (deletes outpaced inserts); seed more entities (--entities) or lower the weight of delete in the mix"
	}
	if r.Client != nil && r.Client.Limit != nil {
		return head + ": " + r.Client.Limit.Sentence()
	}
	workers := max(r.Run.Workers, 1)
	busy := t.OpsPerSec * t.Latency.P90 / 1000
	bad := badRequests(t) // throttled, and server errors, timeouts, lost connections
	switch {
	case t.Requests > 0 && float64(bad) > 0.01*float64(t.Requests):
		return fmt.Sprintf("%s: the target cannot keep up: %s of requests were refused or failed and p99 is %s ms, so operations hold the %s workers longer than the schedule allows; more workers would only queue more requests: lower --rate, or spread the load over more partitions",
			head, pct(bad, t.Requests), ms(t.Latency.P99), num(int64(workers)))
	case busy >= 0.7*float64(workers):
		return fmt.Sprintf("%s for want of a free worker: at %s ops/s and a p90 latency of %s ms about %s of the %s workers are busy at once (rate × latency); raise --workers (to about %d); if latency then rises with the workers, the target cannot keep up at this rate",
			head, rate(t.OpsPerSec), ms(t.Latency.P90), num(int64(math.Ceil(busy))), num(int64(workers)), int(math.Ceil(2*busy)))
	}
	return fmt.Sprintf("%s although only about %s of the %s workers were busy on average (%s ops/s × p90 %s ms): the target stalled at times (p99 %s ms, max %s ms), or operations found no existing entity to act on; more workers (--workers %d) absorb stalls",
		head, num(int64(math.Ceil(busy))), num(int64(workers)), rate(t.OpsPerSec), ms(t.Latency.P90), ms(t.Latency.P99), ms(t.Latency.Max), 2*workers)
}
