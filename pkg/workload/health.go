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
	// denied is closed by the first refusal no retry cures
	// (table.Result.AccessDenied), which deniedRes holds with the kind
	// of operation refused (deniedWhat); nil when the run goes on
	// through them (--reconnect).
	denied     chan struct{}
	deniedOnce sync.Once
	deniedRes  table.Result
	deniedWhat string
}

func newHealth(start time.Time) *health {
	h := &health{start: start}
	h.lastAnswer.Store(start.UnixNano())
	h.lastOK.Store(start.UnixNano())
	return h
}

// watchDenied makes the first refusal no retry cures close denied.
func (h *health) watchDenied() { h.denied = make(chan struct{}) }

// observe records one request's result, of an operation of kind what
// ("read", or the name of a write).
func (h *health) observe(r table.Result, what string, at time.Time) {
	if h == nil {
		return
	}
	if h.denied != nil && r.AccessDenied() {
		h.deniedOnce.Do(func() {
			h.mu.Lock()
			h.deniedRes, h.deniedWhat = r, what
			h.mu.Unlock()
			close(h.denied)
		})
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
