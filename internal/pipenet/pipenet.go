// Package pipenet is a net.Listener of in-memory connections (net.Pipe)
// and the dialer that reaches it. Inside a testing/synctest bubble a
// goroutine waiting on such a connection is durably blocked, so the
// bubble's fake clock advances exactly as a run's schedule says, however
// slow or loaded the machine is: tests serve the embedded Table service
// over it to run a workload on a fake clock.
package pipenet

import (
	"context"
	"net"
	"sync"
)

// Listener accepts the connections Dial opens. It is safe for concurrent
// use; Close it once done (later Dials fail with net.ErrClosed).
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// Listen returns a new Listener.
func Listen() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept implements net.Listener.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr implements net.Listener: the address clients are told to dial,
// 127.0.0.1:10002 (any address reaches the listener through Dial).
func (l *Listener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 10002} }

// Dial connects a client to the listener, whatever the network and
// address (an http.Transport's DialContext).
func (l *Listener) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
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
