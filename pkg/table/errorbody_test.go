package table

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestErrorDetail(t *testing.T) {
	tests := []struct {
		body, code, msg string
	}{
		// Table Storage and Azurite: odata.error, message cut at its first line.
		{odataError("ServerBusy", "The server is currently unable to receive requests. Please retry your request."),
			"ServerBusy", "The server is currently unable to receive requests. Please retry your request."},
		// Escapes in the message are decoded; white space around the body is fine.
		{"\n " + odataError("InvalidInput", `Bad value \"x\" \u00e9`) + "\n", "InvalidInput", `Bad value "x" é`},
		// The message as a plain string, under "error" (Cosmos DB style).
		{`{"error":{"code":"TooManyRequests","message":"Request rate is large.\r\nActivityId: 1"}}`, "TooManyRequests", "Request rate is large."},
		// A bare code and message.
		{`{"code":"Forbidden","message":"No."}`, "Forbidden", "No."},
		// Members in another order, nested values skipped.
		{`{"x":[1,{"code":"no"}],"odata.error":{"message":{"value":"m"},"code":"C"}}`, "C", "m"},
		// XML, with and without a namespace prefix; entities decoded.
		{`<?xml version="1.0"?><error xmlns="x"><code>ServerBusy</code><message xml:lang="en-US">Busy &amp; tired` + "\nRequestId:1</message></error>", "ServerBusy", "Busy & tired"},
		{`<m:error xmlns:m="x"><m:code> OperationTimedOut </m:code><m:message>Slow</m:message></m:error>`, "OperationTimedOut", "Slow"},
		// Nothing to read.
		{"", "", ""}, {"upstream timeout", "", ""}, {`{"odata.error":`, "", ""}, {`{"code":5}`, "", ""}, {"<error>", "", ""},
	}
	for _, tt := range tests {
		code, msg := errorDetail([]byte(tt.body))
		if code != tt.code || msg != tt.msg {
			t.Errorf("errorDetail(%.60q) = %q, %q; want %q, %q", tt.body, code, msg, tt.code, tt.msg)
		}
	}
}

func TestParseBatchFailure(t *testing.T) {
	golden, _ := goldenBatchFailure(t)
	part := func(status, headers, body string) string {
		return "--changesetresponse_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 " +
			status + "\r\n" + headers + "Content-Type: application/json\r\n\r\n" + body + "\r\n"
	}
	wrap := func(parts ...string) string {
		return "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n" +
			strings.Join(parts, "") + "--changesetresponse_1--\r\n--batchresponse_1--\r\n"
	}
	tests := []struct {
		name string
		body string
		want batchFailure
		ok   bool
	}{
		{"golden: Azurite, the second insert of an existing entity", string(golden),
			batchFailure{409, "EntityAlreadyExists", "The specified entity already exists.", 1}, true},
		{"Azure: a 0-based index in the message", wrap(part("400 Bad Request", "", odataError("InvalidInput", "0:One of the request inputs is not valid."))),
			batchFailure{400, "InvalidInput", "One of the request inputs is not valid.", 0}, true},
		{"throttled inside the transaction, code in the part's header", wrap(part("503 Server Busy", "X-Ms-Error-Code: ServerBusy\r\n", "")),
			batchFailure{503, "ServerBusy", "", -1}, true},
		{"one part per operation, no index in the message: the failing part's position",
			wrap(part("424 Failed Dependency", "", ""), part("409 Conflict", "", odataError("EntityAlreadyExists", "exists")), part("424 Failed Dependency", "", "")),
			batchFailure{409, "EntityAlreadyExists", "exists", 1}, true},
		{"only failed dependencies", wrap(part("424 Failed Dependency", "", ""), part("424 Failed Dependency", "", "")),
			batchFailure{424, "", "", 0}, true},
		{"LF line ends", strings.ReplaceAll(wrap(part("412 Precondition Failed", "", odataError("UpdateConditionNotSatisfied", "2:stale"))), "\r\n", "\n"),
			batchFailure{412, "UpdateConditionNotSatisfied", "stale", 2}, true},
		{"all succeeded", wrap(part("204 No Content", "", ""), part("201 Created", "", "{}")), batchFailure{index: -1}, false},
		{"a status line inside a JSON value is not one", wrap(part("204 No Content", "", `{"v":"x HTTP/1.1 500 y"}`)), batchFailure{index: -1}, false},
		{"garbage", "HTTP/1.1 4", batchFailure{index: -1}, false},
		{"empty", "", batchFailure{index: -1}, false},
	}
	for _, tt := range tests {
		got, ok := parseBatchFailure([]byte(tt.body))
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestTransactionOutcome(t *testing.T) {
	tests := []struct {
		body, key, class string
	}{
		// A JSON error at 202: the code, kept as a client error.
		{odataError("InvalidInput", "bad"), "202 InvalidInput", "client_error"},
		// Unreadable: never a success.
		{"garbage", "202 TransactionFailed", "transport"},
	}
	for _, tt := range tests {
		o, _, idx := transactionOutcome([]byte(tt.body))
		if o.Key() != tt.key || o.Class.String() != tt.class || idx != -1 {
			t.Errorf("transactionOutcome(%.30q) = %s %s %d, want %s %s -1", tt.body, o.Key(), o.Class, idx, tt.key, tt.class)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{map[string]string{"x-ms-retry-after-ms": "250"}, 250 * time.Millisecond},                 // Cosmos DB
		{map[string]string{"x-ms-retry-after-ms": "12.5"}, 12500 * time.Microsecond},              // fractional
		{map[string]string{"retry-after-ms": "40"}, 40 * time.Millisecond},                        // azcore's other spelling
		{map[string]string{"Retry-After": "3"}, 3 * time.Second},                                  // seconds
		{map[string]string{"Retry-After": "3", "x-ms-retry-after-ms": "5"}, 5 * time.Millisecond}, // milliseconds first
		{map[string]string{"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}, 0},                    // dates are ignored
		{map[string]string{"x-ms-retry-after-ms": "-1"}, 0},
		{nil, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestScrubAndOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{`Get "https://a.table.core.windows.net/Tables?sv=1&sig=` + sig + `": dial tcp: refused`, `Get "<url>": dial tcp: refused`},
		{"bad token sig=" + sig + "&se=1 here", "bad token sig=<redacted>&se=1 here"},
		{"key " + key + " leaked", "key <redacted> leaked"},
		{"http://x http://y", "<url> <url>"},
	}
	for _, tt := range tests {
		if got := scrub(tt.in, []string{key}); got != tt.want {
			t.Errorf("scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := strings.Repeat("é", 150)
	if got := oneLine(long, ""); len(got) > 203 || !strings.HasSuffix(got, "…") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("oneLine cuts %d bytes to %q", len(long), got)
	}
	if got := oneLine("  first\nsecond", "x"); got != "first" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine(" \n", "fallback"); got != "fallback" {
		t.Errorf("oneLine = %q", got)
	}
}

// FuzzParseBatchFailure: any body, no panic, and a found failure is never
// a success status.
func FuzzParseBatchFailure(f *testing.F) {
	golden, _ := goldenBatchFailure(f)
	f.Add(golden)
	f.Add([]byte("HTTP/1.1 409 Conflict\r\n\r\n{\"odata.error\":{\"code\":\"X\",\"message\":{\"value\":\"99:m\"}}}"))
	f.Add([]byte("\nHTTP/1.1 200 OK\nHTTP/1.1 424 x\n\n{"))
	f.Fuzz(func(t *testing.T, body []byte) {
		got, ok := parseBatchFailure(body)
		if ok && (got.status < 100 || got.status > 599 || (got.status >= 200 && got.status < 300) || got.index >= MaxTransactionActions) {
			t.Fatalf("%+v", got)
		}
		if !ok && got != (batchFailure{index: -1}) {
			t.Fatalf("not found but %+v", got)
		}
		o, msg, _ := transactionOutcome(body)
		if o.Class.String() == "ok" || strings.ContainsAny(msg, "\r\n") {
			t.Fatalf("transactionOutcome = %+v %q", o, msg)
		}
	})
}

// FuzzErrorDetail: any body, no panic, one-line messages.
func FuzzErrorDetail(f *testing.F) {
	f.Add([]byte(odataError("ServerBusy", "m")))
	f.Add([]byte(`<m:error><m:code>C</m:code><m:message>M</m:message></m:error>`))
	f.Add([]byte(`{"error":{"code":"C","message":"a\"\\n"}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, msg := errorDetail(body)
		if strings.ContainsAny(msg, "\r\n") || len(msg) > 203 {
			t.Fatalf("message %q", msg)
		}
	})
}
