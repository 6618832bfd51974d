package emulator

import (
	"context"
	"net/http"

	"github.com/tablestress/tablestress/pkg/emulator/internal/httpfront"
)

// InProcess is a Server reached from this process with no socket: an
// http.RoundTripper (install it under aztables, as azcore's transport or
// under it) that hands each request to the service as the socket front
// hands over the bytes net/http would send for it, and gives the client
// the response net/http would read from the socket front's answer
// (package httpfront's InProcess: same headers, body, signature checks,
// counters and service times). What the socket path does with the
// connection it does as a client sees it: a dropped connection (the drop
// fault) fails the request with io.EOF, as net/http reports a connection
// closed before any answer; a client that gives up gets its context's
// cause at once while the service finishes the request, counts it and
// holds it to its modelled time, as over a socket. Its methods are safe
// for concurrent use; Close once.
type InProcess struct {
	*Server
	front *httpfront.InProcess
}

// inProcessHost is the host of the URL an in-process client addresses:
// the service's loopback address, on no port (nothing listens).
const inProcessHost = "127.0.0.1"

// StartInProcess returns the service of cfg reached in process. With
// Config.TLS its URL is https, as a client of the service over TLS
// addresses it (bearer tokens go only there), but nothing is encrypted in
// process and the certificate is unused.
func StartInProcess(cfg Config) (*InProcess, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return inProcessOf(s), nil
}

// inProcessOf is s reached in process.
func inProcessOf(s *Server) *InProcess {
	return &InProcess{Server: s, front: httpfront.NewInProcess(s, s.mayWait)}
}

// RoundTrip implements http.RoundTripper.
func (p *InProcess) RoundTrip(r *http.Request) (*http.Response, error) { return p.front.RoundTrip(r) }

// CloseIdleConnections closes the in-memory connections of the rare
// requests that go through the socket front (see httpfront.InProcess).
func (p *InProcess) CloseIdleConnections() { p.front.CloseIdleConnections() }

// URL is the table service endpoint a client of p addresses
// (http://127.0.0.1/ACCOUNT, https with Config.TLS: any host reaches p,
// nothing listens).
func (p *InProcess) URL() string { return p.scheme + "://" + inProcessHost + "/" + p.account }

// ConnectionString is a connection string for the account, with its key,
// for a client whose transport is p. It holds the key: do not log it.
func (p *InProcess) ConnectionString() string {
	return "DefaultEndpointsProtocol=" + p.scheme + ";AccountName=" + p.account + ";AccountKey=" + encodeKey(p.key) + ";TableEndpoint=" + p.URL() + ";"
}

// Close stops the service: the requests in flight see their context end
// (a modelled service time is cut short, as Instance.Close does), later
// ones are refused as a stopped service's address refuses them. It waits
// until ctx ends for the few requests served through the socket front.
func (p *InProcess) Close(ctx context.Context) error { return p.front.Close(ctx) }

// mayWait reports whether a request may wait before its answer (a
// modelled service time, an injected latency): the in-process front then
// serves it on a goroutine of its own, so its client can leave at its
// deadline while the service holds the answer.
// On a virtual clock a request never detaches: it waits on the clock, on
// its client's goroutine.
func (s *Server) mayWait() bool {
	return s.clock == nil && (s.model.Waits() || s.faults.Load().Delays())
}

// clientGone is the channel closed when the in-process client of a
// request served on its own goroutine gives up (httpfront.ClientGone),
// nil for any other request.
func clientGone(ctx context.Context) <-chan struct{} { return httpfront.ClientGone(ctx) }
