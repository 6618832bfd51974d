package httpfront

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// echoRequest is a handler that answers with what it was given: the
// request's fields as a handler reads them, one a line.
func echoRequest(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	fmt.Fprintf(&b, "method %q\nurl %q\npath %q rawpath %q query %q\nrequesturi %q\nproto %q %d.%d\nhost %q\n",
		r.Method, r.URL.String(), r.URL.Path, r.URL.RawPath, r.URL.RawQuery, r.RequestURI, r.Proto, r.ProtoMajor, r.ProtoMinor, r.Host)
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	fmt.Fprintf(&b, "remote %q %v\n", host, err)
	for _, k := range slices.Sorted(maps.Keys(r.Header)) {
		fmt.Fprintf(&b, "header %q %q\n", k, r.Header[k])
	}
	body, err := io.ReadAll(r.Body)
	fmt.Fprintf(&b, "length %d body %q %v close %v\n", r.ContentLength, body, err, r.Body.Close())
	fmt.Fprintf(&b, "transfer-encoding %q close %v\n", r.TransferEncoding, r.Close)
	ctx := r.Context()
	select {
	case <-ctx.Done():
		fmt.Fprintf(&b, "context done %v\n", ctx.Err())
	default:
		fmt.Fprintf(&b, "context live %v\n", ctx.Err())
	}
	w.Header()["Content-Length"] = []string{fmt.Sprint(b.Len())}
	io.WriteString(w, b.String())
}

// TestFastRequestAsNetHTTP: the fasthttp front hands the handler the
// request net/http would: method, URL and its parts, request target,
// protocol, host, peer address, headers (canonical names, repeated ones
// in order, no Host or Transfer-Encoding; among them those fasthttp's
// parse changes: repeated Content-Type and User-Agent lines, cookies,
// "Connection: Close", a body-less request with and without
// "Content-Length: 0"), body and its length, and a live context. The
// requests go one after another on one kept-alive connection, so each is
// made in an exchange a previous one used: nothing of the one before may
// show.
func TestFastRequestAsNetHTTP(t *testing.T) {
	reqs := []string{
		"GET /devstoreaccount1/t(PartitionKey='a',RowKey='b')?$select=x HTTP/1.1\r\nHost: 127.0.0.1:1\r\n" +
			"x-ms-date: Mon, 23 Nov 2026 10:00:00 GMT\r\nAccept: application/json;odata=nometadata\r\nX-Custom-Thing: 1\r\nx-custom-thing: 2\r\n\r\n",
		"POST /devstoreaccount1/t HTTP/1.1\r\nHost: other:2\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":\"b c d\"}",
		"GET /a%20b/c%2Fd?q=%41&r HTTP/1.1\r\nHost: x\r\nAuthorization: SharedKey a:b\r\n\r\n",
		"PUT /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nIf-Match: *\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
		"DELETE /t('x') HTTP/1.1\r\nHost: x\r\nUser-Agent: azsdk-js-data-tables/13.3.0\r\nPrefer: return-no-content\r\n\r\n",
		"MERGE /t HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nx-ms-version: 2019-02-02\r\n\r\n{}",
		"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /x HTTP/1.1\r\nHost: x\r\nX-A:   spaced  \r\nX-B:\r\nX-C: a\tb\r\nCookie: a=1; b=2\r\nCookie: c=3\r\nAccept-Charset: UTF-8\r\n\r\n",
		"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc",
		"POST /d HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nuser-agent: a\r\n\r\n",
		"POST /e HTTP/1.1\r\nHost: x\r\nX-R: 1\r\ncontent-type: application/json\r\nX-Empty:\r\nx-r: 2\r\nContent-Length: 2\r\nUser-Agent: b\r\nX-R: 3\r\n\r\n{}",
		"POST /f HTTP/1.1\r\nHost: x\r\nContent-Type: a/b\r\nContent-Type: c/d\r\nUser-Agent: u1\r\nUser-Agent: u2\r\nContent-Length: 2\r\n\r\n{}",
		"POST /g HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n0\r\n\r\n",
		"POST /h HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
		"GET /last HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n",
	}
	std := httptest.NewServer(http.HandlerFunc(echoRequest))
	defer std.Close()
	fastAddr := serveFastOn(t, http.HandlerFunc(echoRequest))
	serve := func(addr string) []string {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		br := bufio.NewReader(conn)
		var got []string
		for _, raw := range reqs {
			if _, err := io.WriteString(conn, raw); err != nil {
				t.Fatal(err)
			}
			req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(br, req)
			for err == nil && resp.StatusCode < 200 { // 100 Continue: the answer follows
				resp, err = http.ReadResponse(br, req)
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(b))
		}
		return got
	}
	want, got := serve(std.Listener.Addr().String()), serve(fastAddr)
	for i := range reqs {
		if got[i] != want[i] {
			t.Errorf("request %d, %q:\ngot (fasthttp)\n%s\nwant (net/http)\n%s", i, reqs[i], got[i], want[i])
		}
	}
}
