package clock

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Virtual is a virtual clock: a discrete-event scheduler whose goroutines
// run one at a time (see the package doc). Create it with NewVirtual and
// drive it with Run; its other methods are for the goroutines it runs,
// except Now, Elapsed and Ratio, which any goroutine may call.
type Virtual struct {
	now   atomic.Int64 // Unix nanoseconds
	start time.Time    // what it read when it was made

	mu     sync.Mutex // guards what follows (only one goroutine runs, but cancel funcs may come from anywhere)
	seq    uint64
	events eventHeap
	polled waitList
	cur    *routine // the goroutine running, nil between them
	live   int      // goroutines started and not ended

	yield chan struct{} // the running goroutine hands control back
	steps atomic.Uint64 // goroutines resumed so far, for the watchdog

	// StuckAfter is how long one goroutine may run without waiting on
	// the clock before Run gives up with ErrStuck (default a minute).
	StuckAfter time.Duration

	wall    time.Duration // wall time spent in Run
	virtual time.Duration // virtual time advanced in Run
}

var _ Clock = (*Virtual)(nil)

// ErrStuck is Run's error when a goroutine of the clock ran StuckAfter of
// wall time without waiting on the clock: it waits on something outside
// the clock (a rule of the package doc broken), or loops.
var ErrStuck = errors.New("clock: a goroutine of the virtual clock has run for too long without waiting on the clock")

// ErrDeadlock is Run's error when goroutines of the clock wait and
// nothing of the clock can wake them: no time to wait for, no channel
// polled.
var ErrDeadlock = errors.New("clock: every goroutine of the virtual clock waits, and nothing can wake them")

// NewVirtual returns a virtual clock that reads start.
func NewVirtual(start time.Time) *Virtual {
	v := &Virtual{yield: make(chan struct{}), start: start}
	v.now.Store(start.UnixNano())
	return v
}

// Since is the virtual time elapsed since the clock was made: what a
// program on the clock may base a decision on, where Now also carries the
// moment it was made (the wall time, say).
func (v *Virtual) Since() time.Duration { return time.Duration(v.now.Load() - v.start.UnixNano()) }

// Now implements Clock. Any goroutine may call it.
func (v *Virtual) Now() time.Time { return time.Unix(0, v.now.Load()) }

// Elapsed returns the virtual and the wall time Run has spent so far.
func (v *Virtual) Elapsed() (virtual, wall time.Duration) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.virtual, v.wall
}

// Ratio is the virtual time Run advanced per second of wall time it took
// (0 before any): above 1, the clock ran ahead of the wall.
func (v *Virtual) Ratio() float64 {
	vt, wt := v.Elapsed()
	if wt <= 0 {
		return 0
	}
	return vt.Seconds() / wt.Seconds()
}

// Run runs f on a goroutine of the clock and drives the clock until every
// goroutine it started has ended. It must not be called by a goroutine of
// the clock, nor twice at once; a later Run goes on from the time the
// earlier one left. It returns ErrDeadlock or ErrStuck (wrapped) when the
// goroutines could not all end; some of them are then left behind.
func (v *Virtual) Run(f func()) error {
	start, from := time.Now(), v.now.Load()
	v.mu.Lock()
	v.spawnLocked(f)
	v.mu.Unlock()
	stuck, stop := v.watch()
	err := v.loop(stuck)
	stop()
	v.mu.Lock()
	v.wall += time.Since(start)
	v.virtual += time.Duration(v.now.Load() - from)
	v.mu.Unlock()
	return err
}

// loop resumes the goroutines in the order they fall due until none is
// left.
func (v *Virtual) loop(stuck <-chan struct{}) error {
	for {
		v.mu.Lock()
		v.pollLocked()
		if v.live == 0 {
			v.mu.Unlock()
			return nil
		}
		if len(v.events) == 0 {
			n, polled := v.live, v.polled.len
			v.mu.Unlock()
			return fmt.Errorf("%w (%d goroutines, %d of them on channels)", ErrDeadlock, n, polled)
		}
		e := heap.Pop(&v.events).(*event)
		if e.at > v.now.Load() {
			v.now.Store(e.at)
		}
		if e.fn != nil {
			v.mu.Unlock()
			e.fn()
			continue
		}
		r := e.r
		v.polled.remove(&r.node)
		v.cur = r
		v.mu.Unlock()
		r.wake <- struct{}{}
		select {
		case <-v.yield:
		case <-stuck:
			return ErrStuck
		}
		v.steps.Add(1)
	}
}

// watch starts the watchdog of one Run: it closes stuck when one
// goroutine runs StuckAfter without waiting. stop ends it.
func (v *Virtual) watch() (stuck <-chan struct{}, stop func()) {
	after := v.StuckAfter
	if after <= 0 {
		after = time.Minute
	}
	ch, done := make(chan struct{}), make(chan struct{})
	go func() {
		t := time.NewTicker(after / 4)
		defer t.Stop()
		last, same := v.steps.Load(), 0
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if s := v.steps.Load(); s != last {
				last, same = s, 0
				continue
			}
			if same++; same >= 4 {
				close(ch)
				return
			}
		}
	}()
	return ch, func() { close(done) }
}

// Go implements Clock: f runs on a new goroutine of the clock, due now
// after those already due. Only a goroutine of the clock may call it.
func (v *Virtual) Go(f func()) {
	v.mu.Lock()
	v.spawnLocked(f)
	v.mu.Unlock()
}

func (v *Virtual) spawnLocked(f func()) {
	r := &routine{wake: make(chan struct{})}
	r.ev.r, r.ev.idx, r.node.r = r, -1, r
	v.live++
	v.scheduleLocked(r, v.now.Load())
	go func() {
		<-r.wake
		defer v.exit()
		f()
	}()
}

// exit ends the running goroutine.
func (v *Virtual) exit() {
	v.mu.Lock()
	v.live--
	v.cur = nil
	v.mu.Unlock()
	v.yield <- struct{}{}
}

// scheduleLocked makes r due at at (Unix ns), after what is already due
// then.
func (v *Virtual) scheduleLocked(r *routine, at int64) {
	v.seq++
	r.ev.at, r.ev.seq = at, v.seq
	heap.Push(&v.events, &r.ev)
}

// readyLocked makes r, waiting on something of the clock, due now: a
// wait on the time is cut short, a wait on channels ends.
func (v *Virtual) readyLocked(r *routine, woken bool) {
	if r.ev.idx >= 0 {
		heap.Remove(&v.events, r.ev.idx)
	}
	v.polled.remove(&r.node)
	r.woken = woken
	v.scheduleLocked(r, v.now.Load())
}

// pollLocked readies every goroutine one of whose channels has closed,
// in the order they started waiting.
func (v *Virtual) pollLocked() {
	for w := v.polled.head; w != nil; {
		next := w.next
		if w.closed() {
			v.readyLocked(w.r, true)
		}
		w = next
	}
}

// current returns the running goroutine.
func (v *Virtual) current() *routine {
	r := v.cur
	if r == nil {
		panic("clock: a virtual clock's wait called outside its goroutines")
	}
	return r
}

// park hands control back to the scheduler until r is resumed. The
// caller must have made r due, or listed it where something will.
func (v *Virtual) park(r *routine) {
	v.yield <- struct{}{}
	<-r.wake
}

// Sleep implements Clock.
func (v *Virtual) Sleep(ctx context.Context, d time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	if d <= 0 {
		return true
	}
	return v.waitUntil(v.now.Load()+int64(d), ctx.Done())
}

// Until implements Clock.
func (v *Virtual) Until(t time.Time, done ...<-chan struct{}) bool {
	for _, ch := range done {
		if isClosed(ch) {
			return false
		}
	}
	if t.IsZero() {
		return v.waitUntil(never, done...)
	}
	at := t.UnixNano()
	if at <= v.now.Load() {
		return true
	}
	return v.waitUntil(at, done...)
}

// never is a wait with no time to it.
const never = -1 << 63

// waitUntil parks the running goroutine until at (never: no time), or
// until one of done closes; it reports whether at came.
func (v *Virtual) waitUntil(at int64, done ...<-chan struct{}) bool {
	v.mu.Lock()
	r := v.current()
	v.cur = nil
	if at != never {
		v.scheduleLocked(r, at)
	}
	v.listLocked(r, done)
	r.woken = false
	v.mu.Unlock()
	v.park(r)
	return !r.woken
}

// listLocked adds r to the goroutines polled for done (when one of them
// can close).
func (v *Virtual) listLocked(r *routine, done []<-chan struct{}) {
	w := &r.node
	w.n, w.more = 0, nil
	for _, ch := range done {
		if ch == nil {
			continue
		}
		if w.n < maxWaitChans {
			w.chans[w.n] = ch
			w.n++
		} else {
			w.more = append(w.more, ch)
		}
	}
	if w.n > 0 {
		v.polled.add(w)
	}
}

// WithDeadline implements Clock. Its cancel may be called from any
// goroutine.
func (v *Virtual) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	at := d.UnixNano()
	if at <= v.now.Load() {
		cancel(context.DeadlineExceeded)
		return ctx, func() { cancel(context.Canceled) }
	}
	e := &event{at: at, idx: -1, fn: func() { cancel(context.DeadlineExceeded) }}
	v.mu.Lock()
	v.seq++
	e.seq = v.seq
	heap.Push(&v.events, e)
	v.mu.Unlock()
	return ctx, func() {
		v.mu.Lock()
		if e.idx >= 0 {
			heap.Remove(&v.events, e.idx)
		}
		v.mu.Unlock()
		cancel(context.Canceled)
	}
}
