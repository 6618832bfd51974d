package emulator

import (
	"bufio"
	"bytes"
	"io"
	"iter"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// The service's HTTP/1.1 layer is fasthttp, in front of the same
// http.Handler (Server.ServeHTTP) that net/http and httptest serve: a
// fasthttp request is handed to the handler as the *http.Request net/http
// would have made of the same bytes (TestFastRequestAsNetHTTP), its
// strings in one allocation and nothing else allocated (but the canonical
// name of a header outside canonicalNames), and the handler's answer is
// written as net/http would write it, byte for byte but for the order of the header
// lines and the body's framing (TestWireAsNetHTTP). fasthttp's connection
// handling (one read and one write per request on a reused buffer, no
// goroutine or context per request) costs about two thirds of net/http's
// per request on this service's small answers (bench/server-cpu.sh
// measures both floors, floor and fastfloor).
//
// What differs from net/http, by design of fasthttp:
//   - the request's context ends when the service shuts down, not when the
//     client goes away: a request the client gave up waiting for (injected
//     latency, the model's service time) is held to its end and counted as
//     answered, as it is when the client waits;
//   - the body is read whole before the handler runs, so a body refused as
//     too large leaves the connection open where net/http closes it;
//   - a request line and headers over maxHeaderBytes get 431 (net/http's
//     default allows 1 MiB).

// maxHeaderBytes bounds a request's line and headers (fasthttp's read
// buffer, one a connection); SDK requests, a SAS token included, carry a
// few KiB.
const maxHeaderBytes = 64 << 10

// maxBodyBytes bounds what fasthttp reads of a request body before the
// handler sees it. It is above every limit the service enforces itself
// (4 MiB a batch, 1 MiB an entity), so those are answered as Azure answers
// them; a body past it gets fasthttp's 413.
const maxBodyBytes = 32 << 20

// newFastServer is the fasthttp server that serves h.
func newFastServer(h http.Handler) *fasthttp.Server {
	return &fasthttp.Server{
		Handler:        func(c *fasthttp.RequestCtx) { serveFast(h, c) },
		ReadBufferSize: maxHeaderBytes,
		ReadTimeout:    10 * time.Second, // a request, once its first byte came
		IdleTimeout:    2 * time.Minute,
		// fasthttp's worker pool has a cleaner that notices the server
		// stopped only when it wakes, once this period: so the last of
		// the service's goroutines ends within it of Close.
		MaxIdleWorkerDuration:         time.Second,
		MaxRequestBodySize:            maxBodyBytes,
		DisableHeaderNamesNormalizing: true,
		NoDefaultServerHeader:         true,
		NoDefaultContentType:          true,
		NoDefaultDate:                 true, // fastWriter writes it, as net/http does
		DisablePreParseMultipartForm:  true,
		CloseOnShutdown:               true,
		Logger:                        log.New(io.Discard, "", 0),
	}
}

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

// serveFast answers c with h.
func serveFast(h http.Handler, c *fasthttp.RequestCtx) {
	x := exchanges.Get().(*exchange)
	defer exchanges.Put(x)
	x.ctx.c = c
	if !x.load(c) {
		c.Error("Bad Request", http.StatusBadRequest)
		return
	}
	x.rw.reset(c)
	defer func() {
		if v := recover(); v != nil {
			// As net/http: an aborted handler closes the connection
			// without an answer.
			if v != http.ErrAbortHandler {
				log.Printf("emulator: panic serving %s: %v", c.RemoteAddr(), v)
			}
			c.Conn().Close()
		}
	}()
	h.ServeHTTP(&x.rw, x.req)
	x.rw.finish()
}

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
	at, t, n := x.headers(rh.All(), t, hostEnd)
	if n != bytes.Count(rh.RawHeaders(), []byte("\n"))-1 || rh.ConnectionClose() || len(rh.Peek("Trailer")) > 0 || hasCookies(rh) {
		at, t, _ = x.headers(rh.AllInOrder(), t, hostEnd)
	}
	x.text, x.at = t, at
	text := string(t)
	u := &x.url
	if !requestURL(u, text[:uriEnd]) {
		return false
	}
	r := x.req
	hdr := r.Header
	if hdr == nil {
		hdr = make(http.Header, 12)
	}
	clear(hdr)
	// One array holds every value; a name that comes again appends past
	// its one-value window, into a slice of its own. Like the map, the
	// array is the exchange's: neither outlives the request.
	vals := x.vals[:0]
	if cap(vals) < len(at) {
		vals = make([]string, 0, len(at)+4)
	}
	for _, a := range at {
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
	body := c.Request.Body()
	x.body.Reset(body)
	*r = *x.tmpl
	r.Method = method(c.Method())
	r.URL = u
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header = hdr
	r.Body = &x.body
	r.ContentLength = int64(len(body))
	if c.Request.Header.ContentLength() == -1 { // chunked, as net/http reads it
		r.ContentLength, r.TransferEncoding = -1, chunked
	}
	r.Host = text[uriEnd:hostEnd]
	r.RemoteAddr = addrText(c.RemoteAddr())
	r.RequestURI = text[:uriEnd]
	return true
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

// hasCookies reports whether a request carries a cookie.
func hasCookies(h *fasthttp.RequestHeader) bool {
	for range h.Cookies() {
		return true
	}
	return false
}

// requestURL sets *u to what url.ParseRequestURI makes of uri; false
// when that fails. A path of plain bytes (no %, no byte that makes
// ParseRequestURI keep a RawPath, see plainPathByte) with any query, the
// requests SDKs send but for their keys in parentheses and quotes, is
// split without it; anything else is parsed by it.
func requestURL(u *url.URL, uri string) bool {
	path, query, hasQuery := strings.Cut(uri, "?")
	if len(path) == 0 || path[0] != '/' || strings.Contains(path, "%") || hasCTL(query) {
		return parseRequestURL(u, uri)
	}
	raw := ""
	for i := 0; i < len(path); i++ {
		switch c := path[i]; plainPathByte[c] {
		case 0: // a byte that url does not take as it is
			return parseRequestURL(u, uri)
		case 2: // taken, but escaped by EscapedPath: the path is kept raw
			raw = path
		}
	}
	*u = url.URL{Path: path, RawPath: raw, RawQuery: query, ForceQuery: hasQuery && query == ""}
	return true
}

// hasCTL reports whether s holds an ASCII control byte, which
// url.ParseRequestURI refuses anywhere.
func hasCTL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// parseRequestURL is requestURL by url.ParseRequestURI.
func parseRequestURL(u *url.URL, uri string) bool {
	p, err := url.ParseRequestURI(uri)
	if err != nil {
		return false
	}
	*u = *p
	return true
}

// plainPathByte classifies a path's bytes for requestURL: 1 for those
// url.URL.EscapedPath writes as they are (letters, digits, "-_.~$&+,/:;=@"),
// 2 for those it would escape but that a request's path may carry as they
// are ("!'()*", which make ParseRequestURI keep the path as RawPath), 0
// for the rest (%, controls, spaces, brackets, non-ASCII, ...: parsed by
// url).
var plainPathByte = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1, 1
	}
	for _, c := range "-_.~$&+,/:;=@" {
		t[c] = 1
	}
	for _, c := range "!'()*" {
		t[c] = 2
	}
	return t
}()

// canonicalNames maps the spellings of the request headers SDKs send (as
// listed, lower case, canonical) to their canonical keys
// (http.CanonicalHeaderKey's), found without making a string of the name.
var canonicalNames = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"Accept", "Accept-Charset", "Accept-Encoding", "Authorization", "Connection", "Content-Length",
		"Content-MD5", "Content-Type", "DataServiceVersion", "Date", "Expect", "Host", "If-Match",
		"MaxDataServiceVersion", "Prefer", "Traceparent", "Transfer-Encoding", "User-Agent",
		"X-Ms-Client-Request-Id", "X-Ms-Date", "X-Ms-Return-Client-Request-Id", "X-Ms-Version",
	} {
		c := http.CanonicalHeaderKey(k)
		m[k], m[strings.ToLower(k)], m[c] = c, c, c
	}
	return m
}()

// method is m as a string, without an allocation for the methods of the
// Table protocol.
func method(m []byte) string {
	for _, s := range [...]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodPatch, "MERGE", http.MethodOptions} {
		if string(m) == s {
			return s
		}
	}
	return string(m)
}

// fastWriter is the http.ResponseWriter over a fasthttp response.
type fastWriter struct {
	c     *fasthttp.RequestCtx
	h     http.Header
	wrote bool
	// line, src and br read the Date header into the answer (setDate).
	line []byte
	src  bytes.Reader
	br   *bufio.Reader
}

func (w *fastWriter) reset(c *fasthttp.RequestCtx) {
	w.c, w.wrote = c, false
	if w.h == nil {
		w.h = make(http.Header, 12)
	}
	clear(w.h)
}

func (w *fastWriter) Header() http.Header { return w.h }

func (w *fastWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	rh := &w.c.Response.Header
	date := w.h["Date"]
	if len(date) == 0 {
		// As net/http: the time of the answer, when the handler wrote
		// none.
		date = systemDates.of(time.Now())
	}
	w.setDate(date[0])
	rh.SetStatusCode(status)
	for k, vs := range w.h {
		if k == "Date" {
			continue
		}
		for _, v := range vs {
			rh.Add(k, v)
		}
	}
}

// setDate makes date the answer's Date header. fasthttp's setters refuse
// Date (it writes its own, refreshed once a second, so up to a second
// old, and never on the service's clock); a header it reads keeps it, and
// with NoDefaultDate it writes that one. Reading resets the answer's
// headers: setDate comes first.
func (w *fastWriter) setDate(date string) {
	w.line = append(append(append(w.line[:0], "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nDate: "...), date...), "\r\n\r\n"...)
	w.src.Reset(w.line)
	if w.br == nil {
		w.br = bufio.NewReaderSize(&w.src, 128)
	}
	w.br.Reset(&w.src)
	rh := &w.c.Response.Header
	if err := rh.Read(w.br); err != nil {
		panic("emulator: fasthttp refused a Date header: " + err.Error())
	}
	// What else reading set goes back to fasthttp's defaults: the status
	// line from the status code alone, a connection kept open.
	rh.SetProtocol(nil)
	rh.SetStatusMessage(nil)
	rh.ResetConnectionClose()
}

// systemDates is the Date header on the system clock.
var systemDates dateCache

func (w *fastWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.c.Write(b)
}

// finish completes an answer the handler left without a status.
func (w *fastWriter) finish() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
}

// Hijack hands over the connection; the service only closes it (a dropped
// connection, a fault it injects).
func (w *fastWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn := w.c.Conn()
	return conn, bufio.NewReadWriter(bufio.NewReader(conn), bufio.NewWriter(conn)), nil
}
