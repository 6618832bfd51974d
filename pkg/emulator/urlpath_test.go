package emulator

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEscapedPathAsNetHTTP holds escapedPath to url.URL.EscapedPath for
// request targets as net/http parses them off the wire: point reads with
// every kind of key escaping, raw bytes EscapedPath would re-escape, and
// requests built without a server.
func TestEscapedPathAsNetHTTP(t *testing.T) {
	targets := []string{
		"/devstoreaccount1/Tables",
		"/devstoreaccount1/t1()",
		"/devstoreaccount1/t1(PartitionKey='dev-001',RowKey='2516666111801029999')",
		"/devstoreaccount1/t1(PartitionKey='a%27%27b',RowKey='c%2Fd')",
		"/devstoreaccount1/t1(PartitionKey=%27a%20b%27,RowKey=%27%C3%A9%27)",
		"/devstoreaccount1/t1(PartitionKey='a\"b',RowKey='x')",
		"/devstoreaccount1/t1(PartitionKey='a%2fb',RowKey='x%3Fy')",
		"/devstoreaccount1/t1(PartitionKey='{x}',RowKey='^|`')",
		"/devstoreaccount1/t1(PartitionKey='\xc3\xa9',RowKey='x')",
		"/devstoreaccount1/t1(PartitionKey='a%25b',RowKey='[x]')",
		"/devstoreaccount1/$batch",
		"/devstoreaccount1/t1?comp=acl",
		"/devstoreaccount1/t1%28%29",
	}
	for _, target := range targets {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n")))
		if err != nil {
			t.Errorf("%q: %v", target, err)
			continue
		}
		if got, want := escapedPath(req), req.URL.EscapedPath(); got != want {
			t.Errorf("%q: escapedPath %q, EscapedPath %q", target, got, want)
		}
		ht := httptest.NewRequest(http.MethodGet, "http://x"+target, nil)
		if got, want := escapedPath(ht), ht.URL.EscapedPath(); got != want {
			t.Errorf("%q (httptest): escapedPath %q, EscapedPath %q", target, got, want)
		}
	}
	// URLs changed after parsing, where RawPath no longer encodes Path.
	changes := []struct{ raw, path string }{
		{"/a/t1(PartitionKey='a',RowKey='b')", "/a/t2(PartitionKey='a',RowKey='b')"},
		{"/a/t1(PartitionKey='a',RowKey='b')", "/a/t1(PartitionKey='a',RowKey='b')x"},
		{"/a/t1(PartitionKey='a',RowKey='b')x", "/a/t1(PartitionKey='a',RowKey='b')"},
		{"/a/t1(PartitionKey='a%2Fb')", "/a/t1(PartitionKey='a/b')"},
		{"/a/t1(PartitionKey='a%2Fb')", "/a/t1(PartitionKey='a%2Fb')"},
		{"/a/t1(PartitionKey='a%2')", "/a/t1(PartitionKey='a%2')"},
		{"/a/t1(PartitionKey='a%zz')", "/a/t1(PartitionKey='a%zz')"},
		{"/a/t1(PartitionKey='a%4", "/a/t1(PartitionKey='a%4"},
		{"/a/t1(PartitionKey='%c3%A9')", "/a/t1(PartitionKey='\xc3\xa9')"},
	}
	for _, c := range changes {
		req := httptest.NewRequest(http.MethodGet, "http://x/", nil)
		req.URL.RawPath, req.URL.Path = c.raw, c.path
		if got, want := escapedPath(req), req.URL.EscapedPath(); got != want {
			t.Errorf("RawPath %q, Path %q: escapedPath %q, EscapedPath %q", c.raw, c.path, got, want)
		}
	}
}
