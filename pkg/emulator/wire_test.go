package emulator

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"go.uber.org/goleak"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// wireCase is one request of TestWireAsNetHTTP, as the bytes a client
// sends.
type wireCase struct {
	name string
	raw  func(s *Server) []byte
}

// wireRequest is the bytes of a request signed for s at fixedNow, after
// edit changed its headers; chunks > 0 sends the body in that many chunks.
func wireRequest(s *Server, method, path, query string, body []byte, chunks int, edit func(h http.Header)) []byte {
	r := signed(s, method, path, query, body)
	r.Header.Set("x-ms-date", fixedNow().Format(http.TimeFormat))
	r = resign(s, r)
	if edit != nil {
		edit(r.Header)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n", method, r.URL.RequestURI())
	for _, k := range slices.Sorted(maps.Keys(r.Header)) {
		for _, v := range r.Header[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	if chunks == 0 {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
		b.Write(body)
		return b.Bytes()
	}
	b.WriteString("Transfer-Encoding: chunked\r\n\r\n")
	for i := range chunks {
		part := body[i*len(body)/chunks : (i+1)*len(body)/chunks]
		fmt.Fprintf(&b, "%x\r\n%s\r\n", len(part), part)
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

// lowerNames writes every header name in lower case, as HTTP/2-minded
// clients do.
func lowerNames(h http.Header) {
	for k, v := range h {
		delete(h, k)
		h[strings.ToLower(k)] = v
	}
}

// wireCases are the requests TestWireAsNetHTTP sends, in order, to both
// fronts: each case's answer depends on the ones before it.
func wireCases(t *testing.T) []wireCase {
	entity := func(pk, rk string, n int) []byte {
		return fmt.Appendf(nil, `{"PartitionKey":%q,"RowKey":%q,"N":%d,"S":"%s"}`, pk, rk, n, strings.Repeat("x", n))
	}
	ct, batch := aztablesBatch(t, []aztables.TransactionAction{
		act(aztables.TransactionTypeAdd, "p", "b1", ""), act(aztables.TransactionTypeAdd, "p", "b2", "")})
	_, failing := aztablesBatch(t, []aztables.TransactionAction{
		act(aztables.TransactionTypeAdd, "p", "b3", ""), act(aztables.TransactionTypeAdd, "p", "b1", "")})
	req := func(method, path, query string, body []byte, chunks int, edit func(h http.Header)) func(s *Server) []byte {
		return func(s *Server) []byte { return wireRequest(s, method, path, query, body, chunks, edit) }
	}
	answer := func(h http.Header) { h.Del("Prefer") }
	full := func(h http.Header) { h.Set("Accept", "application/json;odata=fullmetadata") }
	return []wireCase{
		{"create table, answered with the entity", req("POST", "/Tables", "", []byte(`{"TableName":"wire"}`), 0, answer)},
		{"create table batch", req("POST", "/Tables", "", []byte(`{"TableName":"batch"}`), 0, nil)},
		{"create an existing table", req("POST", "/Tables", "", []byte(`{"TableName":"wire"}`), 0, nil)},
		{"insert, no content", req("POST", "/wire", "", entity("p", "r1", 10), 0, nil)},
		{"insert, answered, lower-case header names", req("POST", "/wire", "", entity("p", "r2", 100), 0, func(h http.Header) { answer(h); lowerNames(h) })},
		{"insert, chunked body", req("POST", "/wire", "", entity("p", "r3", 3000), 3, answer)},
		{"insert, 100-continue", req("POST", "/wire", "", entity("q", "r1", 50), 0, func(h http.Header) { answer(h); h.Set("Expect", "100-continue") })},
		{"insert, large answer", req("POST", "/wire", "", entity("q", "r2", 30000), 0, answer)},
		{"insert, the client closing", req("POST", "/wire", "", entity("q", "r3", 10), 0, func(h http.Header) { h.Set("Connection", "close") })},
		{"insert, an existing entity", req("POST", "/wire", "", entity("p", "r1", 10), 0, nil)},
		{"insert, bad JSON", req("POST", "/wire", "", []byte(`{"PartitionKey":"p",`), 0, nil)},
		{"insert, an entity over 1 MiB", req("POST", "/wire", "", entity("p", "big", 1<<20+10), 0, nil)},
		{"point read", req("GET", "/wire(PartitionKey='p',RowKey='r2')", "", nil, 0, nil)},
		{"point read, full metadata", req("GET", "/wire(PartitionKey='q',RowKey='r2')", "", nil, 0, full)},
		{"point read, escaped keys", req("GET", "/wire(PartitionKey='a%20b',RowKey='c%27%27d')", "", nil, 0, nil)},
		{"point read, repeated headers", req("GET", "/wire(PartitionKey='p',RowKey='r2')", "", nil, 0, func(h http.Header) {
			h.Add("Accept", "application/json;odata=nometadata")
			h["x-ms-client-request-id"] = []string{"a", "b"}
			h["X-Ms-Return-Client-Request-Id"] = []string{"true"}
		})},
		{"point read, HEAD", req("HEAD", "/wire(PartitionKey='p',RowKey='r2')", "", nil, 0, nil)},
		{"query, filter", req("GET", "/wire()", "$filter="+url.QueryEscape("N ge 50 and PartitionKey eq 'q'"), nil, 0, nil)},
		{"query, a page of one", req("GET", "/wire()", "$top=1&$select=N", nil, 0, nil)},
		{"query, next page", req("GET", "/wire()", "$top=1&$select=N&NextPartitionKey=1!4!cA--&NextRowKey=1!4!cjI-", nil, 0, nil)},
		{"replace, If-Match *", req("PUT", "/wire(PartitionKey='p',RowKey='r1')", "", entity("p", "r1", 20), 0, func(h http.Header) { h.Set("If-Match", "*") })},
		{"merge, chunked", req("MERGE", "/wire(PartitionKey='p',RowKey='r1')", "", []byte(`{"M":true}`), 2, func(h http.Header) { h.Set("If-Match", "*") })},
		{"delete, a stale ETag", req("DELETE", "/wire(PartitionKey='p',RowKey='r1')", "", nil, 0, func(h http.Header) { h.Set("If-Match", `W/"datetime'2020-01-01T00%3A00%3A00Z'"`) })},
		{"delete", req("DELETE", "/wire(PartitionKey='p',RowKey='r1')", "", nil, 0, func(h http.Header) { h.Set("If-Match", "*") })},
		{"transaction", req("POST", "/$batch", "", batch, 0, func(h http.Header) { h.Set("Content-Type", ct) })},
		{"failed transaction", req("POST", "/$batch", "", failing, 0, func(h http.Header) { h.Set("Content-Type", ct) })},
		{"a transaction over 4 MiB", req("POST", "/$batch", "", bytes.Repeat([]byte("x"), 5<<20), 0, func(h http.Header) { h.Set("Content-Type", ct) })},
		{"list tables", req("GET", "/Tables", "", nil, 0, nil)},
		{"no Authorization", req("GET", "/Tables", "", nil, 0, func(h http.Header) { h.Del("Authorization") })},
		{"a bad signature", req("GET", "/Tables", "", nil, 0, func(h http.Header) { h.Set("Authorization", "SharedKeyLite "+DevAccount+":AAAA") })},
		{"an unknown method", req("PATCH", "/Tables", "", nil, 0, nil)},
		{"OPTIONS", req("OPTIONS", "/wire()", "", nil, 0, nil)},
		{"service properties", req("GET", "/", "restype=service&comp=properties", nil, 0, nil)},
		{"table ACL", req("GET", "/wire", "comp=acl", nil, 0, nil)},
		{"another account", func(s *Server) []byte {
			return []byte("GET /other/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		}},
		{"the service's own path", func(s *Server) []byte {
			return []byte("GET /_tablestress/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		}},
		{"delete table", req("DELETE", "/Tables('wire')", "", nil, 0, nil)},
		{"stats", func(s *Server) []byte {
			return []byte("GET /_tablestress/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		}},
	}
}

// wireAnswer is what a front sent for one request: the header lines of
// each answer (1xx first), sorted after the status line, and the final
// answer's decoded body.
type wireAnswer struct {
	heads [][]string
	body  []byte
}

// sendRaw sends raw on a new connection to addr, which it returns with
// 20 s to answer.
func sendRaw(t *testing.T, addr string, raw []byte) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := conn.Write(raw); err != nil {
		conn.Close()
		t.Fatal(err)
	}
	return conn
}

// exchangeRaw sends raw on a new connection to addr and reads the
// answers.
func exchangeRaw(t *testing.T, addr string, raw []byte) wireAnswer {
	t.Helper()
	conn := sendRaw(t, addr, raw)
	defer conn.Close()
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var a wireAnswer
	var got bytes.Buffer
	br := bufio.NewReader(io.TeeReader(conn, &got))
	for {
		start := got.Len() - br.Buffered()
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatalf("reading the answer: %v (read %q)", err, got.Bytes())
		}
		block := got.Bytes()[start:]
		block = block[:bytes.Index(block, []byte("\r\n\r\n"))]
		lines := strings.Split(string(block), "\r\n")
		slices.Sort(lines[1:])
		a.heads = append(a.heads, lines)
		if resp.StatusCode >= 200 {
			a.body, err = io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("reading the body: %v", err)
			}
			return a
		}
	}
}

// framing reports whether a header line only frames the body
// (Content-Length, Transfer-Encoding), which net/http chooses by itself
// for a body its handler gave no length.
func framing(line string) bool {
	k, _, _ := strings.Cut(strings.ToLower(line), ":")
	return k == "content-length" || k == "transfer-encoding"
}

// TestWireAsNetHTTP: the service's fasthttp front answers every request
// with the bytes net/http's would, given the same handler: status line,
// header names and values (in any order), and body, over a range of
// requests the SDKs send and some they do not (chunked bodies,
// 100-continue, lower-case names, HEAD, errors of every layer). Both
// services run on one fixed clock, so their times, ETags and request ids
// agree. Where the body has a length, both state it.
func TestWireAsNetHTTP(t *testing.T) {
	cfg := Config{Model: model.Off(), Now: fixedNow}
	ref, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	std := httptest.NewServer(ref)
	defer std.Close()
	fast := startServer(t, cfg)
	stdAddr, fastAddr := std.Listener.Addr().String(), fast.Addr()
	fixedDate := "Date: " + fixedNow().Format(http.TimeFormat)
	for _, c := range wireCases(t) {
		before := time.Now().Truncate(time.Second)
		raw := c.raw(ref) // the same bytes for both: one account, key and clock
		want := exchangeRaw(t, stdAddr, raw)
		got := exchangeRaw(t, fastAddr, raw)
		after := time.Now()
		// An answer the service's clock did not date carries the system
		// clock's Date, which may turn a second between the two.
		for _, a := range []*wireAnswer{&want, &got} {
			for _, h := range a.heads {
				if i := slices.IndexFunc(h, func(l string) bool { return strings.HasPrefix(l, "Date: ") }); i > 0 && h[i] != fixedDate {
					d, err := http.ParseTime(strings.TrimPrefix(h[i], "Date: "))
					if err != nil || d.Before(before) || d.After(after) {
						t.Errorf("%s: %s, not between %v and %v", c.name, h[i], before, after)
					}
					h[i] = "Date: (the system clock's)"
				}
			}
		}
		if !bytes.Equal(got.body, want.body) {
			t.Errorf("%s: body\n%q\nwant (net/http)\n%q", c.name, got.body, want.body)
		}
		if len(got.heads) != len(want.heads) {
			t.Errorf("%s: %d answers %q, want (net/http) %d %q", c.name, len(got.heads), got.heads, len(want.heads), want.heads)
			continue
		}
		for i := range want.heads {
			g := slices.DeleteFunc(slices.Clone(got.heads[i]), framing)
			w := slices.DeleteFunc(slices.Clone(want.heads[i]), framing)
			if len(raw) > 256<<10 {
				// net/http closes a connection whose request body its
				// handler left more than 256 KiB of unread (a body
				// refused as too large); fasthttp has read it all and
				// keeps the connection.
				w = slices.DeleteFunc(w, func(l string) bool { return l == "Connection: close" })
			}
			if !slices.Equal(g, w) {
				t.Errorf("%s: headers\n%q\nwant (net/http)\n%q", c.name, got.heads[i], want.heads[i])
			}
			if slices.ContainsFunc(want.heads[i], func(l string) bool { return strings.HasPrefix(l, "Content-Length:") }) &&
				!slices.ContainsFunc(got.heads[i], func(l string) bool { return strings.HasPrefix(l, "Content-Length:") }) {
				t.Errorf("%s: no Content-Length, where net/http states one: %q", c.name, got.heads[i])
			}
		}
	}
}

// TestWireDrop: a dropped connection (the drop fault) is closed without a
// byte of answer, as net/http's hijacked connection is, and the service
// goes on serving.
func TestWireDrop(t *testing.T) {
	in := startServer(t, Config{Model: model.Off(), Now: fixedNow})
	addr := in.Addr()
	create := wireRequest(in.Server, "POST", "/Tables", "", []byte(`{"TableName":"dropped"}`), 0, nil)
	if a := exchangeRaw(t, addr, create); a.heads[0][0] != "HTTP/1.1 204 No Content" {
		t.Fatalf("creating the table: %q", a.heads[0])
	}
	insert := wireRequest(in.Server, "POST", "/dropped", "", []byte(`{"PartitionKey":"p","RowKey":"r"}`), 0, nil)
	fc, err := faults.Parse("drop=100%")
	if err != nil {
		t.Fatal(err)
	}
	in.SetFaults(fc)
	conn := sendRaw(t, addr, insert)
	defer conn.Close()
	if b, err := io.ReadAll(conn); err != nil || len(b) != 0 {
		t.Fatalf("a dropped request read %q, %v; want nothing, then the connection closed", b, err)
	}
	in.SetFaults(faults.Config{})
	if a := exchangeRaw(t, addr, insert); a.heads[0][0] != "HTTP/1.1 204 No Content" {
		t.Errorf("after a drop: %q, want 204", a.heads[0])
	}
	var drops int64
	for _, ts := range in.Stats().Tables {
		for _, ps := range ts.Partitions {
			drops += ps.Dropped
		}
	}
	if got := drops; got != 1 {
		t.Errorf("%d drops counted, want 1", got)
	}
}

// TestCloseEndsEveryGoroutine: once Close returned, the service's
// goroutines end, fasthttp's worker-pool cleaner the last, within its
// wake-up period (a second, MaxIdleWorkerDuration; fasthttp's default of
// 10 s would fail here). A run that starts and stops the service leaves
// nothing running.
func TestCloseEndsEveryGoroutine(t *testing.T) {
	before := goleak.IgnoreCurrent()
	in, err := Start("127.0.0.1:0", Config{Model: model.Off()})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Get(in.URL() + "/Tables")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := in.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	client.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := goleak.Find(before)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("5 s after Close: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
