package emulator

import (
	"context"
	"strconv"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// gated is what gate decided about a request that is served: the model's
// decision and the latency fault injection added.
type gated struct {
	model.Decision
	delay time.Duration
}

// gate applies fault injection and the model to a request about to be
// served. part is the partition it is counted under ("*" when it spans
// partitions); req is what the model judges (a query page: the partition
// it starts in, or none), completed with Extends by extends when the model
// is active. It returns the fault (for Discard), the reply when the
// request must not be served (refused, dropped), and the decision.
func (s *Server) gate(ctx context.Context, part string, req model.Request, extends func() int) (faults.Fault, *reply, gated) {
	fp := part
	if fp == "*" {
		fp = "" // spans partitions
	}
	f := s.faults.Load().Decide(fp, req.Op != model.OpRead && req.Op != model.OpQuery)
	if f.Delay > 0 && s.clock != nil {
		s.waitOnClock(ctx, s.now().Add(f.Delay))
	} else if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		case <-clientGone(ctx):
			t.Stop()
		}
	}
	if f.Drop {
		return f, &reply{drop: true, part: part}, gated{}
	}
	if f.Status != 0 {
		r := errReply(&apiError{f.Status, f.Code, f.Message}, part)
		return f, &r, gated{}
	}
	if extends != nil && s.model.Active() {
		req.Extends = extends()
	}
	req.Write = req.Op != model.OpRead && req.Op != model.OpQuery
	g := gated{Decision: s.model.Admit(req), delay: f.Delay}
	if !g.Allow {
		r := errReply(&apiError{g.Status, g.Code, g.Message}, part)
		r.work, r.timed, r.delay = model.Work{Op: req.Op, Refused: true}, true, g.delay
		if g.RetryAfter > 0 {
			// Cosmos DB's hint, in whole milliseconds, rounded up.
			r.header = map[string]string{"x-ms-retry-after-ms": strconv.FormatInt(int64((g.RetryAfter+time.Millisecond-1)/time.Millisecond), 10)}
		}
		return f, &r, g
	}
	return f, nil, g
}

// timedReply marks rep to be answered after the service time of op,
// having moved bodyBytes of request body and done entities at the load g
// reported, on top of g's injected latency.
func timedReply(rep reply, op model.Op, entities, bodyBytes int, g gated) reply {
	rep.work = model.Work{Op: op, Entities: entities, Bytes: bodyBytes, Load: g.Load, Charge: g.Charge}
	rep.timed, rep.delay = true, g.delay
	return rep
}
