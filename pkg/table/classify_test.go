package table

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// scripted serves one canned answer and counts requests.
type scripted struct {
	status int
	code   string
	header map[string]string
	body   string
	delay  time.Duration
	hijack bool
	reqs   atomic.Int64
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.reqs.Add(1)
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-r.Context().Done():
			return
		}
	}
	if s.hijack {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
		return
	}
	for k, v := range s.header {
		w.Header().Set(k, v)
	}
	if s.code != "" {
		w.Header().Set("x-ms-error-code", s.code)
	}
	w.Header().Set("Content-Type", "application/json;odata=minimalmetadata")
	w.WriteHeader(s.status)
	body := s.body
	if body == "" && s.code != "" {
		body = `{"odata.error":{"code":"` + s.code + `","message":{"lang":"en-US","value":"message of ` + s.code + `\nRequestId:1"}}}`
	}
	w.Write([]byte(body))
}

func scriptedTable(t *testing.T, s *scripted, timeout time.Duration) *Table {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	tg, err := ParseTarget("AccountName=devstoreaccount1;AccountKey=" + DevKey + ";TableEndpoint=" + srv.URL + "/devstoreaccount1")
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Open(tg, Options{Workers: 2, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc.Table("t1")
}

func TestClassifyThrottlingAndErrors(t *testing.T) {
	tests := []struct {
		s     *scripted
		key   string
		class outcome.Class
		after time.Duration
	}{
		{&scripted{status: 503, code: "ServerBusy"}, "503 ServerBusy", outcome.Throttled, 0},
		{&scripted{status: 500, code: "OperationTimedOut"}, "500 OperationTimedOut", outcome.Throttled, 0},
		{&scripted{status: 504, body: "gateway"}, "504", outcome.Throttled, 0},
		{&scripted{status: 429, code: "TooManyRequests", header: map[string]string{"x-ms-retry-after-ms": "250"}}, "429 TooManyRequests", outcome.Throttled, 250 * time.Millisecond},
		{&scripted{status: 503, code: "ServerBusy", header: map[string]string{"Retry-After": "2"}}, "503 ServerBusy", outcome.Throttled, 2 * time.Second},
		{&scripted{status: 404, code: "ResourceNotFound"}, "404 ResourceNotFound", outcome.ClientError, 0},
		{&scripted{status: 409, code: "EntityAlreadyExists"}, "409 EntityAlreadyExists", outcome.ClientError, 0},
		{&scripted{status: 412, code: "UpdateConditionNotSatisfied"}, "412 UpdateConditionNotSatisfied", outcome.ClientError, 0},
		{&scripted{status: 403, code: "AuthenticationFailed"}, "403 AuthenticationFailed", outcome.ClientError, 0},
		{&scripted{status: 500, code: "InternalError"}, "500 InternalError", outcome.ServerError, 0},
	}
	for _, tt := range tests {
		s := tt.s
		tb := scriptedTable(t, s, 5*time.Second)
		for name, call := range map[string]func() Result{
			"insert": func() Result { return tb.Insert(context.Background(), entity("p", "r", 1)) },
			"get":    func() Result { return tb.Get(context.Background(), "p", "r", nil) },
			"update": func() Result { return tb.Update(context.Background(), entity("p", "r", 1), UpdateModeMerge, "") },
		} {
			before := s.reqs.Load()
			r := call()
			if r.Outcome.Key() != tt.key || r.Outcome.Class != tt.class || r.RetryAfter != tt.after || r.Err == nil {
				t.Errorf("%s answered %d %s: got %s %v after %v (%v)", name, s.status, s.code, r.Outcome.Key(), r.Outcome.Class, r.RetryAfter, r.Err)
			}
			if n := s.reqs.Load() - before; n != 1 {
				t.Errorf("%s sent %d requests for one %d: SDK retries must be off", name, n, s.status)
			}
		}
	}
}

// A body captured from Azurite 3.37.0: a transaction whose second insert
// hits an existing entity.
const azuriteBatchFailure = "--batchresponse_7d4f1e9c\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2b0e\r\n\r\n" +
	"--changesetresponse_2b0e\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
	"HTTP/1.1 409 Conflict\r\nX-Content-Type-Options: nosniff\r\nPreference-Applied: return-no-content\r\nDataServiceVersion: 3.0;\r\n" +
	"Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8\r\n\r\n" +
	`{"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US","value":"1:The specified entity already exists.\nRequestId:abc\nTime:2026-11-22T12:00:00.000Z"}}}` +
	"\r\n--changesetresponse_2b0e--\r\n\r\n--batchresponse_7d4f1e9c--\r\n"

func TestClassifyFailedTransaction(t *testing.T) {
	s := &scripted{status: 202, body: azuriteBatchFailure, header: map[string]string{"Content-Type": "multipart/mixed; boundary=batchresponse_7d4f1e9c"}}
	tb := scriptedTable(t, s, 5*time.Second)
	r := tb.Submit(context.Background(), []Action{{Kind: ActionInsert, Entity: entity("p", "a", 1)}, {Kind: ActionInsert, Entity: entity("p", "b", 1)}})
	if r.Outcome.Key() != "409 EntityAlreadyExists" || r.FailedIndex != 1 || !strings.Contains(r.Err.Error(), "The specified entity already exists") {
		t.Errorf("failed transaction: %s index %d err %v", r.Outcome.Key(), r.FailedIndex, r.Err)
	}
	if st, code, _, idx := parseBatchFailure([]byte("garbage")); st != 202 || code != "TransactionFailed" || idx != -1 {
		t.Errorf("unreadable body: %d %s %d", st, code, idx)
	}
}

func TestClassifyNoAnswer(t *testing.T) {
	drop := &scripted{hijack: true}
	tb := scriptedTable(t, drop, 5*time.Second)
	if r := tb.Insert(context.Background(), entity("p", "r", 1)); r.Outcome.Class != outcome.Transport || r.Outcome.Key() != "transport" {
		t.Errorf("dropped connection: %s %v", r.Outcome.Key(), r.Err)
	}
	slow := &scripted{status: 201, delay: 2 * time.Second}
	tb = scriptedTable(t, slow, 50*time.Millisecond)
	if r := tb.Insert(context.Background(), entity("p", "r", 1)); r.Outcome.Class != outcome.Timeout {
		t.Errorf("slow server: %s %v", r.Outcome.Key(), r.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := tb.Insert(ctx, entity("p", "r", 1)); r.Outcome.Class != outcome.Canceled {
		t.Errorf("canceled context: %s %v", r.Outcome.Key(), r.Err)
	}
}

func TestFilters(t *testing.T) {
	tests := map[string]string{
		FilterPK("O'Brien"):                 "PartitionKey eq 'O''Brien'",
		FilterPoint("a", "b"):               "PartitionKey eq 'a' and RowKey eq 'b'",
		FilterRowRange("a", "0100", ""):     "PartitionKey eq 'a' and RowKey ge '0100'",
		FilterRowRange("a", "0100", "0200"): "PartitionKey eq 'a' and RowKey ge '0100' and RowKey lt '0200'",
		FilterPKRange("2025-01", "2025-03"): "PartitionKey ge '2025-01' and PartitionKey le '2025-03'",
	}
	for got, want := range tests {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func BenchmarkInsertClassifySuccess(b *testing.B) {
	s := &scripted{status: 201}
	srv := httptest.NewServer(s)
	defer srv.Close()
	tg, _ := ParseTarget("AccountName=devstoreaccount1;AccountKey=" + DevKey + ";TableEndpoint=" + srv.URL + "/devstoreaccount1")
	svc, _ := Open(tg, Options{Workers: 2})
	tb := svc.Table("t1")
	body := entity("p", "r", 1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tb.Insert(context.Background(), body)
	}
}

func BenchmarkClassifyFailedTransaction(b *testing.B) {
	body := []byte(azuriteBatchFailure)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		parseBatchFailure(body)
	}
}
