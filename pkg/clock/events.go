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
	// regs are its places on the lists of what it waits for (channels,
	// deadline contexts), while it waits; more holds those past the array.
	regs  [maxRegs]regNode
	nregs int
	more  []*regNode
	// waitSeq orders the goroutines readied together: by when each
	// started waiting.
	waitSeq uint64
	// woken says why it was last resumed: by a channel closing (true)
	// rather than by the time it waited for.
	woken bool
}

// maxRegs is how many lists a goroutine waits on without an allocation.
const maxRegs = 6

// regNode is a goroutine's place on one list of waiters.
type regNode struct {
	r          *routine
	list       *waitList
	prev, next *regNode
}

// waitList is an intrusive list of waiters: a channel's (owner), or a
// deadline context's (owner nil).
type waitList struct {
	head, tail *regNode
	n          int
	owner      *chanWait
}

func (l *waitList) add(w *regNode) {
	w.list, w.prev, w.next = l, l.tail, nil
	if l.tail != nil {
		l.tail.next = w
	} else {
		l.head = w
	}
	l.tail = w
	l.n++
}

func (l *waitList) remove(w *regNode) {
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
	w.list, w.prev, w.next = nil, nil, nil
	l.n--
}

// chanWait is a channel goroutines wait on, polled once for all of them.
type chanWait struct {
	ch      <-chan struct{}
	waiters waitList
	idx     int // in Virtual.chans
}

// deadlineCtx is a context of WithDeadline while it lives: its end is an
// event of the clock's (its deadline) or a call of its cancel, both of
// which ready its waiters directly, or its parent's end, which the clock
// polls (once for every context of that parent).
type deadlineCtx struct {
	ev      *event
	done    <-chan struct{} // its Done
	parent  <-chan struct{} // its parent's Done (nil: none)
	waiters waitList
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
