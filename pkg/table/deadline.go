package table

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
)

// deadlines bounds each request of a Service by the request timeout
// without building a context and a timer per request, which a load
// generator would pay on every operation (about 3 µs and 10 allocations
// with net/http's own context on top). Each request takes a slot: a
// context derived from the caller's, kept while later callers pass the
// same context, and a timer of its own, reset per request, that cancels
// the slot's context (cause context.DeadlineExceeded) if the request is
// still in flight at its deadline. A slot serves one request at a time.
//
// On a virtual clock, a request's context is the clock's WithDeadline,
// built per request: the clock's timers are events of its own.
type deadlines struct {
	timeout time.Duration
	clock   clock.Clock // nil or the wall clock: slots
	mu      sync.Mutex
	free    []*slot
	all     []*slot
	closed  bool
}

// slot is the context one request runs in.
type slot struct {
	mu     sync.Mutex // guards parent, ctx and cancel against expire
	parent context.Context
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	due    atomic.Int64 // the deadline in Unix ns while a request is in flight, else 0
}

// begin returns the context a request of ctx runs in, bounded by the
// timeout, and the function that ends the request; end must be called
// once, after the answer was read.
func (d *deadlines) begin(ctx context.Context) (context.Context, func()) {
	if d.clock != nil && clock.IsVirtual(d.clock) {
		c, cancel := d.clock.WithDeadline(ctx, d.clock.Now().Add(d.timeout))
		return c, cancel
	}
	if d.timeout <= 0 || !reflect.TypeOf(ctx).Comparable() {
		return context.WithTimeout(ctx, d.timeout)
	}
	s := d.take()
	if s == nil { // closed
		return context.WithTimeout(ctx, d.timeout)
	}
	s.mu.Lock()
	if s.parent != ctx || s.ctx.Err() != nil {
		if s.cancel != nil {
			s.cancel(nil)
		}
		s.ctx, s.cancel = context.WithCancelCause(ctx)
		s.parent = ctx
	}
	c := s.ctx
	s.due.Store(time.Now().Add(d.timeout).UnixNano())
	s.mu.Unlock()
	s.timer.Reset(d.timeout)
	return c, func() {
		s.due.Store(0)
		s.timer.Stop()
		d.put(s)
	}
}

// take returns a free slot, or a new one; nil once closed.
func (d *deadlines) take() *slot {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	if n := len(d.free); n > 0 {
		s := d.free[n-1]
		d.free = d.free[:n-1]
		return s
	}
	s := &slot{}
	s.timer = time.AfterFunc(time.Hour, s.expire)
	s.timer.Stop()
	d.all = append(d.all, s)
	return s
}

// put returns a slot to the free list.
func (d *deadlines) put(s *slot) {
	d.mu.Lock()
	if d.closed {
		s.release()
	} else {
		d.free = append(d.free, s)
	}
	d.mu.Unlock()
}

// expire cancels the request in flight when its deadline has passed; a
// timer that fires late, for a request that already ended or for the
// next one, whose deadline is later, does nothing.
func (s *slot) expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if due := s.due.Load(); due != 0 && time.Now().UnixNano() >= due {
		s.cancel(context.DeadlineExceeded)
	}
}

// close releases every free slot's context and timer; slots in flight are
// released when their request ends.
func (d *deadlines) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	for _, s := range d.free {
		s.release()
	}
	d.free, d.all = nil, nil
}

// release stops the slot's timer and cancels its context.
func (s *slot) release() {
	s.timer.Stop()
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel(nil)
	}
	s.mu.Unlock()
}
