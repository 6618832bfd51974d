package httpfront

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
)

// inExchange is one in-process request: the handler's http.Request and
// http.ResponseWriter, pooled as the socket front's exchange is.
type inExchange struct {
	req   http.Request
	tmpl  *http.Request // req's zero value, with its context
	ctx   inContext
	url   url.URL
	hdr   http.Header
	vals  []string
	body  []byte
	rd    fastBody
	rw    inWriter
	state inState
	// served is told when a detached request is served: made per
	// request, not pooled (a channel made in a testing/synctest bubble
	// must not outlive it, nor one made outside be waited on in one).
	served chan struct{}
}

var inExchanges = sync.Pool{New: func() any {
	x := &inExchange{hdr: make(http.Header, 12)}
	x.tmpl = new(http.Request).WithContext(&x.ctx)
	return x
}}

// release returns x to the pool, keeping its buffers when small.
func (x *inExchange) release() {
	x.req = *x.tmpl
	x.ctx = inContext{}
	x.rd.Reset(nil)
	x.rw.reset()
	x.state.Store(stateRunning)
	x.served = nil
	if cap(x.body) > 1<<20 {
		x.body = nil
	}
	inExchanges.Put(x)
}

// Request headers net/http's Transport writes from fields of its own, not
// from the header map (User-Agent from the map's first value), when the map
// spells them canonically; spelled otherwise it writes them as well, which
// the socket front then takes instead.
var transportOwned = map[string]bool{"Host": true, "User-Agent": true, "Content-Length": true, "Transfer-Encoding": true, "Trailer": true}

// Request headers that change how the request or the connection is handled
// (or, Range, whether net/http adds Accept-Encoding): a request carrying one
// goes through the socket front.
var connectionHeaders = map[string]bool{"Connection": true, "Expect": true, "Upgrade": true, "Te": true, "Keep-Alive": true,
	"Proxy-Connection": true, "Cookie": true, "Range": true}

// Methods net/http's Transport sends a body of unknown length with only
// after probing it (it may then send none): such requests go through the
// socket front.
var probedMethods = map[string]bool{"GET": true, "HEAD": true, "DELETE": true, "OPTIONS": true, "PROPFIND": true, "SEARCH": true}

// Shared header values; the handler only reads them.
var (
	defaultUserAgent = "Go-http-client/1.1"
	gzipValue        = "gzip"
)

// load makes x's request what the socket front hands the handler for the
// bytes net/http's Transport writes for req: the same method, URL, host,
// headers (Transport's own among them: Host, User-Agent, Content-Length,
// Accept-Encoding), body and framing. It reads and closes req's body. It
// returns errNotPlain, having read nothing, for a request outside the
// shapes it converts.
func (x *inExchange) load(req *http.Request, life *lifeContext) error {
	framing, ok := requestFraming(req)
	if !ok {
		return errNotPlain
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	if !plainHost(host) {
		return errNotPlain
	}
	ruri := req.URL.RequestURI()
	if hasCTL(ruri) || !requestURL(&x.url, ruri) {
		return errNotPlain
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	if !x.headers(req, method, framing) {
		return errNotPlain
	}
	if err := x.readBody(req, framing); err != nil {
		return err
	}
	x.ctx.life = life
	r := &x.req
	*r = *x.tmpl
	r.Method = method
	r.URL = &x.url
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header = x.hdr
	x.rd.Reset(x.body)
	r.Body = &x.rd
	r.ContentLength = int64(len(x.body))
	if framing == frameChunked {
		r.ContentLength, r.TransferEncoding = -1, chunked
	}
	r.Host = host
	r.RemoteAddr = InProcessAddr
	r.RequestURI = ruri
	return nil
}

// How a request's body goes on the wire.
const (
	frameNone    = iota // no body
	frameEmpty          // an empty body of no stated length ("identity")
	frameLength         // Content-Length
	frameChunked        // Transfer-Encoding: chunked
)

// requestFraming is how net/http's Transport frames req's body; false for
// a request it converts otherwise than this front does (a body it probes,
// an unknown transfer encoding, a close, trailers, the deprecated Cancel
// channel, which only the Transport honours).
func requestFraming(req *http.Request) (int, bool) {
	//lint:ignore SA1019 a request that still sets Cancel is left to the Transport, which honours it
	if req.URL == nil || req.Header == nil || req.Close || len(req.Trailer) > 0 || req.Cancel != nil ||
		(req.URL.Scheme != "http" && req.URL.Scheme != "https") || req.URL.Opaque != "" || req.URL.User != nil || req.URL.Host == "" {
		return 0, false
	}
	switch req.Method {
	case "", http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodPatch, "MERGE", http.MethodOptions:
	default:
		return 0, false
	}
	te := ""
	switch len(req.TransferEncoding) {
	case 0:
	case 1:
		te = req.TransferEncoding[0]
		if te != "identity" && te != "chunked" {
			return 0, false
		}
	default:
		return 0, false
	}
	if req.Body == nil || req.Body == http.NoBody {
		return frameNone, req.ContentLength == 0
	}
	switch {
	case te == "chunked":
		return frameChunked, true
	case req.ContentLength > 0:
		return frameLength, true
	case req.ContentLength == 0 && te == "identity":
		return frameEmpty, true
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	return frameChunked, !probedMethods[method]
}

// headers fills x.hdr with what the socket front makes of the header lines
// the Transport writes for req; false when one of them is not of a plain
// form (see plainValue), names a connection header, or two names are one
// name differently spelled.
func (x *inExchange) headers(req *http.Request, method string, framing int) bool {
	hdr := x.hdr
	clear(hdr)
	vals := x.vals[:0]
	add := func(k string, vs ...string) {
		start := len(vals)
		vals = append(vals, vs...)
		hdr[k] = vals[start:len(vals):len(vals)]
	}
	hasAE := false
	for k, vs := range req.Header {
		c, ok := canonicalNames[k]
		if !ok {
			if !tokenName(k) {
				return false
			}
			c = http.CanonicalHeaderKey(k)
		}
		if transportOwned[c] && k == c {
			continue
		}
		if transportOwned[c] || connectionHeaders[c] || (c == "Accept-Encoding" && k != c) {
			return false
		}
		if len(vs) == 0 {
			continue
		}
		if _, dup := hdr[c]; dup {
			return false
		}
		for _, v := range vs {
			if !plainValue(v) {
				return false
			}
		}
		hasAE = hasAE || c == "Accept-Encoding"
		add(c, vs...)
	}
	x.vals = vals
	return x.transportHeaders(req, method, framing, hasAE)
}

// transportHeaders adds to x.hdr the headers net/http's Transport writes
// of its own: User-Agent (the map's first value, else Go's), the body's
// Content-Length, and Accept-Encoding: gzip unless the request has one
// (the Transport would then decode a gzip answer); false when the
// User-Agent is not of a plain form.
func (x *inExchange) transportHeaders(req *http.Request, method string, framing int, hasAE bool) bool {
	add := func(k, v string) {
		x.vals = append(x.vals, v)
		n := len(x.vals)
		x.hdr[k] = x.vals[n-1 : n : n]
	}
	ua := defaultUserAgent
	if vs, ok := req.Header["User-Agent"]; ok {
		ua = ""
		if len(vs) > 0 {
			ua = vs[0]
		}
	}
	if ua != "" {
		if !plainValue(ua) {
			return false
		}
		add("User-Agent", ua)
	}
	switch {
	case framing == frameLength:
		add("Content-Length", formatLength(req.ContentLength))
	case framing == frameNone && (method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch):
		add("Content-Length", "0")
	}
	if !hasAE && method != http.MethodHead {
		add("Accept-Encoding", gzipValue)
	}
	return true
}

// readBody reads and closes req's body into x.body, as the Transport sends
// it: a body of stated length must have that length.
func (x *inExchange) readBody(req *http.Request, framing int) error {
	x.body = x.body[:0]
	if framing == frameNone {
		return nil
	}
	defer req.Body.Close()
	b, err := readAll(x.body, req.Body)
	x.body = b
	if err != nil {
		return err
	}
	switch {
	case framing == frameLength && int64(len(b)) != req.ContentLength:
		return fmt.Errorf("http: ContentLength=%d with Body length %d", req.ContentLength, len(b))
	case framing == frameEmpty && len(b) != 0:
		return fmt.Errorf("httpfront: a body of %d bytes sent with Transfer-Encoding identity and no length", len(b))
	}
	return nil
}
