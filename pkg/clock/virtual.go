package clock

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"slices"
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
	// chans are the channels goroutines wait on, each polled once between
	// goroutines (chanIdx finds them); deadlines are the live contexts of
	// WithDeadline by their Done, whose waiters wait on them directly.
	chans     []*chanWait
	chanIdx   map[<-chan struct{}]*chanWait
	deadlines map[<-chan struct{}]*deadlineCtx
	waitSeq   uint64
	cur       *routine // the goroutine running, nil between them
	live      int      // goroutines started and not ended

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
	v := &Virtual{yield: make(chan struct{}), start: start, chanIdx: map[<-chan struct{}]*chanWait{},
		deadlines: map[<-chan struct{}]*deadlineCtx{}}
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
			n, chans := v.live, len(v.chans)
			v.mu.Unlock()
			return fmt.Errorf("%w (%d goroutines, waiting on %d channels)", ErrDeadlock, n, chans)
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
		v.unregisterLocked(r)
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
	r.ev.r, r.ev.idx = r, -1
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
	v.unregisterLocked(r)
	r.woken = woken
	v.scheduleLocked(r, v.now.Load())
}

// pollLocked readies every goroutine one of whose channels has closed,
// in the order they started waiting.
func (v *Virtual) pollLocked() {
	var fired []*routine
	for i := 0; i < len(v.chans); i++ {
		cw := v.chans[i]
		if !isClosed(cw.ch) {
			continue
		}
		for w := cw.waiters.head; w != nil; w = w.next {
			fired = append(fired, w.r)
		}
	}
	v.readyAllLocked(fired)
}

// readyAllLocked readies rs (in which a goroutine may come more than
// once) in the order they started waiting.
func (v *Virtual) readyAllLocked(rs []*routine) {
	if len(rs) > 1 {
		slices.SortFunc(rs, func(a, b *routine) int { return cmp.Compare(a.waitSeq, b.waitSeq) })
	}
	for i, r := range rs {
		if i > 0 && rs[i-1] == r {
			continue
		}
		v.readyLocked(r, true)
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
	v.registerLocked(r, done)
	r.woken = false
	v.mu.Unlock()
	v.park(r)
	return !r.woken
}

// registerLocked lists r as waiting on done: on the deadline context a
// channel is the Done of (and on its parent's Done, polled), or on the
// channel, polled.
func (v *Virtual) registerLocked(r *routine, done []<-chan struct{}) {
	v.waitSeq++
	r.waitSeq = v.waitSeq
	for _, ch := range done {
		if ch == nil {
			continue
		}
		if d := v.deadlines[ch]; d != nil {
			v.addRegLocked(r, &d.waiters)
			ch = d.parent
			if ch == nil {
				continue
			}
		}
		cw := v.chanIdx[ch]
		if cw == nil {
			cw = &chanWait{ch: ch, idx: len(v.chans)}
			cw.waiters.owner = cw
			v.chans = append(v.chans, cw)
			v.chanIdx[ch] = cw
		}
		v.addRegLocked(r, &cw.waiters)
	}
}

// addRegLocked puts r on the list l.
func (v *Virtual) addRegLocked(r *routine, l *waitList) {
	var w *regNode
	if r.nregs < maxRegs {
		w = &r.regs[r.nregs]
	} else {
		w = &regNode{}
		r.more = append(r.more, w)
	}
	r.nregs++
	w.r = r
	l.add(w)
}

// unregisterLocked takes r off every list it waits on, and forgets the
// channels no one waits on any more.
func (v *Virtual) unregisterLocked(r *routine) {
	for i := range min(r.nregs, maxRegs) {
		v.removeRegLocked(&r.regs[i])
	}
	for _, w := range r.more {
		v.removeRegLocked(w)
	}
	r.nregs, r.more = 0, nil
}

// removeRegLocked takes w off its list; an emptied channel's list goes.
func (v *Virtual) removeRegLocked(w *regNode) {
	l := w.list
	if l == nil {
		return
	}
	l.remove(w)
	if cw := l.owner; cw != nil && l.n == 0 {
		last := v.chans[len(v.chans)-1]
		v.chans[cw.idx], last.idx = last, cw.idx
		v.chans[len(v.chans)-1] = nil
		v.chans = v.chans[:len(v.chans)-1]
		delete(v.chanIdx, cw.ch)
	}
}

// WithDeadline implements Clock. Its cancel may be called from any
// goroutine. The goroutines waiting on its context are readied by its
// deadline or its cancel directly, and by its parent's end through one
// poll of the parent for all of its contexts.
func (v *Virtual) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	at := d.UnixNano()
	if at <= v.now.Load() {
		cancel(context.DeadlineExceeded)
		return ctx, func() { cancel(context.Canceled) }
	}
	dc := &deadlineCtx{done: ctx.Done(), parent: parent.Done()}
	end := func(cause error) {
		cancel(cause)
		v.mu.Lock()
		defer v.mu.Unlock()
		if v.deadlines[dc.done] != dc {
			return
		}
		delete(v.deadlines, dc.done)
		if dc.ev.idx >= 0 {
			heap.Remove(&v.events, dc.ev.idx)
		}
		var rs []*routine
		for w := dc.waiters.head; w != nil; w = w.next {
			rs = append(rs, w.r)
		}
		v.readyAllLocked(rs)
	}
	dc.ev = &event{at: at, idx: -1, fn: func() { end(context.DeadlineExceeded) }}
	v.mu.Lock()
	v.seq++
	dc.ev.seq = v.seq
	heap.Push(&v.events, dc.ev)
	v.deadlines[dc.done] = dc
	v.mu.Unlock()
	return ctx, func() { end(context.Canceled) }
}
