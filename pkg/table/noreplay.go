package table

import (
	"io"
	"net/http"
)

// noReplay keeps net/http from retrying requests on its own. The standard
// Transport silently re-sends a "replayable" request (a GET, or any request
// whose body it can rewind) when a reused connection fails after the
// request was written: the service sees two requests, the tool would count
// one, and a load tool must never hide an attempt. A body that cannot be
// rewound makes a request non-replayable; an empty one changes nothing on
// the wire (the Transport probes it, finds it empty and sends no body).
type noReplay struct{ next http.RoundTripper }

type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// RoundTrip implements http.RoundTripper.
func (n noReplay) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if r.Body == nil || r.Body == http.NoBody {
		r.Body = emptyBody{}
		r.ContentLength = 0
	}
	r.GetBody = nil
	return n.next.RoundTrip(r)
}
