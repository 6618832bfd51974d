package workload

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/pipenet"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/table"
)

// The tests that run the client and the embedded service in a synctest
// bubble are CPU-bound arithmetic on a fake clock: scripts/test.sh runs
// them without -race (the wall-clock tests race the same code), and names
// them in its NORACE_TESTS. Add a new one there (TestBubbleTestsRunWithoutRace
// fails until it is).

// pipeTarget serves a handler over in-memory connections, and can stop and
// start again as a target that dies and comes back: while it is stopped,
// its connections are closed and a dial is refused.
type pipeTarget struct {
	t      *testing.T
	h      http.Handler
	mu     sync.Mutex
	l      *pipenet.Listener
	hs     *http.Server
	served chan error
}

// start serves the handler on a new listener.
func (p *pipeTarget) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.l, p.hs, p.served = pipenet.Listen(), &http.Server{Handler: p.h}, make(chan error, 1)
	go func(hs *http.Server, l *pipenet.Listener, served chan error) { served <- hs.Serve(l) }(p.hs, p.l, p.served)
}

// stop closes the listener and every connection, as a process that dies.
func (p *pipeTarget) stop() {
	p.mu.Lock()
	hs, served := p.hs, p.served
	p.l, p.hs = nil, nil
	p.mu.Unlock()
	if hs == nil {
		return
	}
	hs.Close()
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
		p.t.Error(err)
	}
}

// dial connects a client to the target, or is refused while it is stopped.
func (p *pipeTarget) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	p.mu.Lock()
	l := p.l
	p.mu.Unlock()
	if l == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	return l.Dial(ctx, network, addr)
}

// bubbled serves the embedded service srv over in-memory connections and
// returns a client of it with room for workers, for a test running inside
// synctest.Test; the service stops when the test ends.
func bubbled(t *testing.T, srv *emulator.Server, workers int) *table.Service {
	t.Helper()
	svc, _ := bubbledTarget(t, srv, workers)
	return svc
}

// bubbledTarget is bubbled, with the target, which the test may stop and
// start again.
func bubbledTarget(t *testing.T, srv *emulator.Server, workers int) (*table.Service, *pipeTarget) {
	t.Helper()
	p := &pipeTarget{t: t, h: srv}
	p.start()
	conn := "DefaultEndpointsProtocol=http;AccountName=" + emulator.DevAccount + ";AccountKey=" + emulator.DevKey +
		";TableEndpoint=http://127.0.0.1:10002/" + emulator.DevAccount + ";"
	tg, err := table.ParseTarget(conn)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := table.Open(tg, table.Options{Workers: workers, Timeout: 10 * time.Second, Dial: p.dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		svc.Close()
		p.stop()
	})
	return svc, p
}
