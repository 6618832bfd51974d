package table

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tablestress/tablestress/pkg/clock"
)

// DefaultTimeout bounds a request when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Options configure a Service.
type Options struct {
	// Workers is the number of goroutines that will send requests at once;
	// the pool keeps at least this many idle connections per host.
	Workers int
	// Timeout bounds each request, from sending to the last byte of the
	// answer (DefaultTimeout when zero). Past it the Result is a Timeout.
	Timeout time.Duration
	// UserAgent is appended to the SDK's User-Agent (azcore keeps at most
	// 24 characters of it), e.g. "tablestress/1.0".
	UserAgent string
	// Dial, when set, opens the connections instead of the network (tests
	// run the embedded service over in-memory connections, on a fake
	// clock).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// RoundTripper, when set, carries the requests instead of a connection
	// pool (Dial and RootCAs are then unused): the embedded service in
	// this process (emulator.InProcess), which the SDK reaches with no
	// socket. Its CloseIdleConnections, when it has one, is called by
	// Close.
	RoundTripper http.RoundTripper
	// RootCAs are the certificate authorities trusted for the target's
	// TLS and for signing in (nil: the system's): the system's and a
	// loopback service's own, for the embedded service over TLS and its
	// token authority (see --ca-file).
	RootCAs *x509.CertPool
	// Clock times out the requests (nil: the wall clock). A virtual clock
	// needs a RoundTripper that answers on it (the embedded service in
	// this process, on the same clock).
	Clock clock.Clock
}

// Service is a Table service endpoint: table management and a Table per
// table. It is safe for concurrent use.
type Service struct {
	target    Target
	svc       *aztables.ServiceClient
	transport http.RoundTripper
	cred      *credential // nil unless signed in with a token
	timeout   time.Duration
	deadlines *deadlines
}

// ErrOpen is wrapped by the errors of Open.
var ErrOpen = errors.New("table: cannot open target")

// Open builds the clients for a target; it sends no request. SDK retries
// are off (one operation is exactly one request: tablestress retries
// itself and counts every attempt), and azcore logs nothing unless a
// listener is registered with azcore/log, which tablestress never does;
// even then query strings, where a SAS signature travels, are redacted.
// A target without key or SAS is signed in with DefaultAzureCredential.
func Open(t Target, o Options) (*Service, error) {
	if t.Endpoint == "" {
		return nil, fmt.Errorf("%w: the %s target has no endpoint yet (bind it to the started service first)", ErrOpen, t.Kind)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	var tr http.RoundTripper = o.RoundTripper
	if tr == nil {
		pool := newHTTPTransport(o.Workers)
		if o.Dial != nil {
			pool.DialContext = o.Dial
		}
		if o.RootCAs != nil {
			pool.TLSClientConfig = &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12}
		}
		tr = pool
	}
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: transporter{rt: tr},
		Retry:     policy.RetryOptions{MaxRetries: -1}, // -1 sends exactly one request; 0 would mean 3 retries
		Telemetry: policy.TelemetryOptions{ApplicationID: o.UserAgent},
	}}
	var svc *aztables.ServiceClient
	var cred *credential
	var err error
	switch {
	case t.key != "":
		var cred *aztables.SharedKeyCredential
		if cred, err = aztables.NewSharedKeyCredential(t.Account, t.key); err == nil {
			svc, err = aztables.NewServiceClientWithSharedKey(t.Endpoint, cred, opts)
		}
	case t.sas != "":
		svc, err = aztables.NewServiceClientWithNoCredential(t.Endpoint+"?"+t.sas, opts)
	case !strings.HasPrefix(t.Endpoint, "https://"):
		err = errors.New("token authentication needs https")
	default:
		if cred, err = newCredential(o.RootCAs); err == nil {
			svc, err = aztables.NewServiceClient(t.Endpoint, cred, opts)
		}
	}
	if err != nil {
		// These errors come from credential construction and URL checks;
		// scrub them all the same and keep one line.
		return nil, fmt.Errorf("%w: %s with %s: %s", ErrOpen, t, t.auth(), oneLine(scrub(err.Error(), t.Secrets()), "unknown error"))
	}
	return &Service{target: t, svc: svc, transport: tr, cred: cred, timeout: o.Timeout, deadlines: &deadlines{timeout: o.Timeout, clock: o.Clock}}, nil
}

// Target returns the target the service was opened for.
func (s *Service) Target() Target { return s.target }

// Close closes the idle connections. In-flight requests finish; a later
// request opens a new connection.
func (s *Service) Close() {
	s.deadlines.close()
	if c, ok := s.transport.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// begin starts an operation: the caller's context bounded by the request
// timeout, in a call the transporter reports the status to.
func (s *Service) begin(ctx context.Context) (*call, context.CancelFunc) {
	tctx, end := s.deadlines.begin(ctx)
	return &call{Context: tctx}, end
}

// CreateTable creates a table: 201 (or 204), 409 TableAlreadyExists.
func (s *Service) CreateTable(ctx context.Context, name string) Result {
	c, cancel := s.begin(ctx)
	defer cancel()
	if _, err := s.svc.CreateTable(c, name, nil); err != nil {
		return classify(ctx, c, err)
	}
	return okResult(c, http.StatusCreated, 0, "")
}

// DeleteTable deletes a table: 204, 404 ResourceNotFound (Azure says
// TableNotFound) when it does not exist.
func (s *Service) DeleteTable(ctx context.Context, name string) Result {
	c, cancel := s.begin(ctx)
	defer cancel()
	if _, err := s.svc.DeleteTable(c, name, nil); err != nil {
		return classify(ctx, c, err)
	}
	return okResult(c, http.StatusNoContent, 0, "")
}

// TableExists reports whether the table exists, with one query of the
// table list filtered on its name; Entities is 1 when it does.
func (s *Service) TableExists(ctx context.Context, name string) (bool, Result) {
	c, cancel := s.begin(ctx)
	defer cancel()
	filter := "TableName eq " + quote(name)
	page, err := s.svc.NewListTablesPager(&aztables.ListTablesOptions{Filter: &filter}).NextPage(c)
	if err != nil {
		return false, classify(ctx, c, err)
	}
	for _, tb := range page.Tables {
		if tb.Name != nil && *tb.Name == name {
			return true, okResult(c, http.StatusOK, 1, "")
		}
	}
	return false, okResult(c, http.StatusOK, 0, "")
}

// Table returns the client of one table. It sends no request.
func (s *Service) Table(name string) *Table {
	return &Table{svc: s, c: s.svc.NewClient(name), name: name}
}
