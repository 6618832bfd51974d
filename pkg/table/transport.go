package table

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"
)

// transporter is the HTTP layer under aztables. It sends every request
// exactly once and records the answer's status in the operation's call.
//
// It calls the Transport directly, not through an http.Client, so a
// redirect is never followed by a second request. And it keeps net/http
// from re-sending a request on its own: the Transport silently replays a
// "replayable" request (a GET or HEAD without a body) when a reused
// connection fails after the request was written, so the service would
// see two requests where the tool counts one. A body the Transport cannot
// rewind makes a request non-replayable; an empty body with the explicit
// "identity" transfer encoding puts nothing more on the wire (no body, no
// Content-Length, no Transfer-Encoding: the test reads the wire to check)
// and spares the Transport the probe of a body of unknown length. Requests
// with a body (writes, transactions) are not replayable already: net/http
// only re-sends them when not one byte was written, which the service
// never saw. It is safe for concurrent use.
type transporter struct{ rt http.RoundTripper }

// identity is shared by every request; net/http only reads it.
var identity = []string{"identity"}

type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// WriteTo spares io.Copy its 32 KiB buffer when the Transport copies the
// body of unknown length.
func (emptyBody) WriteTo(io.Writer) (int64, error) { return 0, nil }

// Do implements azcore's policy.Transporter.
func (t transporter) Do(req *http.Request) (*http.Response, error) {
	send := req
	if req.Body == nil || req.Body == http.NoBody {
		switch req.Method {
		case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			r := *req // a shallow copy: RoundTrip must not modify req; headers are shared, untouched
			r.Body, r.GetBody, r.ContentLength, r.TransferEncoding = emptyBody{}, nil, 0, identity
			send = &r
		}
	}
	resp, err := t.rt.RoundTrip(send)
	if c, ok := req.Context().Value(callKey{}).(*call); ok && resp != nil {
		c.status = resp.StatusCode
		c.read(resp.Header)
	}
	return resp, err
}

// newHTTPTransport returns the connection pool of a Service: HTTP/1.1 (one
// connection per in-flight request, as the Table service is used by its
// SDKs) with room for idle connections of every worker, so a closed-loop
// run never closes and reopens them (azcore's default keeps 10 per host).
func newHTTPTransport(workers int) *http.Transport {
	idle := max(workers+8, 16)
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          2 * idle,
		MaxIdleConnsPerHost:   idle,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     false,
	}
}

// call is the context of one operation: the caller's context bounded by
// the request timeout, and the HTTP status of the answer, which the
// transporter fills in. A call belongs to one goroutine.
type call struct {
	context.Context
	status int
	// charge (charged: it was sent) and visited (visitedSent) are the
	// answer's ChargeHeader and VisitedHeader (measured.go).
	charge      float64
	charged     bool
	visited     int
	visitedSent bool
}

type callKey struct{}

// Value implements context.Context; callKey{} finds the call.
func (c *call) Value(key any) any {
	if _, ok := key.(callKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// statusOr is the status of the answer, or def when none was seen.
func (c *call) statusOr(def int) int {
	if c.status != 0 {
		return c.status
	}
	return def
}
