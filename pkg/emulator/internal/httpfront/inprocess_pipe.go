package httpfront

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/tablestress/tablestress/internal/pipenet"
)

// pipeOnce is the socket front of an InProcess over in-memory connections,
// started at its first use: the requests and answers the in-process
// conversion leaves to it go through net/http's Transport and fasthttp as
// over a socket. direct serves requests with the handler; replay writes
// answers the handler already gave.
type pipeOnce struct {
	front    *InProcess
	mu       sync.Mutex
	closed   bool
	direct   *pipeServer
	replayer *pipeServer
	answers  sync.Map // replay id → *answer
	next     atomic.Uint64
	// used counts the requests sent through the socket front.
	used atomic.Int64
}

// pipeServer is a socket front served over a pipenet listener, and the
// Transport that reaches it.
type pipeServer struct {
	l    *pipenet.Listener
	srv  *fasthttp.Server
	tr   *http.Transport
	done chan error
}

// replayHeader names the answer a replayed request is to get.
const replayHeader = "Replay-Answer"

// errPipeClosed refuses a request once the front is closed.
var errPipeClosed = errors.New("httpfront: the in-process front is closed")

// server returns *ps, started on h at first use.
func (o *pipeOnce) server(ps **pipeServer, h http.HandlerFunc) (*pipeServer, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil, errPipeClosed
	}
	if *ps == nil {
		l := pipenet.Listen()
		s := &pipeServer{l: l, srv: NewServer(h, 0), done: make(chan error, 1), tr: &http.Transport{
			DialContext: l.Dial, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second, ExpectContinueTimeout: time.Second}}
		go func() { s.done <- s.srv.Serve(peerListener{l}) }()
		*ps = s
	}
	return *ps, nil
}

// roundTrip sends req through the socket front.
func (o *pipeOnce) roundTrip(req *http.Request) (*http.Response, error) {
	o.used.Add(1)
	s, err := o.server(&o.direct, func(w http.ResponseWriter, r *http.Request) { o.front.h.ServeHTTP(w, r) })
	if err != nil {
		closeBody(req)
		return nil, refused(req)
	}
	if req.URL != nil && req.URL.Scheme == "https" {
		// Nothing is encrypted in process: the socket front over the
		// in-memory connection speaks plain HTTP.
		r := req.Clone(req.Context())
		r.URL.Scheme = "http"
		resp, err := s.tr.RoundTrip(r)
		if resp != nil {
			resp.Request = req
		}
		return resp, err
	}
	return s.tr.RoundTrip(req)
}

// replay has the socket front write the handler's answer a to req, whose
// body was body: the answer the client reads is then what the socket
// front's bytes for it make.
func (o *pipeOnce) replay(req *http.Request, body []byte, a *answer) (*http.Response, error) {
	o.used.Add(1)
	s, err := o.server(&o.replayer, o.serveReplay)
	if err != nil {
		return nil, refused(req)
	}
	id := strconv.FormatUint(o.next.Add(1), 10)
	o.answers.Store(id, a)
	defer o.answers.Delete(id)
	r := req.Clone(req.Context())
	r.URL.Scheme = "http"
	r.Header[replayHeader] = []string{id}
	r.Body, r.GetBody = nil, nil
	if len(body) > 0 || req.ContentLength != 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := s.tr.RoundTrip(r)
	if resp != nil {
		resp.Request = req
	}
	return resp, err
}

// serveReplay writes the answer a replayed request names, as the handler
// wrote it.
func (o *pipeOnce) serveReplay(w http.ResponseWriter, r *http.Request) {
	v, ok := o.answers.Load(reqHeaderValue(r, replayHeader))
	if !ok {
		panic(http.ErrAbortHandler)
	}
	a := v.(*answer)
	h := w.Header()
	for k, vs := range a.header {
		h[k] = vs
	}
	w.WriteHeader(a.status)
	if len(a.body) > 0 {
		w.Write(a.body)
	}
}

func reqHeaderValue(r *http.Request, k string) string {
	if v := r.Header[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// closeIdle closes the idle in-memory connections.
func (o *pipeOnce) closeIdle() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range []*pipeServer{o.direct, o.replayer} {
		if s != nil {
			s.tr.CloseIdleConnections()
		}
	}
}

// close stops the servers, waiting for their requests until ctx ends.
func (o *pipeOnce) close(ctx context.Context) error {
	o.mu.Lock()
	o.closed = true
	servers := []*pipeServer{o.direct, o.replayer}
	o.mu.Unlock()
	var errs []error
	for _, s := range servers {
		if s == nil {
			continue
		}
		s.tr.CloseIdleConnections()
		errs = append(errs, s.srv.ShutdownWithContext(ctx))
		s.l.Close()
		errs = append(errs, <-s.done)
	}
	return errors.Join(errs...)
}

// peerListener gives its connections the in-process front's peer address
// (InProcessAddr), which an in-memory connection does not have.
type peerListener struct{ *pipenet.Listener }

var inProcessPeer = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 0}

func (l peerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return peerConn{c}, nil
}

type peerConn struct{ net.Conn }

func (peerConn) RemoteAddr() net.Addr { return inProcessPeer }
