package clock

// event is a point of the virtual timeline: a goroutine to resume (r) or a
// callback to call on the scheduler's goroutine (fn), due at (at, seq).
// seq orders events due at the same instant by when they became due.
type event struct {
	at  int64 // Unix nanoseconds
	seq uint64
	idx int // index in the heap, -1 when not queued
	r   *routine
	fn  func()
}

// eventHeap is a min-heap of events by (at, seq), for container/heap.
type eventHeap []*event

func (h eventHeap) Len() int { return len(h) }

func (h eventHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h eventHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = i, j
}

func (h *eventHeap) Push(x any) {
	e := x.(*event)
	e.idx = len(*h)
	*h = append(*h, e)
}

func (h *eventHeap) Pop() any {
	old := *h
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.idx = -1
	*h = old[:n-1]
	return e
}

// routine is a goroutine of a Virtual clock.
type routine struct {
	wake chan struct{} // the scheduler resumes it
	ev   event         // its wake-up, while it waits on the time
	node waitNode      // its place among the goroutines waiting on channels
	// woken says why it was last resumed: by a channel closing (true)
	// rather than by the time it waited for.
	woken bool
}

// maxWaitChans is how many channels a goroutine waits on without an
// allocation.
const maxWaitChans = 4

// waitNode is a goroutine waiting on channels (and maybe the time): an
// element of the scheduler's list of them, which it polls.
type waitNode struct {
	r          *routine
	chans      [maxWaitChans]<-chan struct{}
	more       []<-chan struct{}
	n          int
	prev, next *waitNode
	listed     bool
}

// closed reports whether one of the node's channels is closed.
func (w *waitNode) closed() bool {
	for _, ch := range w.chans[:w.n] {
		if isClosed(ch) {
			return true
		}
	}
	for _, ch := range w.more {
		if isClosed(ch) {
			return true
		}
	}
	return false
}

// isClosed reports whether ch is closed (or holds a value: channels here
// only ever close); a nil channel never is.
func isClosed(ch <-chan struct{}) bool {
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// waitList is the list of goroutines waiting on channels, in the order
// they started waiting.
type waitList struct {
	head, tail *waitNode
	len        int
}

func (l *waitList) add(w *waitNode) {
	w.prev, w.next, w.listed = l.tail, nil, true
	if l.tail != nil {
		l.tail.next = w
	} else {
		l.head = w
	}
	l.tail = w
	l.len++
}

func (l *waitList) remove(w *waitNode) {
	if !w.listed {
		return
	}
	if w.prev != nil {
		w.prev.next = w.next
	} else {
		l.head = w.next
	}
	if w.next != nil {
		w.next.prev = w.prev
	} else {
		l.tail = w.prev
	}
	w.prev, w.next, w.listed = nil, nil, false
	w.more = nil
	l.len--
}
