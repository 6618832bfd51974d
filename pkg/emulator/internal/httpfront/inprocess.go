package httpfront

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// InProcess is the in-process front: an http.RoundTripper (what an
// http.Client, or azcore's transport, sends through) that hands each
// request to the handler in this process, with no socket and no HTTP text
// in between. The handler gets the *http.Request the socket front
// (NewServer) would give it for the bytes net/http's Transport writes for
// the same client request, and the client gets the *http.Response net/http's
// Transport would read from the bytes the socket front writes for the
// handler's answer (TestInProcessAsSocket holds both).
//
// The requests every SDK operation makes (known methods, headers of plain
// values, a body of known length, chunked, or none) are converted field by
// field. Any other request (a Connection, Expect or Trailer header, a body
// of unknown length on a GET, a header value net/http would trim or refuse,
// ...) goes through the socket front itself over an in-memory connection,
// and so does an answer of a shape outside the field-by-field conversion
// (headers fasthttp treats specially, a 1xx or 304 status, values with
// spaces to trim): both are then exactly what the socket path makes of
// them, at the cost of the HTTP text.
//
// What the client sees where the socket path involves the connection:
//   - the handler closing the connection (a Hijack, the drop fault) or
//     panicking: the request fails with io.EOF, net/http's error for a
//     connection closed before any answer;
//   - the client's context ending before the answer: context.Cause of it,
//     as net/http returns, at once, while the handler goes on to its end
//     (the socket front never tells a handler its client went away);
//   - after Close: a connection refused error, as dialling a stopped
//     service gives.
//
// An https URL is served as its http form would be, with nothing
// encrypted: the handler's request has no TLS state (as the socket
// front's has none), and neither has the client's response.
//
// The handler's context ends at Close, as the socket front's ends at
// Shutdown. A handler runs on the calling goroutine unless detach (set in
// NewInProcess) says it may wait: then on a goroutine of its own, so the
// client can leave at its deadline while the handler holds its answer. A
// handler that waits on the calling goroutine (detach said no, then a wait
// came) should also watch ClientGone, so its client still leaves on time.
// InProcess is safe for concurrent use.
type InProcess struct {
	h      http.Handler
	detach func() bool
	idle   chan *inExchange // detached requests, to a server goroutine waiting for one
	life   lifeContext
	pipe   pipeOnce
}

// InProcessAddr is the peer address (http.Request.RemoteAddr) of every
// request the in-process front hands over: the client is this process,
// on no port.
const InProcessAddr = "127.0.0.1:0"

// NewInProcess returns the in-process front of h. detach, when not nil, is
// asked before each request whether the handler may wait (a modelled
// service time, an injected latency): if so it runs on a goroutine of its
// own.
func NewInProcess(h http.Handler, detach func() bool) *InProcess {
	p := &InProcess{h: h, detach: detach, idle: make(chan *inExchange)}
	p.life.done = make(chan struct{})
	p.pipe.front = p
	return p
}

// Close ends the context of every handler in flight, as the socket
// front's Shutdown does, and refuses later requests. It waits until ctx
// ends for the requests that went through the socket front; the others
// end on their own.
func (p *InProcess) Close(ctx context.Context) error {
	p.life.once.Do(func() { close(p.life.done) })
	return p.pipe.close(ctx)
}

// CloseIdleConnections closes the idle in-memory connections of the
// requests that went through the socket front.
func (p *InProcess) CloseIdleConnections() { p.pipe.closeIdle() }

// RoundTrip implements http.RoundTripper.
func (p *InProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if p.life.closed() {
		closeBody(req)
		return nil, refused(req)
	}
	ctx := req.Context()
	if ctx.Done() != nil && ctx.Err() != nil {
		closeBody(req)
		return nil, context.Cause(ctx)
	}
	x := inExchanges.Get().(*inExchange)
	if err := x.load(req, &p.life); err != nil {
		x.release()
		if err == errNotPlain {
			return p.pipe.roundTrip(req)
		}
		return nil, err
	}
	if p.detach != nil && p.detach() {
		return p.detached(x, req)
	}
	x.ctx.client = ctx.Done()
	p.serve(x)
	x.ctx.client = nil
	if ctx.Done() != nil && ctx.Err() != nil {
		// The answer came after the client gave up.
		x.release()
		return nil, context.Cause(ctx)
	}
	return p.answer(x, req)
}

// detached serves x on a goroutine of its own and waits for its answer or
// for the client to give up, whichever comes first; the exchange is
// released by whoever is last.
func (p *InProcess) detached(x *inExchange, req *http.Request) (*http.Response, error) {
	x.served = make(chan struct{}, 1)
	select {
	case p.idle <- x: // a server goroutine waiting for work takes it
	default:
		go p.serveLoop(x)
	}
	ctx := req.Context()
	select {
	case <-x.served:
	case <-ctx.Done():
		if x.state.Swap(stateAbandoned) == stateServed {
			<-x.served
			x.release()
		}
		return nil, context.Cause(ctx)
	}
	return p.answer(x, req)
}

// serverIdle is how long a goroutine that served a detached request waits
// for another before it ends: kept, its stack has grown to what serving
// takes, which a new goroutine grows again (copying it) at every request.
const serverIdle = time.Second

// serveLoop serves detached requests, x first, then those handed over on
// p.idle, until none came for serverIdle or the front closed.
func (p *InProcess) serveLoop(x *inExchange) {
	var t *time.Timer
	for {
		p.serveDetached(x)
		if t == nil {
			t = time.NewTimer(serverIdle)
		} else {
			t.Reset(serverIdle)
		}
		select {
		case x = <-p.idle:
			t.Stop()
		case <-t.C:
			return
		case <-p.life.done:
			t.Stop()
			return
		}
	}
}

// serveDetached serves x and tells its client, or releases x when the
// client has left.
func (p *InProcess) serveDetached(x *inExchange) {
	p.serve(x)
	if x.state.Swap(stateServed) == stateAbandoned {
		x.release()
		return
	}
	x.served <- struct{}{}
}

// serve runs the handler on x's request, as serveFast does on a
// connection's: a panic closes the connection without an answer.
func (p *InProcess) serve(x *inExchange) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				log.Printf("httpfront: panic serving %s: %v", InProcessAddr, v)
			}
			x.rw.dropped = true
		}
	}()
	p.h.ServeHTTP(&x.rw, &x.req)
	x.rw.finish()
}

// answer is the client's response to x, or the error of a connection
// closed without one; it releases x.
func (p *InProcess) answer(x *inExchange, req *http.Request) (*http.Response, error) {
	if x.rw.dropped {
		x.release()
		return nil, io.EOF
	}
	if !x.rw.plain {
		// An answer only the socket front's own writing says right.
		out, body := x.rw.recorded(), append([]byte(nil), x.body...)
		x.release()
		return p.pipe.replay(req, body, out)
	}
	resp := x.rw.response(req, p.life.closed())
	x.release()
	return resp, nil
}

// refused is the error of a request to a stopped service: what dialling
// its address gives.
func refused(req *http.Request) error {
	return &net.OpError{Op: "dial", Net: "tcp", Addr: hostAddr(req),
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// hostAddr is the address a request's URL names, as a net.Addr.
func hostAddr(req *http.Request) net.Addr {
	if req.URL == nil {
		return nil
	}
	return textAddr(req.URL.Host)
}

type textAddr string

func (a textAddr) Network() string { return "tcp" }
func (a textAddr) String() string  { return string(a) }

// closeBody closes a request's body, as a Transport does with a request
// it does not send.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// lifeContext is the context of the handlers of an InProcess: it ends at
// Close. A request's own (inContext) adds the client's Done for
// ClientGone.
type lifeContext struct {
	done chan struct{}
	once sync.Once
}

func (l *lifeContext) closed() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// errClosed is the context's error once the front is closed.
var errClosed = context.Canceled

// inContext is the context of one in-process request: the front's life,
// and, while the handler runs on the client's goroutine, the client's
// Done (ClientGone).
type inContext struct {
	life   *lifeContext
	client <-chan struct{}
}

func (c *inContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *inContext) Done() <-chan struct{}       { return c.life.done }
func (c *inContext) Value(any) any               { return nil }
func (c *inContext) Err() error {
	if c.life.closed() {
		return errClosed
	}
	return nil
}

// ClientGone is the channel closed when the client of an in-process
// request served on the client's own goroutine gives up (nil otherwise:
// the socket front's requests, and detached ones, whose client leaves
// without the handler). A handler that waits selects on it beside its
// context's Done, so the client leaves at its deadline; what the handler
// does then is its own (the socket front's handler would have gone on).
func ClientGone(ctx context.Context) <-chan struct{} {
	if c, ok := ctx.(*inContext); ok {
		return c.client
	}
	return nil
}

// The states of a detached exchange.
const (
	stateRunning int32 = iota
	stateServed
	stateAbandoned
)

var errNotPlain = errors.New("httpfront: not a plain request")

// inState is an exchange's state, for detached requests.
type inState = atomic.Int32

// InProcessContext reports whether ctx is the context of a request the
// in-process front serves itself (not through the socket front): its
// handler runs on the client's goroutine unless the front detached it.
func InProcessContext(ctx context.Context) bool {
	_, ok := ctx.(*inContext)
	return ok
}
