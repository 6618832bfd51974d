package main

import (
	"bytes"
	"net"
	"time"
	"unsafe"

	"github.com/valyala/fasthttp"
)

// serveFast serves f's answers with fasthttp's own handler API, the
// bytes of bench/floor's net/http answers but for the order of their
// header lines (and Date, fasthttp's, refreshed once a second): what
// fasthttp itself costs, the floor of the embedded service's HTTP layer
// (pkg/emulator serves its handler through fasthttp).
func serveFast(f *floor, ln net.Listener) error {
	srv := &fasthttp.Server{
		Handler:                       f.serveFast,
		ReadTimeout:                   10 * time.Second,
		IdleTimeout:                   2 * time.Minute,
		DisableHeaderNamesNormalizing: true,
		NoDefaultServerHeader:         true,
		NoDefaultContentType:          true,
	}
	return srv.Serve(ln)
}

var preferNoContent = []byte("return-no-content")

// serveFast is ServeHTTP in fasthttp's terms.
func (f *floor) serveFast(c *fasthttp.RequestCtx) {
	h := &c.Response.Header
	h.Set("X-Ms-Request-Id", f.requestID())
	h.Set("X-Ms-Version", version[0])
	h.Set("X-Content-Type-Options", nosniff[0])
	// The method and path as strings aliasing fasthttp's buffers, for
	// route only: it keeps neither.
	method, path := c.Method(), c.Path()
	switch route(unsafe.String(unsafe.SliceData(method), len(method)), unsafe.String(unsafe.SliceData(path), len(path))) {
	case pointRead:
		f.answerFast(c, fasthttp.StatusOK, f.entity, true)
	case tableCreated:
		f.createdFast(c, f.table, false)
	case entityInserted:
		f.createdFast(c, f.entity, true)
	default:
		h.Set("X-Ms-Error-Code", notFoundErr[0])
		f.answerFast(c, fasthttp.StatusNotFound, f.notFound, false)
	}
}

// createdFast is created in fasthttp's terms.
func (f *floor) createdFast(c *fasthttp.RequestCtx, body []byte, tagged bool) {
	h := &c.Response.Header
	if bytes.Contains(c.Request.Header.Peek("Prefer"), preferNoContent) {
		h.Set("Preference-Applied", noContent[0])
		if tagged {
			h.Set("Etag", etag[0])
		}
		h.Set("Dataserviceversion", dsVersion[0])
		c.SetStatusCode(fasthttp.StatusNoContent)
		return
	}
	h.Set("Preference-Applied", withContent[0])
	f.answerFast(c, fasthttp.StatusCreated, body, tagged)
}

// answerFast is answer in fasthttp's terms.
func (f *floor) answerFast(c *fasthttp.RequestCtx, status int, body []byte, tagged bool) {
	h := &c.Response.Header
	h.SetContentType(jsonType[0])
	h.Set("Dataserviceversion", dsVersion[0])
	if tagged {
		h.Set("Etag", etag[0])
	}
	c.SetStatusCode(status)
	c.SetBody(body)
}
