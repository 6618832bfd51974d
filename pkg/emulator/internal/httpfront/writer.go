package httpfront

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

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
		date = systemDates.Of(time.Now())
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
// headers: setDate comes first. The header read for a date is kept
// (dateHeaders) and copied into the answers with the same date, which
// costs a fraction of reading it again.
func (w *fastWriter) setDate(date string) {
	rh := &w.c.Response.Header
	if d := dateHeaders.Load(); d != nil && d.date == date {
		d.h.CopyTo(rh)
		return
	}
	w.readDate(date)
	d := &dateHeader{date: date}
	rh.CopyTo(&d.h)
	dateHeaders.Store(d)
}

// dateHeader is an answer's header holding nothing but a Date, as
// readDate leaves it: only read once stored.
type dateHeader struct {
	date string
	h    fasthttp.ResponseHeader
}

// dateHeaders is the last Date header read, shared by every answer.
var dateHeaders atomic.Pointer[dateHeader]

// readDate makes date the answer's Date header by reading it (setDate).
func (w *fastWriter) readDate(date string) {
	w.line = append(append(append(w.line[:0], "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nDate: "...), date...), "\r\n\r\n"...)
	w.src.Reset(w.line)
	if w.br == nil {
		w.br = bufio.NewReaderSize(&w.src, 128)
	}
	w.br.Reset(&w.src)
	rh := &w.c.Response.Header
	if err := rh.Read(w.br); err != nil {
		panic("httpfront: fasthttp refused a Date header: " + err.Error())
	}
	// What else reading set goes back to fasthttp's defaults: the status
	// line from the status code alone, a connection kept open.
	rh.SetProtocol(nil)
	rh.SetStatusMessage(nil)
	rh.ResetConnectionClose()
}

// systemDates is the Date header on the system clock.
var systemDates DateCache

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
