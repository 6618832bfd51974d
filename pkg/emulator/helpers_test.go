package emulator

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

func asResponseError(err error, re **azcore.ResponseError) bool { return errors.As(err, re) }

// newServer returns a service with the partition model off.
func newServer(t testing.TB) *Server {
	t.Helper()
	s, err := New(Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startServer starts cfg's service on a loopback port for the test.
func startServer(t testing.TB, cfg Config) *Instance {
	t.Helper()
	in, err := Start("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(context.Background()) })
	return in
}

// reach is how a test's Go SDK client reaches the embedded service: over
// its socket front on a loopback port (Start), or in process with no
// socket (StartInProcess). Every Go SDK test of the service runs both
// ways (forEachReach): the service must be the same to its clients.
type reach struct {
	name  string
	start func(t testing.TB, cfg Config) *reached
}

// reached is a started service as its client reaches it: its URL and
// connection string, and the transport to install under the SDK (nil:
// the network).
type reached struct {
	*Server
	url, conn string
	rt        http.RoundTripper
}

var reaches = []reach{
	{"socket", func(t testing.TB, cfg Config) *reached {
		in := startServer(t, cfg)
		return &reached{Server: in.Server, url: in.URL(), conn: in.ConnectionString()}
	}},
	{"in process", func(t testing.TB, cfg Config) *reached {
		p := startInProcess(t, cfg)
		return &reached{Server: p.Server, url: p.URL(), conn: p.ConnectionString(), rt: p}
	}},
}

// forEachReach runs f as a subtest for each way of reaching the service.
func forEachReach(t *testing.T, f func(t *testing.T, r reach)) {
	t.Helper()
	for _, r := range reaches {
		t.Run(r.name, func(t *testing.T) { f(t, r) })
	}
}

// startInProcess starts cfg's service in process for the test.
func startInProcess(t testing.TB, cfg Config) *InProcess {
	t.Helper()
	p, err := StartInProcess(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// transporter is azcore's policy.Transporter over an http.RoundTripper.
type transporter struct{ rt http.RoundTripper }

func (t transporter) Do(r *http.Request) (*http.Response, error) { return t.rt.RoundTrip(r) }

// sdkOptions are aztables' options for a client of svc, sending every
// request once (no retries).
func sdkOptions(svc *reached) *aztables.ClientOptions {
	o := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}}
	if svc.rt != nil {
		o.Transport = transporter{svc.rt}
	}
	return o
}

// azClient returns an aztables service client of svc signed with key,
// sending every request once (no retries).
func azClient(t testing.TB, svc *reached, key string) *aztables.ServiceClient {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(svc.account, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aztables.NewServiceClientWithSharedKey(svc.url, cred, sdkOptions(svc))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// socketReached is an instance reached over its socket.
func socketReached(in *Instance) *reached {
	return &reached{Server: in.Server, url: in.URL(), conn: in.ConnectionString()}
}

// signed builds a request signed with Shared Key Lite, as aztables does,
// from a loopback peer.
func signed(s *Server, method, path, query string, body []byte) *http.Request {
	u := "http://127.0.0.1/" + s.account + path
	if query != "" {
		u += "?" + query
	}
	r := httptest.NewRequest(method, u, bytes.NewReader(body))
	r.RemoteAddr = "127.0.0.1:40000"
	date := time.Now().UTC().Format(http.TimeFormat)
	r.Header.Set("x-ms-date", date)
	r.Header.Set("Accept", "application/json;odata=minimalmetadata")
	r.Header.Set("Prefer", "return-no-content")
	r.Header.Set("Content-Type", "application/json")
	return resign(s, r)
}

// resign signs r again with Shared Key Lite, after a change of its URL.
func resign(s *Server, r *http.Request) *http.Request {
	mac := hmac.New(sha256.New, s.key)
	resource := "/" + s.account + r.URL.EscapedPath()
	if comp := r.URL.Query().Get("comp"); comp != "" {
		resource += "?comp=" + comp
	}
	mac.Write([]byte(r.Header.Get("x-ms-date") + "\n" + resource))
	r.Header.Set("Authorization", "SharedKeyLite "+s.account+":"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	return r
}

// serve runs one request through the handler.
func serve(s *Server, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// do runs one request and fails unless it is answered want.
func do(t testing.TB, s *Server, r *http.Request, want int) *httptest.ResponseRecorder {
	t.Helper()
	w := serve(s, r)
	if w.Code != want {
		t.Fatalf("%s %s: %d %s, want %d", r.Method, r.URL, w.Code, w.Body.String(), want)
	}
	return w
}

// fixedNow is a fixed instant for answers whose time does not matter.
func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
