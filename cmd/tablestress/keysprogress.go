package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// keysProgressAfter is how long keys works in silence: a scheme simulated
// for longer gets a progress line on stderr, and so does each scheme after
// it; keysProgressEvery is how often a line repeats while one scheme
// runs on. A quick keys prints none, and stdout never has one.
var (
	keysProgressAfter = 3 * time.Second
	keysProgressEvery = 5 * time.Second
)

// keysProgress says on stderr which scheme keys is simulating, when that
// takes long enough to wonder (keysProgressAfter), at most every
// keysProgressEvery while one scheme runs on. It is safe for concurrent
// use: the analysis calls start and done, a ticker calls tick.
type keysProgress struct {
	w            io.Writer
	now          func() time.Time
	after, every time.Duration

	mu        sync.Mutex
	begun     time.Time // the command's start
	scheme    string
	k, n      int
	since     time.Time // the scheme's start
	last      time.Time // the last line
	printed   bool
	schemeSet bool
}

func newKeysProgress(w io.Writer, now func() time.Time) *keysProgress {
	return &keysProgress{w: w, now: now, after: keysProgressAfter, every: keysProgressEvery, begun: now()}
}

// start says scheme k (1-based) of n is being simulated: a line at once
// when keys has already run past the silence.
func (p *keysProgress) start(scheme string, k, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	p.scheme, p.k, p.n, p.since, p.schemeSet = scheme, k, n, t, true
	if t.Sub(p.begun) >= p.after {
		p.line(t, "")
	}
}

// tick prints the scheme being simulated once it has run past the
// silence, and again every p.every while it runs on.
func (p *keysProgress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	if !p.schemeSet || t.Sub(p.since) < p.after || (p.printed && t.Sub(p.last) < p.every) {
		return
	}
	p.line(t, fmt.Sprintf(", %s so far", t.Sub(p.since).Round(time.Second)))
}

// done ends the progress: when it printed any line, one more says how
// long the schemes took, so stderr does not end mid-way.
func (p *keysProgress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.printed {
		fmt.Fprintf(p.w, "keys: %d scheme(s) simulated in %s\n", p.k, p.now().Sub(p.begun).Round(time.Second))
	}
	p.schemeSet = false
}

// line writes the progress line; p.mu is held.
func (p *keysProgress) line(t time.Time, tail string) {
	fmt.Fprintf(p.w, "keys: simulating %s (%d of %d schemes)%s\n", p.scheme, p.k, p.n, tail)
	p.printed, p.last = true, t
}

// run ticks p every second until ctx ends; the returned func stops it and
// waits for it.
func (p *keysProgress) run(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				p.tick()
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}
