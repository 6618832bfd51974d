package emulator

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sdkBatch reads a transaction body an SDK sent (testdata/batch, captured
// from @azure/data-tables 13.3.2, azure-data-tables 12.4.2 and
// azure-cosmosdb-table 1.0.5 on table "batch"), with the Content-Type
// naming its boundary.
func sdkBatch(t testing.TB, name string) (string, []byte) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "batch", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(body, []byte("\n"))
	boundary := strings.TrimPrefix(strings.TrimSpace(string(first)), "--")
	return "multipart/mixed; boundary=" + boundary, body
}

// opSummary describes a parsed operation for comparisons.
func opSummary(o batchOp) string {
	kinds := map[opKind]string{opInsert: "insert", opWrite: "write", opDelete: "delete"}
	if o.err != nil {
		return "error " + o.err.code
	}
	var props []string
	for _, p := range o.props {
		props = append(props, p.Name+"="+string(p.Raw))
	}
	return fmt.Sprintf("%s %s/%s %s merge=%v if-match=%s props=%s", o.table, o.pk, o.rk, kinds[o.kind], o.merge, o.ifMatch, strings.Join(props, ","))
}

func TestParseBatchFromSDKs(t *testing.T) {
	tests := []struct {
		sdk  string
		want []string
	}{
		// No Content-Length, a blank line before each body, absolute URLs.
		{"js", []string{
			"batch p/a insert merge=false if-match= props=V=1",
			"batch p/b write merge=true if-match=* props=V=1",
			"batch p/c write merge=false if-match= props=",
			"batch p/d delete merge=false if-match=* props=",
		}},
		// Content-Length, Content-ID, typed keys.
		{"python", []string{
			"batch p/a insert merge=false if-match= props=V=1",
			"batch p/b write merge=true if-match=* props=",
			"batch p/c write merge=true if-match= props=",
			"batch p/d delete merge=false if-match=* props=",
		}},
		// LF line ends, relative URLs, a DELETE with no blank line after its headers.
		{"legacy", []string{
			`batch p/a insert merge=false if-match= props=V="1"`,
			"batch p/b write merge=true if-match=* props=",
			"batch p/c write merge=false if-match= props=",
			"batch p/d delete merge=false if-match=* props=",
		}},
	}
	for _, tt := range tests {
		ct, body := sdkBatch(t, tt.sdk)
		ops, err := parseBatch(ct, body, DevAccount)
		if err != nil {
			t.Errorf("%s: %v", tt.sdk, err)
			continue
		}
		var got []string
		for _, o := range ops {
			got = append(got, opSummary(o))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", tt.sdk, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

// Every SDK's transaction is applied by the handler.
func TestBatchFromSDKsApplied(t *testing.T) {
	for _, sdk := range []string{"js", "python", "legacy"} {
		s := newServer(t)
		s.store.Create("batch")
		for _, rk := range []string{"b", "d"} {
			do(t, s, signed(s, http.MethodPost, "/batch", "", []byte(`{"PartitionKey":"p","RowKey":"`+rk+`"}`)), http.StatusNoContent)
		}
		ct, body := sdkBatch(t, sdk)
		w := do(t, s, batchRequest(s, ct, body), http.StatusAccepted)
		if n := strings.Count(w.Body.String(), "HTTP/1.1 204 No Content"); n != 4 {
			t.Errorf("%s: %d inner 204 answers, want 4:\n%s", sdk, n, w.Body.String())
		}
		if n, _ := s.Rows("batch"); n != 3 {
			t.Errorf("%s: %d rows after the transaction, want 3 (a, b, c)", sdk, n)
		}
	}
}

func TestParseInnerRequestForms(t *testing.T) {
	tests := []struct {
		name, raw string
		want      string // method target body, or "malformed"
	}{
		{"Content-Length shorter than the body", "POST /t HTTP/1.1\r\nContent-Length: 3\r\n\r\n{\"a\":1}", `POST /t {"a":1}`},
		{"Content-Length longer than the body", "POST /t HTTP/1.1\r\nContent-Length: 300\r\n\r\n{\"a\":1}\r\n", `POST /t {"a":1}`},
		{"two blank lines", "POST /t HTTP/1.1\r\n\r\n\r\n{\"a\":1}\r\n", `POST /t {"a":1}`},
		{"LF only", "POST /t HTTP/1.1\nA: b\n\n{\"a\":1}\n", `POST /t {"a":1}`},
		{"blank lines before the request line", "\r\n\r\nDELETE /t(PartitionKey='a',RowKey='b') HTTP/1.1\r\nIf-Match: *", `DELETE /t(PartitionKey='a',RowKey='b') `},
		{"headers ending the part", "DELETE /t HTTP/1.1\nIf-Match: *\n", "DELETE /t "},
		{"no HTTP version", "DELETE /t\r\n\r\n", "DELETE /t "},
		{"empty", "", "malformed"},
		{"blank only", "\r\n\r\n", "malformed"},
		{"one word", "DELETE\r\n\r\n", "malformed"},
		{"not HTTP", "DELETE /t FTP/1\r\n\r\n", "malformed"},
		{"header without colon", "POST /t HTTP/1.1\r\nnocolon\r\n\r\n{}", "malformed"},
	}
	for _, tt := range tests {
		req, ok := parseInnerRequest([]byte(tt.raw))
		got := "malformed"
		if ok {
			got = req.method + " " + req.target + " " + string(req.body)
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Malformed framing is 400 InvalidInput with Azure's message, never a 500.
func TestMalformedBatch(t *testing.T) {
	s := newServer(t)
	s.store.Create("batch")
	ct, body := sdkBatch(t, "js")
	tests := []struct {
		name, ct string
		body     []byte
	}{
		{"not multipart", "application/json", body},
		{"no boundary", "multipart/mixed", body},
		{"wrong boundary", "multipart/mixed; boundary=other", body},
		{"cut in the first part's headers", ct, body[:60]},
		{"no changeset", ct, []byte("--" + ct[strings.Index(ct, "=")+1:] + "--\r\n")},
		{"inner part without a request line", "multipart/mixed; boundary=b", []byte("--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\n\r\n--c--\r\n--b--\r\n")},
	}
	for _, tt := range tests {
		w := serve(s, batchRequest(s, tt.ct, tt.body))
		code, msg := odataError(t, w.Body.Bytes(), w.Header())
		if w.Code != http.StatusBadRequest || code != "InvalidInput" || !strings.HasPrefix(msg, "One of the request inputs is not valid.\nRequestId:") {
			t.Errorf("%s: %d %s %q", tt.name, w.Code, code, msg)
		}
	}
}
