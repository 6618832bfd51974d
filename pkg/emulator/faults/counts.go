package faults

import (
	"sync/atomic"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Counts are an injector's tallies since it was made.
type Counts struct {
	// Decisions is the requests the partition filter let through.
	Decisions int64 `json:"decisions"`
	// Status is the requests answered with an injected status, and
	// Statuses the same by outcome key ("503 ServerBusy", "504"), as the
	// client reports them.
	Status   int64            `json:"status"`
	Statuses map[string]int64 `json:"statuses"`
	// Delayed is the requests given added latency (by any rule).
	Delayed int64 `json:"delayed"`
	// Dropped is the connections closed without an answer.
	Dropped int64 `json:"dropped"`
	// Discarded is the writes acknowledged but not stored.
	Discarded int64 `json:"discarded"`
}

// counters are the atomic tallies behind Counts.
type counters struct {
	decisions, delayed, dropped, discarded atomic.Int64
	status                                 [len(answers)]atomic.Int64 // by index in answers
}

// hit counts an outcome-draw fault: a drop (status 0) or a status answer.
func (c *counters) hit(status int) {
	if status == 0 {
		c.dropped.Add(1)
		return
	}
	for i, a := range answers {
		if a.status == status {
			c.status[i].Add(1)
		}
	}
}

func (c *counters) snapshot() Counts {
	out := Counts{Decisions: c.decisions.Load(), Delayed: c.delayed.Load(), Dropped: c.dropped.Load(),
		Discarded: c.discarded.Load(), Statuses: map[string]int64{}}
	for i, a := range answers {
		if n := c.status[i].Load(); n > 0 {
			out.Statuses[outcome.New(a.status, a.code).Key()] = n
			out.Status += n
		}
	}
	return out
}
