package workload

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/table"
)

// health watches the target through the outcomes of every request: when it
// last answered at all, when it last served a request, and the last
// failure, so the run can tell a target that died or refuses everything
// (wrong key, table deleted) from one that is merely throttling. Safe for
// concurrent use; the hot path is two atomic stores.
type health struct {
	start      time.Time
	lastAnswer atomic.Int64 // unix nanoseconds of the last HTTP answer
	lastOK     atomic.Int64 // ... of the last successful request
	mu         sync.Mutex
	lastErr    string
	lastClass  outcome.Class
}

func newHealth(start time.Time) *health {
	h := &health{start: start}
	h.lastAnswer.Store(start.UnixNano())
	h.lastOK.Store(start.UnixNano())
	return h
}

// observe records one request's result.
func (h *health) observe(r table.Result, at time.Time) {
	if h == nil {
		return
	}
	if r.Outcome.Status != 0 {
		h.lastAnswer.Store(at.UnixNano())
	}
	if r.Outcome.Class == outcome.OK {
		h.lastOK.Store(at.UnixNano())
		return
	}
	if r.Err != nil && r.Outcome.Class != outcome.Canceled {
		h.mu.Lock()
		h.lastErr, h.lastClass = r.Err.Error(), r.Outcome.Class
		h.mu.Unlock()
	}
}

// verdict says whether the target looks dead at now: no answer at all for
// downAfter (unreachable), or only refusals that retrying cannot cure (an
// authentication failure, a deleted table) for downAfter. Throttling is
// never a reason: it is what a run measures.
func (h *health) verdict(now time.Time, downAfter time.Duration) (down bool, cause string) {
	h.mu.Lock()
	lastErr, lastClass := h.lastErr, h.lastClass
	h.mu.Unlock()
	silent := now.Sub(time.Unix(0, h.lastAnswer.Load()))
	failing := now.Sub(time.Unix(0, h.lastOK.Load()))
	switch {
	case silent >= downAfter && lastErr != "":
		return true, "the target stopped answering " + silent.Truncate(time.Second).String() + " ago: " + lastErr
	case failing >= downAfter && lastClass == outcome.ClientError:
		return true, "every request is refused: " + lastErr
	}
	return false, ""
}
