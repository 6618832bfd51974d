package httpfront

import (
	"io"
	"log"
	"net/http"
	"time"

	"github.com/valyala/fasthttp"
)

// maxHeaderBytes bounds a request's line and headers (fasthttp's read
// buffer, one a connection); SDK requests, a SAS token included, carry a
// few KiB.
const maxHeaderBytes = 64 << 10

// maxBodyBytes bounds what fasthttp reads of a request body before the
// handler sees it. It is above every limit the service enforces itself
// (4 MiB a batch, 1 MiB an entity), so those are answered as Azure answers
// them; a body past it gets fasthttp's 413.
const maxBodyBytes = 32 << 20

// NewServer is the fasthttp server that serves h, closing a kept-alive
// connection idle for idle (0: two minutes).
func NewServer(h http.Handler, idle time.Duration) *fasthttp.Server {
	if idle <= 0 {
		idle = 2 * time.Minute
	}
	return &fasthttp.Server{
		Handler:        func(c *fasthttp.RequestCtx) { serveFast(h, c) },
		ReadBufferSize: maxHeaderBytes,
		ReadTimeout:    10 * time.Second, // a request, once its first byte came
		IdleTimeout:    idle,
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
				log.Printf("httpfront: panic serving %s: %v", c.RemoteAddr(), v)
			}
			c.Conn().Close()
		}
	}()
	h.ServeHTTP(&x.rw, x.req)
	x.rw.finish()
}
