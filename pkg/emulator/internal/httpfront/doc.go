// Package httpfront is the embedded service's HTTP/1.1 layer: fasthttp,
// in front of any http.Handler (the REST service's Server.ServeHTTP, the
// same handler net/http and httptest serve). A fasthttp request is handed
// to the handler as the *http.Request net/http would have made of the
// same bytes (TestFastRequestAsNetHTTP), its strings in one allocation
// and nothing else allocated (but the canonical name of a header outside
// canonicalNames), and the handler's answer is written as net/http would
// write it, byte for byte but for the order of the header lines and the
// body's framing (the service's TestWireAsNetHTTP). fasthttp's connection
// handling (one read and one write per request on a reused buffer, no
// goroutine or context per request) costs about two thirds of net/http's
// per request on the service's small answers (bench/server-cpu.sh
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
//   - served over a TLS listener (the REST service's Config.TLS), the
//     handler's request has no TLS state (net/http's r.TLS): the service
//     knows it speaks HTTPS from its own configuration, not per request.
//
// Its second front, InProcess, serves a client in the same process with no
// socket and no HTTP text: an http.RoundTripper that hands the handler the
// request this front would give it for the bytes net/http's Transport
// writes, and gives the client the response net/http would read from the
// bytes this front writes (TestInProcessRequestAsSocket,
// TestInProcessAnswerAsSocket).
//
// It knows HTTP only: it imports fasthttp, the standard library and
// internal/pipenet (in-memory connections, for what InProcess leaves to
// this front), and never the REST service, the store or the model. The
// REST service imports it to listen (NewServer), to be reached in process
// (NewInProcess) and for the Date header of its own clock (DateCache).
package httpfront
