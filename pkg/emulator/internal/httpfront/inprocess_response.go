package httpfront

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// inWriter is the http.ResponseWriter of an in-process request. At
// WriteHeader it takes the handler's headers as the socket front does (a
// change to the map after it is not sent), converted to what the client
// reads of them (canonical names, the Date the front writes); an answer of
// a shape it does not convert is kept as the handler gave it, for the
// socket front to write (recorded).
type inWriter struct {
	h      http.Header
	wrote  bool
	status int
	// out is the client's header, when plain; snap the handler's, when not.
	out   http.Header
	vals  []string
	plain bool
	snap  http.Header
	// headLength is the Content-Length the handler stated, -1 for none.
	headLength int64
	body       *[]byte
	dropped    bool
}

func (w *inWriter) reset() {
	clear(w.h)
	w.wrote, w.status, w.out, w.vals, w.plain, w.snap, w.dropped = false, 0, nil, nil, false, nil, false
	if w.body != nil {
		putBody(w.body)
		w.body = nil
	}
}

// Header implements http.ResponseWriter.
func (w *inWriter) Header() http.Header {
	if w.h == nil {
		w.h = make(http.Header, 12)
	}
	return w.h
}

// WriteHeader implements http.ResponseWriter: the first call counts.
func (w *inWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote, w.status = true, status
	w.plain = w.convert()
	if !w.plain {
		w.snap = w.h.Clone()
	}
}

// Write implements http.ResponseWriter.
func (w *inWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.body == nil {
		w.body = getBody()
	}
	*w.body = append(*w.body, b...)
	return len(b), nil
}

// finish completes an answer the handler left without a status.
func (w *inWriter) finish() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
}

// Hijack implements http.Hijacker for a handler that closes the
// connection (the drop fault): the connection it gets does nothing but
// close, which fails the request as a closed connection does.
func (w *inWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c := &closingConn{w: w}
	return c, bufio.NewReadWriter(bufio.NewReader(c), bufio.NewWriter(c)), nil
}

// Response headers fasthttp writes from fields of its own, by rules of its
// own (one value kept, cookies parsed, framing): an answer carrying one is
// written by the socket front.
var specialAnswerHeaders = map[string]bool{"Server": true, "Connection": true, "Transfer-Encoding": true, "Trailer": true,
	"Content-Encoding": true, "Set-Cookie": true, "Keep-Alive": true}

// convert builds the client's header from the handler's; false when the
// answer is not of a plain shape: a status that is not final or is 304, a
// name that is not a token, two names that are one differently spelled,
// one of specialAnswerHeaders, a value that is not plain (plainValue) or
// is empty, a Content-Type or Date that is not one plain value, a stated
// length that is not a number.
func (w *inWriter) convert() bool {
	if w.status < 200 || w.status > 999 || w.status == http.StatusNotModified {
		return false
	}
	out := make(http.Header, len(w.h)+1)
	vals := make([]string, 0, len(w.h)+2)
	w.headLength = -1
	for k, vs := range w.h {
		if len(vs) == 0 {
			continue
		}
		c, ok := canonicalNames[k]
		if !ok {
			if !tokenName(k) {
				return false
			}
			c = http.CanonicalHeaderKey(k)
		}
		if specialAnswerHeaders[c] {
			return false
		}
		if _, dup := out[c]; dup {
			return false
		}
		for _, v := range vs {
			if v == "" || !plainValue(v) {
				return false
			}
		}
		switch c {
		case "Date":
			vs = vs[:1]
		case "Content-Type":
			vs = vs[len(vs)-1:]
		case "Content-Length":
			if len(vs) != 1 {
				return false
			}
			l, err := strconv.ParseInt(vs[0], 10, 64)
			if err != nil || l < 0 {
				return false
			}
			w.headLength = l
			continue // the front states the body's own length
		}
		start := len(vals)
		vals = append(vals, vs...)
		out[c] = vals[start:len(vals):len(vals)]
	}
	if _, ok := out["Date"]; !ok {
		out["Date"] = systemDates.Of(time.Now())
	}
	w.out, w.vals = out, vals
	return true
}

// response is the client's response to req: what net/http's Transport
// reads from the socket front's bytes for the answer. closing is whether
// the front is shutting down (the socket front then closes the connection
// after the answer).
func (w *inWriter) response(req *http.Request, closing bool) *http.Response {
	resp := &http.Response{Status: statusLine(w.status), StatusCode: w.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.out, Body: http.NoBody, Close: closing, Request: req}
	size := 0
	if w.body != nil {
		size = len(*w.body)
	}
	// fasthttp states the body's length (to a HEAD, the one the handler
	// stated when it wrote no body), but for a 204; net/http reads no
	// length as 0, and to a HEAD as unknown.
	head := req.Method == http.MethodHead
	length := int64(size)
	if head && size == 0 && w.headLength >= 0 {
		length = w.headLength
	}
	switch {
	case w.status != http.StatusNoContent:
		resp.ContentLength = length
		resp.Header["Content-Length"] = []string{strconv.FormatInt(length, 10)}
	case head:
		resp.ContentLength = -1
	}
	if size > 0 && !head && w.status != http.StatusNoContent {
		resp.Body = &inBody{b: w.body}
		w.body = nil
	}
	return resp
}

// recorded is the answer as the handler gave it, for the socket front to
// write.
func (w *inWriter) recorded() *answer {
	a := &answer{status: w.status, header: w.snap}
	if w.body != nil {
		a.body = append([]byte(nil), *w.body...)
	}
	return a
}

// answer is a handler's answer, replayed by the socket front.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// statusLine is Response.Status for a code: the code and fasthttp's
// reason phrase, as net/http reads them from the status line.
func statusLine(code int) string {
	if s, ok := statusLines[code]; ok {
		return s
	}
	return strconv.Itoa(code) + " " + fasthttp.StatusMessage(code)
}

var statusLines = func() map[int]string {
	m := map[int]string{}
	for c := 200; c < 600; c++ {
		if msg := fasthttp.StatusMessage(c); msg != "Unknown Status Code" {
			m[c] = strconv.Itoa(c) + " " + msg
		}
	}
	return m
}()

// inBody is an answer's body as the client reads it; its buffer goes back
// to the pool at Close.
type inBody struct {
	b   *[]byte
	off int
}

func (b *inBody) Read(p []byte) (int, error) {
	if b.b == nil {
		return 0, errBodyClosed
	}
	if b.off >= len(*b.b) {
		return 0, io.EOF
	}
	n := copy(p, (*b.b)[b.off:])
	b.off += n
	return n, nil
}

// WriteTo spares io.Copy and io.ReadAll a buffer of their own.
func (b *inBody) WriteTo(dst io.Writer) (int64, error) {
	if b.b == nil {
		return 0, errBodyClosed
	}
	n, err := dst.Write((*b.b)[b.off:])
	b.off += n
	return int64(n), err
}

func (b *inBody) Close() error {
	if b.b != nil {
		putBody(b.b)
		b.b = nil
	}
	return nil
}

// errBodyClosed is net/http's error for reading a closed body.
var errBodyClosed = errors.New("http: read on closed response body")

var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

func getBody() *[]byte { return bodies.Get().(*[]byte) }

func putBody(b *[]byte) {
	if cap(*b) <= 4<<20 {
		*b = (*b)[:0]
		bodies.Put(b)
	}
}

// closingConn is the connection a handler hijacks in process: closing it
// drops the request.
type closingConn struct {
	net.Conn // nil: only Close is served
	w        *inWriter
}

func (c *closingConn) Close() error                { c.w.dropped = true; return nil }
func (c *closingConn) Read([]byte) (int, error)    { return 0, io.EOF }
func (c *closingConn) Write([]byte) (int, error)   { return 0, net.ErrClosed }
func (c *closingConn) LocalAddr() net.Addr         { return textAddr(InProcessAddr) }
func (c *closingConn) RemoteAddr() net.Addr        { return textAddr(InProcessAddr) }
func (c *closingConn) SetDeadline(time.Time) error { return nil }
