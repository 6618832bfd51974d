package workload

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/table"
)

// pipeListener is a net.Listener of in-memory connections (net.Pipe):
// inside a synctest bubble, a goroutine waiting on one is durably blocked,
// so the bubble's fake clock advances exactly as the run's schedule says,
// however slow or loaded the machine is.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 10002} }

// dial connects a client to the listener.
func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// bubbled serves the embedded service srv over in-memory connections and
// returns a client of it with room for workers, for a test running inside
// synctest.Test; the service stops when the test ends.
func bubbled(t *testing.T, srv *emulator.Server, workers int) *table.Service {
	t.Helper()
	l := newPipeListener()
	hs := &http.Server{Handler: srv}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	conn := "DefaultEndpointsProtocol=http;AccountName=" + emulator.DevAccount + ";AccountKey=" + emulator.DevKey +
		";TableEndpoint=http://127.0.0.1:10002/" + emulator.DevAccount + ";"
	tg, err := table.ParseTarget(conn)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := table.Open(tg, table.Options{Workers: workers, Timeout: 10 * time.Second, Dial: l.dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		svc.Close()
		hs.Close()
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			t.Error(err)
		}
	})
	return svc
}
