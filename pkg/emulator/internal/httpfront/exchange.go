package httpfront

import (
	"bytes"
	"iter"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// exchange is one request's http.Request and http.ResponseWriter over a
// fasthttp.RequestCtx, pooled. The request is made once, with the
// exchange's context (fastContext) set, and reset from tmpl for each
// request: nothing about it is allocated per request but its strings, and
// those in one piece (text).
type exchange struct {
	req  *http.Request
	tmpl *http.Request // req's zero value, with its context
	ctx  fastContext
	url  url.URL
	body fastBody
	rw   fastWriter
	text []byte   // the request's strings, before they become one
	vals []string // the header values, in one array
	at   []span   // where each header's value is in text
}

// span is a header's canonical name and where its value is in
// exchange.text.
type span struct {
	key        string
	start, end int
}

var exchanges = sync.Pool{New: func() any {
	x := new(exchange)
	x.tmpl = new(http.Request).WithContext(&x.ctx)
	x.req = new(http.Request)
	return x
}}

// fastContext is the context of the request an exchange holds: its
// fasthttp.RequestCtx's, which ends when the server shuts down.
type fastContext struct{ c *fasthttp.RequestCtx }

func (f *fastContext) Deadline() (time.Time, bool) { return f.c.Deadline() }
func (f *fastContext) Done() <-chan struct{}       { return f.c.Done() }
func (f *fastContext) Err() error                  { return f.c.Err() }
func (f *fastContext) Value(key any) any           { return f.c.Value(key) }

// fastBody is a request's body as the handler reads it.
type fastBody struct{ bytes.Reader }

// Close does nothing, as closing a server request's body does.
func (*fastBody) Close() error { return nil }

// chunked is a chunked request's TransferEncoding.
var chunked = []string{"chunked"}

// load makes x.req what net/http makes of c's request; false when its
// target is not a URL net/http accepts.
func (x *exchange) load(c *fasthttp.RequestCtx) bool {
	// The target, the host and the header values, copied into one
	// string.
	t := append(x.text[:0], c.RequestURI()...)
	uriEnd := len(t)
	t = append(t, c.Host()...)
	hostEnd := len(t)
	// The headers as fasthttp parsed them, each name's values in the
	// order they came (the map keeps no other order). Where the parse
	// changed what came, they are read again from the request's bytes:
	// when fasthttp kept one of repeated Content-Type or User-Agent lines,
	// added a "Content-Length: 0" nobody sent (the count of headers
	// differs from the count of lines), or may have rewritten one
	// (Cookie lines merged, a Trailer or a "Connection: close").
	rh := &c.Request.Header
	body := c.Request.Body()
	// fasthttp takes an empty chunked body for "Content-Length: 0", which
	// net/http does not.
	isChunked := rh.ContentLength() == -1 || len(body) == 0 && rh.ContentLength() == 0 && sentChunked(rh.RawHeaders())
	at, t, n := x.headers(rh.All(), t, hostEnd)
	if n != bytes.Count(rh.RawHeaders(), []byte("\n"))-1 || isChunked || rh.ConnectionClose() || len(rh.Peek("Trailer")) > 0 || hasCookies(rh) {
		at, t, _ = x.headers(rh.AllInOrder(), t, hostEnd)
	}
	x.text, x.at = t, at
	text := string(t)
	u := &x.url
	if !requestURL(u, text[:uriEnd]) {
		return false
	}
	r := x.req
	hdr := x.headerMap(text)
	x.body.Reset(body)
	*r = *x.tmpl
	r.Method = method(c.Method())
	r.URL = u
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header = hdr
	r.Body = &x.body
	r.Close = rh.ConnectionClose()
	r.ContentLength = int64(len(body))
	if isChunked { // as net/http reads it
		r.ContentLength, r.TransferEncoding = -1, chunked
	}
	r.Host = text[uriEnd:hostEnd]
	r.RemoteAddr = addrText(c.RemoteAddr())
	r.RequestURI = text[:uriEnd]
	return true
}

// headerMap fills the request's header map (the exchange's, kept from its
// last request) with the values of x.at in text, and returns it. One
// array holds every value; a name that comes again appends past its
// one-value window, into a slice of its own. Like the map, the array is
// the exchange's: neither outlives the request.
func (x *exchange) headerMap(text string) http.Header {
	hdr := x.req.Header
	if hdr == nil {
		hdr = make(http.Header, 12)
	}
	clear(hdr)
	vals := x.vals[:0]
	if cap(vals) < len(x.at) {
		vals = make([]string, 0, len(x.at)+4)
	}
	for _, a := range x.at {
		v := text[a.start:a.end]
		if prev, dup := hdr[a.key]; dup {
			hdr[a.key] = append(prev, v)
			continue
		}
		vals = append(vals, v)
		n := len(vals)
		hdr[a.key] = vals[n-1 : n : n]
	}
	x.vals = vals
	return hdr
}

// headers appends the values of the headers hs yields to t[:from], and
// returns their spans (but Host's and Transfer-Encoding's, which net/http
// does not keep in the map), t and how many headers hs yielded.
func (x *exchange) headers(hs iter.Seq2[[]byte, []byte], t []byte, from int) ([]span, []byte, int) {
	at, t, n := x.at[:0], t[:from], 0
	for k, v := range hs {
		n++
		key, ok := canonicalNames[string(k)]
		if !ok {
			key = http.CanonicalHeaderKey(string(k))
		}
		if key == "Host" || key == "Transfer-Encoding" {
			continue
		}
		at = append(at, span{key, len(t), len(t) + len(v)})
		t = append(t, v...)
	}
	return at, t, n
}

// sentChunked reports whether raw, a request's header lines, has a
// Transfer-Encoding line.
func sentChunked(raw []byte) bool {
	for len(raw) > 0 {
		line, rest, _ := bytes.Cut(raw, []byte("\n"))
		name, _, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(bytes.TrimSpace(name), []byte("Transfer-Encoding")) {
			return true
		}
		raw = rest
	}
	return false
}

// hasCookies reports whether a request carries a cookie.
func hasCookies(h *fasthttp.RequestHeader) bool {
	for range h.Cookies() {
		return true
	}
	return false
}
