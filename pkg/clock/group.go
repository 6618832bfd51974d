package clock

import "sync"

// Group waits for a collection of goroutines of a clock to end, as
// sync.WaitGroup does for plain goroutines.
type Group interface {
	// Go runs f on a goroutine of the clock, counted in the group.
	Go(f func())
	// Wait waits until every goroutine of the group has ended.
	Wait()
}

// NewGroup returns an empty group of c's goroutines.
func NewGroup(c Clock) Group {
	if v, ok := c.(*Virtual); ok {
		return &vgroup{v: v}
	}
	return &wgroup{}
}

// wgroup is a Group of plain goroutines.
type wgroup struct{ wg sync.WaitGroup }

func (g *wgroup) Go(f func()) { g.wg.Go(f) }
func (g *wgroup) Wait()       { g.wg.Wait() }

// vgroup is a Group of a Virtual clock's goroutines.
type vgroup struct {
	v       *Virtual
	n       int
	waiters []*routine
}

func (g *vgroup) Go(f func()) {
	g.v.mu.Lock()
	g.n++
	g.v.mu.Unlock()
	g.v.Go(func() {
		defer g.done()
		f()
	})
}

// done counts one goroutine out and, at the last, readies the waiters.
func (g *vgroup) done() {
	v := g.v
	v.mu.Lock()
	defer v.mu.Unlock()
	if g.n--; g.n > 0 {
		return
	}
	for _, r := range g.waiters {
		v.readyLocked(r, false)
	}
	g.waiters = nil
}

func (g *vgroup) Wait() {
	v := g.v
	for {
		v.mu.Lock()
		if g.n == 0 {
			v.mu.Unlock()
			return
		}
		r := v.current()
		v.cur = nil
		g.waiters = append(g.waiters, r)
		v.mu.Unlock()
		v.park(r)
	}
}
