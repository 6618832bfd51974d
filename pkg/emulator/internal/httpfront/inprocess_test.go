package httpfront

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// clientCase is a request as a client builds it, made again for each way
// it is sent (a body is read once): base is the service's URL.
type clientCase struct {
	name string
	// plain: the in-process front converts it itself, without the socket
	// front (what every SDK request must be).
	plain bool
	make  func(base string) *http.Request
}

// emptyIdentity is an empty body of no stated length, as tablestress's
// transport sends with a GET (pkg/table's emptyBody).
type emptyIdentity struct{}

func (emptyIdentity) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyIdentity) Close() error             { return nil }

// clientRequest is a request of method to base+path with headers h (as
// given, any spelling), a body framed by cl (-1: of unknown length) and te.
func clientRequest(method, url string, body io.Reader, cl int64, te []string, h map[string][]string) *http.Request {
	r, err := http.NewRequest(method, url, nil)
	if err != nil {
		panic(err)
	}
	if body != nil {
		rc, ok := body.(io.ReadCloser)
		if !ok {
			rc = io.NopCloser(body)
		}
		r.Body = rc
	}
	r.ContentLength, r.TransferEncoding = cl, te
	for k, v := range h {
		r.Header[k] = v
	}
	return r
}

// sdkHeaders are the headers aztables sends, spelled as it spells them.
func sdkHeaders(extra ...string) map[string][]string {
	h := map[string][]string{
		"x-ms-version": {"2019-02-02"}, "X-Ms-Date": {"Fri, 27 Nov 2026 10:24:59 GMT"},
		"Authorization":      {"SharedKeyLite devstoreaccount1:6fNTiIHrwVtZLq3FRqtAXf7ZyC9Gf5EHOU+AVsUbmsw="},
		"DataServiceVersion": {"3.0"}, "Accept": {"application/json;odata=minimalmetadata"},
		"User-Agent": {"azsdk-go-aztables/v1.4.1 (go1.26.8; linux) tablestress/test"},
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = append(h[extra[i]], extra[i+1])
	}
	return h
}

// clientCases are requests of every shape an SDK sends, and of shapes it
// does not (which the in-process front leaves to the socket front).
func clientCases() []clientCase {
	entity := `{"PartitionKey":"p","RowKey":"r","V":1}`
	sized := func(method, path string, h map[string][]string) func(string) *http.Request {
		return func(base string) *http.Request {
			h["Content-Length"] = []string{fmt.Sprint(len(entity))}
			h["Content-Type"] = []string{"application/json"}
			return clientRequest(method, base+path, strings.NewReader(entity), int64(len(entity)), nil, h)
		}
	}
	get := func(path string, h map[string][]string) func(string) *http.Request {
		return func(base string) *http.Request {
			return clientRequest("GET", base+path, emptyIdentity{}, 0, []string{"identity"}, h)
		}
	}
	return []clientCase{
		{"point read", true, get("/devstoreaccount1/t(PartitionKey='p',RowKey='r')", sdkHeaders())},
		{"query with escapes", true, get("/devstoreaccount1/t()?$filter=PartitionKey%20eq%20%27a%20b%27&$top=10&NextRowKey=1%214", sdkHeaders())},
		{"escaped path", true, get("/devstoreaccount1/t(PartitionKey='a%2Fb',RowKey='%C3%A9')", sdkHeaders())},
		{"insert", true, sized("POST", "/devstoreaccount1/t", sdkHeaders("Prefer", "return-no-content"))},
		{"update", true, sized("PUT", "/devstoreaccount1/t(PartitionKey='p',RowKey='r')", sdkHeaders("If-Match", "*"))},
		{"merge", true, sized("PATCH", "/devstoreaccount1/t(PartitionKey='p',RowKey='r')", sdkHeaders("If-Match", `W/"datetime'2026-11-22T12%3A00%3A00Z'"`))},
		{"MERGE method", true, sized("MERGE", "/devstoreaccount1/t(PartitionKey='p',RowKey='r')", sdkHeaders())},
		{"delete, no body", true, func(base string) *http.Request {
			return clientRequest("DELETE", base+"/devstoreaccount1/t(PartitionKey='p',RowKey='r')", nil, 0, nil, sdkHeaders("If-Match", "*"))
		}},
		{"put, no body", true, func(base string) *http.Request {
			return clientRequest("PUT", base+"/devstoreaccount1/t", nil, 0, nil, sdkHeaders())
		}},
		{"post, chunked", true, func(base string) *http.Request {
			return clientRequest("POST", base+"/devstoreaccount1/$batch", strings.NewReader(strings.Repeat("batch ", 1000)), -1, nil, sdkHeaders())
		}},
		{"post, empty chunked", true, func(base string) *http.Request {
			return clientRequest("POST", base+"/x", strings.NewReader(""), -1, nil, nil)
		}},
		{"post, explicitly chunked", true, func(base string) *http.Request {
			return clientRequest("POST", base+"/x", strings.NewReader("abc"), 3, []string{"chunked"}, nil)
		}},
		{"no User-Agent", true, get("/x", map[string][]string{"Accept": {"a/b"}})},
		{"an empty User-Agent", true, get("/x", map[string][]string{"User-Agent": {""}})},
		{"repeated, empty and tabbed values", true, get("/x", map[string][]string{"X-R": {"1", "2"}, "X-Empty": {""}, "X-Tab": {"a\tb"}, "X-None": {}})},
		{"Accept-Encoding of its own", true, get("/x", map[string][]string{"Accept-Encoding": {"identity"}})},
		{"HEAD", true, func(base string) *http.Request { return clientRequest("HEAD", base+"/x", nil, 0, nil, sdkHeaders()) }},
		{"OPTIONS", true, func(base string) *http.Request {
			return clientRequest("OPTIONS", base+"/x", nil, 0, nil, map[string][]string{"Origin": {"http://a"}, "Access-Control-Request-Method": {"GET"}})
		}},
		{"another Host", true, func(base string) *http.Request {
			r := clientRequest("GET", base+"/x", nil, 0, nil, nil)
			r.Host = "other.example:8080"
			return r
		}},
		{"a value with a space to trim", false, get("/x", map[string][]string{"X-A": {" a"}})},
		{"Connection: close", false, get("/x", map[string][]string{"Connection": {"close"}})},
		{"Close", false, func(base string) *http.Request {
			r := clientRequest("GET", base+"/x", nil, 0, nil, nil)
			r.Close = true
			return r
		}},
		{"100-continue", false, func(base string) *http.Request {
			return clientRequest("POST", base+"/x", strings.NewReader("abc"), 3, nil, map[string][]string{"Expect": {"100-continue"}})
		}},
		{"GET with a body of unknown length", false, func(base string) *http.Request {
			return clientRequest("GET", base+"/x", strings.NewReader("abc"), 0, nil, nil)
		}},
		{"lower-case content-length", false, func(base string) *http.Request {
			return clientRequest("POST", base+"/x", strings.NewReader("abc"), 3, nil, map[string][]string{"content-length": {"3"}})
		}},
		{"one name spelled twice", false, get("/x", map[string][]string{"X-A": {"1"}, "x-a": {"2"}})},
		{"another method", false, func(base string) *http.Request { return clientRequest("PROPFIND", base+"/x", nil, 0, nil, nil) }},
		{"a cookie", false, get("/x", map[string][]string{"Cookie": {"a=1"}})},
		{"a trailer", false, func(base string) *http.Request {
			r := clientRequest("POST", base+"/x", strings.NewReader("abc"), -1, nil, nil)
			r.Trailer = http.Header{"X-T": {"1"}}
			return r
		}},
		{"a bad header name", false, get("/x", map[string][]string{"Bad Name": {"1"}})},
		{"a newline in a value", false, get("/x", map[string][]string{"X-A": {"a\r\nX-B: b"}})},
		{"a length the body does not have", true, func(base string) *http.Request {
			return clientRequest("POST", base+"/x", strings.NewReader("abc"), 10, nil, nil)
		}},
	}
}

// TestInProcessRequestAsSocket: the handler gets from the in-process front
// the request the socket front gives it for what net/http's Transport
// writes (method, URL, target, host, headers with the Transport's own,
// body and framing, a live context), for every request shape an SDK sends
// and for others, which go through the socket front. Every SDK shape is
// converted without it.
func TestInProcessRequestAsSocket(t *testing.T) {
	h := http.HandlerFunc(echoRequest)
	base := "http://" + serveFastOn(t, h)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	for _, detach := range []bool{false, true} {
		in := NewInProcess(h, func() bool { return detach })
		for _, c := range clientCases() {
			want := dumpResponse(tr.RoundTrip(c.make(base)))
			before := in.pipe.used.Load()
			got := dumpResponse(in.RoundTrip(c.make(base)))
			if got != want {
				t.Errorf("%s (detached %v):\ngot (in process)\n%s\nwant (socket)\n%s", c.name, detach, got, want)
			}
			if piped := in.pipe.used.Load() > before; piped == c.plain {
				t.Errorf("%s: through the socket front %v, want %v", c.name, piped, !c.plain)
			}
		}
		if err := in.Close(context.Background()); err != nil {
			t.Error(err)
		}
	}
}

// dumpResponse writes what a client can read of a response, or of the
// error in its place; a Date on the system clock, which may turn a second
// between two answers, is checked and written as "(now)".
func dumpResponse(resp *http.Response, err error) string {
	if err != nil {
		return fmt.Sprintf("error %q EOF %v canceled %v deadline %v", err, errors.Is(err, io.EOF),
			errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "status %q %d %q %d.%d\n", resp.Status, resp.StatusCode, resp.Proto, resp.ProtoMajor, resp.ProtoMinor)
	for _, k := range slices.Sorted(maps.Keys(resp.Header)) {
		v := resp.Header[k]
		if k == "Date" && len(v) == 1 && v[0] != fixedDate {
			d, err := http.ParseTime(v[0])
			if err != nil || time.Since(d) > time.Minute {
				fmt.Fprintf(&b, "a bad Date %q\n", v)
			}
			v = []string{"(now)"}
		}
		fmt.Fprintf(&b, "header %q %q\n", k, v)
	}
	body, rerr := io.ReadAll(resp.Body)
	fmt.Fprintf(&b, "length %d transfer-encoding %q close %v uncompressed %v trailer %v no-body %v\nbody %q %v close %v\n",
		resp.ContentLength, resp.TransferEncoding, resp.Close, resp.Uncompressed, resp.Trailer, resp.Body == http.NoBody,
		body, rerr, resp.Body.Close())
	if resp.Request == nil {
		b.WriteString("no request\n")
	}
	return b.String()
}

// fixedDate is a Date a handler writes itself.
const fixedDate = "Mon, 02 Jan 2026 03:04:05 GMT"

var _ = bytes.NewReader
