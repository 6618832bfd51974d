package clock

import (
	"context"
	"slices"
)

// Queue is a bounded first-in first-out queue between goroutines of a
// clock, as a buffered channel is between plain goroutines. One goroutine
// closes it, after its last send.
type Queue[T any] interface {
	// TrySend queues x unless the queue is full; it reports whether it did.
	TrySend(x T) bool
	// Send queues x, waiting while the queue is full; it reports false
	// when ctx ended first (x not queued).
	Send(ctx context.Context, x T) bool
	// Recv takes the oldest item, waiting while the queue is empty; ok
	// is false once the queue is closed and empty.
	Recv() (x T, ok bool)
	// Close ends the queue: receivers take what is left, then see it
	// closed. Sending after Close panics.
	Close()
	// Len is how many items are queued.
	Len() int
}

// NewQueue returns a queue of c's goroutines holding up to depth items
// (at least 1).
func NewQueue[T any](c Clock, depth int) Queue[T] {
	depth = max(depth, 1)
	if v, ok := c.(*Virtual); ok {
		return &vqueue[T]{v: v, depth: depth}
	}
	return &wqueue[T]{ch: make(chan T, depth)}
}

// wqueue is a Queue of plain goroutines: a channel.
type wqueue[T any] struct{ ch chan T }

func (q *wqueue[T]) TrySend(x T) bool {
	select {
	case q.ch <- x:
		return true
	default:
		return false
	}
}

func (q *wqueue[T]) Send(ctx context.Context, x T) bool {
	select {
	case q.ch <- x:
		return true
	case <-ctx.Done():
		return false
	}
}

func (q *wqueue[T]) Recv() (T, bool) {
	x, ok := <-q.ch
	return x, ok
}

func (q *wqueue[T]) Close()   { close(q.ch) }
func (q *wqueue[T]) Len() int { return len(q.ch) }

// vqueue is a Queue of a Virtual clock's goroutines. Its state is guarded
// by the clock's mutex. As with a channel, an item sent while a receiver
// waits goes straight to that receiver, and a receiver that takes an item
// from a full queue moves the first waiting sender's item in.
type vqueue[T any] struct {
	v         *Virtual
	depth     int
	items     []T // items[head:] are queued
	head      int
	closed    bool
	receivers []*handoff[T] // waiting for an item, in order
	senders   []*handoff[T] // waiting for room, in order
}

// handoff is a goroutine waiting on a queue, and the item it waits to
// give or take.
type handoff[T any] struct {
	r    *routine
	x    T
	done bool // the item changed hands
}

func (q *vqueue[T]) Len() int {
	q.v.mu.Lock()
	defer q.v.mu.Unlock()
	return len(q.items) - q.head
}

// sendLocked gives x to the first receiver waiting, or queues it if there
// is room; false when the queue is full.
func (q *vqueue[T]) sendLocked(x T) bool {
	if q.closed {
		panic("clock: send on a closed queue")
	}
	if len(q.receivers) > 0 {
		h := q.receivers[0]
		q.receivers = q.receivers[1:]
		h.x, h.done = x, true
		q.v.readyLocked(h.r, false)
		return true
	}
	if len(q.items)-q.head >= q.depth {
		return false
	}
	q.items = append(q.items, x)
	return true
}

func (q *vqueue[T]) TrySend(x T) bool {
	q.v.mu.Lock()
	defer q.v.mu.Unlock()
	return q.sendLocked(x)
}

func (q *vqueue[T]) Send(ctx context.Context, x T) bool {
	v := q.v
	v.mu.Lock()
	if q.sendLocked(x) {
		v.mu.Unlock()
		return true
	}
	if ctx.Err() != nil {
		v.mu.Unlock()
		return false
	}
	h := &handoff[T]{r: v.current(), x: x}
	v.cur = nil
	q.senders = append(q.senders, h)
	v.registerLocked(h.r, []<-chan struct{}{ctx.Done()})
	v.mu.Unlock()
	v.park(h.r)
	v.mu.Lock()
	defer v.mu.Unlock()
	if !h.done { // woken by ctx
		q.senders = slices.DeleteFunc(q.senders, func(s *handoff[T]) bool { return s == h })
	}
	return h.done
}

// takeLocked removes the oldest queued item, moving the first waiting
// sender's item into the room it leaves.
func (q *vqueue[T]) takeLocked() T {
	x := q.items[q.head]
	var zero T
	q.items[q.head] = zero
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head*2 > len(q.items) {
		q.items, q.head = append(q.items[:0], q.items[q.head:]...), 0
	}
	if len(q.senders) > 0 {
		h := q.senders[0]
		q.senders = q.senders[1:]
		q.items = append(q.items, h.x)
		h.done = true
		q.v.readyLocked(h.r, false)
	}
	return x
}

func (q *vqueue[T]) Recv() (T, bool) {
	v := q.v
	v.mu.Lock()
	if len(q.items) > q.head {
		x := q.takeLocked()
		v.mu.Unlock()
		return x, true
	}
	if q.closed {
		v.mu.Unlock()
		var zero T
		return zero, false
	}
	h := &handoff[T]{r: v.current()}
	v.cur = nil
	q.receivers = append(q.receivers, h)
	v.mu.Unlock()
	v.park(h.r)
	return h.x, h.done // not done: the queue closed
}

func (q *vqueue[T]) Close() {
	v := q.v
	v.mu.Lock()
	defer v.mu.Unlock()
	q.closed = true
	for _, h := range q.receivers {
		v.readyLocked(h.r, false)
	}
	q.receivers = nil
}
