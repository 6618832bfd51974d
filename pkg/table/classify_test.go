package table

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Every failure answer is classified exactly, by every operation, and costs
// exactly one request: SDK retries are off even for 503 and 429.
func TestAnswersClassifiedWithOneRequest(t *testing.T) {
	tests := []struct {
		s     *canned
		key   string
		class outcome.Class
		after time.Duration
		msg   string
	}{
		// Table Storage throttling: the partition or account is over its target.
		{&canned{status: 503, code: "ServerBusy", body: odataError("ServerBusy", "The server is currently unable to receive requests. Please retry your request.")},
			"503 ServerBusy", outcome.Throttled, 0, "The server is currently unable to receive requests. Please retry your request."},
		// Table Storage's other throttle.
		{&canned{status: 500, code: "OperationTimedOut"}, "500 OperationTimedOut", outcome.Throttled, 0, "message of OperationTimedOut"},
		// A gateway timeout with a plain-text body and no code.
		{&canned{status: 504, body: "upstream request timeout", header: map[string]string{"Content-Type": "text/plain"}}, "504", outcome.Throttled, 0, "Gateway Timeout"},
		// Cosmos DB throttling, with its retry hint in milliseconds.
		{&canned{status: 429, code: "TooManyRequests", header: map[string]string{"x-ms-retry-after-ms": "250"}}, "429 TooManyRequests", outcome.Throttled, 250 * time.Millisecond, ""},
		// A Retry-After in seconds.
		{&canned{status: 503, code: "ServerBusy", header: map[string]string{"Retry-After": "2"}}, "503 ServerBusy", outcome.Throttled, 2 * time.Second, ""},
		// Not found: the code only in the body (no x-ms-error-code header).
		{&canned{status: 404, body: odataError("ResourceNotFound", "The specified resource does not exist.")}, "404 ResourceNotFound", outcome.ClientError, 0, "The specified resource does not exist."},
		{&canned{status: 409, code: "EntityAlreadyExists"}, "409 EntityAlreadyExists", outcome.ClientError, 0, "message of EntityAlreadyExists"},
		{&canned{status: 412, code: "UpdateConditionNotSatisfied"}, "412 UpdateConditionNotSatisfied", outcome.ClientError, 0, ""},
		// An XML error body without the header.
		{&canned{status: 403, header: map[string]string{"Content-Type": "application/xml"},
			body: `<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>AuthenticationFailed</m:code><m:message xml:lang="en-US">Server failed to authenticate the request.` + "\n" + `RequestId:1</m:message></m:error>`},
			"403 AuthenticationFailed", outcome.ClientError, 0, "Server failed to authenticate the request."},
		{&canned{status: 500, code: "InternalError"}, "500 InternalError", outcome.ServerError, 0, ""},
		// A redirect is one request and is not followed.
		{&canned{status: 302, header: map[string]string{"Location": "/elsewhere"}}, "302", outcome.Transport, 0, "Found"},
	}
	for _, tt := range tests {
		svc := serve(t, tt.s, 5*time.Second)
		tb := svc.Table("tbl1")
		for _, op := range operations() {
			before := tt.s.reqs.Load()
			r := op.do(svc, tb)
			if n := tt.s.reqs.Load() - before; n != 1 {
				t.Errorf("%s answered %d: %d requests, want exactly 1", op.name, tt.s.status, n)
			}
			if r.Outcome.Key() != tt.key || r.Outcome.Class != tt.class || r.RetryAfter != tt.after || r.Entities != 0 || r.FailedIndex != -1 {
				t.Errorf("%s answered %d: %s %v retry-after %v entities %d index %d, want %s %v %v",
					op.name, tt.s.status, r.Outcome.Key(), r.Outcome.Class, r.RetryAfter, r.Entities, r.FailedIndex, tt.key, tt.class, tt.after)
			}
			if r.Err == nil || !strings.HasPrefix(r.Err.Error(), tt.key+": ") || strings.ContainsAny(r.Err.Error(), "\r\n") {
				t.Errorf("%s: Err %q, want one line starting %q", op.name, r.Err, tt.key+": ")
			} else if tt.msg != "" && r.Err.Error() != tt.key+": "+tt.msg {
				t.Errorf("%s: Err %q, want %q", op.name, r.Err, tt.key+": "+tt.msg)
			}
		}
	}
}

// Successes report the status the service sent and what they served.
func TestSuccessResults(t *testing.T) {
	tests := []struct {
		s        *canned
		op       func(*Table) Result
		key      string
		entities int
		etag     string
	}{
		// An insert answered 201 with the entity; the ETag comes from the header.
		{&canned{status: 201, header: map[string]string{"ETag": `W/"datetime'1'"`}, body: `{"PartitionKey":"p","RowKey":"r"}`},
			func(tb *Table) Result { return tb.Insert(context.Background(), entity("p", "r", 1)) }, "201", 1, `W/"datetime'1'"`},
		// An insert answered 204 (return-no-content) is reported as 204, as the service counts it.
		{&canned{status: 204, header: map[string]string{"ETag": `W/"datetime'2'"`}},
			func(tb *Table) Result { return tb.Insert(context.Background(), entity("p", "r", 1)) }, "204", 1, `W/"datetime'2'"`},
		{&canned{status: 204, header: map[string]string{"ETag": `W/"datetime'3'"`}},
			func(tb *Table) Result { return tb.Upsert(context.Background(), entity("p", "r", 1), UpdateModeMerge) }, "204", 1, `W/"datetime'3'"`},
		// A projected read takes the ETag from the entity's odata.etag.
		{&canned{status: 200, body: `{"value":[{"odata.etag":"W/\"datetime'4'\"","PartitionKey":"p","RowKey":"r","V":1}]}`},
			func(tb *Table) Result { return tb.Get(context.Background(), "p", "r", []string{"V"}) }, "200", 1, `W/"datetime'4'"`},
		// A projected read of a missing entity: 200 with nothing.
		{&canned{status: 200, body: `{"value":[]}`},
			func(tb *Table) Result { return tb.Get(context.Background(), "p", "r", []string{"V"}) }, "200", 0, ""},
		// A successful transaction serves its actions.
		{&canned{status: 202, header: map[string]string{"Content-Type": "multipart/mixed; boundary=batchresponse_1"},
			body: "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n--changesetresponse_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\nDataServiceVersion: 3.0;\r\n\r\n\r\n--changesetresponse_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\nDataServiceVersion: 3.0;\r\n\r\n\r\n--changesetresponse_1--\r\n\r\n--batchresponse_1--\r\n"},
			func(tb *Table) Result {
				return tb.Submit(context.Background(), []Action{{Kind: ActionUpsertMerge, Entity: entity("p", "a", 1)}, {Kind: ActionUpsertReplace, Entity: entity("p", "b", 1)}})
			}, "202", 2, ""},
	}
	for i, tt := range tests {
		tb := serve(t, tt.s, 5*time.Second).Table("tbl1")
		r := tt.op(tb)
		if r.Outcome.Key() != tt.key || r.Outcome.Class != outcome.OK || r.Entities != tt.entities || r.ETag != tt.etag || r.Err != nil || r.FailedIndex != -1 {
			t.Errorf("case %d: %s entities %d etag %q index %d err %v, want %s %d %q", i, r.Outcome.Key(), r.Entities, r.ETag, r.FailedIndex, r.Err, tt.key, tt.entities, tt.etag)
		}
	}
}

// A failed transaction comes back as a 202; the inner answer is classified.
func TestFailedTransactionClassified(t *testing.T) {
	body, contentType := goldenBatchFailure(t)
	s := &canned{status: 202, header: map[string]string{"Content-Type": contentType}, body: string(body)}
	tb := serve(t, s, 5*time.Second).Table("tbl1")
	r := tb.Submit(context.Background(), []Action{{Kind: ActionInsert, Entity: entity("p", "new", 1)}, {Kind: ActionInsert, Entity: entity("p", "old", 1)}})
	if r.Outcome.Key() != "409 EntityAlreadyExists" || r.Outcome.Class != outcome.ClientError || r.FailedIndex != 1 || r.Entities != 0 {
		t.Errorf("failed transaction: %s %v index %d entities %d", r.Outcome.Key(), r.Outcome.Class, r.FailedIndex, r.Entities)
	}
	if r.Err == nil || r.Err.Error() != "409 EntityAlreadyExists: The specified entity already exists." {
		t.Errorf("failed transaction Err = %v", r.Err)
	}
	if n := s.reqs.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// Requests that get no answer: a dropped connection, a server slower than
// the timeout, a context canceled before or during the request.
func TestNoAnswerClassified(t *testing.T) {
	drop := &canned{drop: true}
	svc := serve(t, drop, 5*time.Second)
	for _, op := range operations() {
		before := drop.reqs.Load()
		r := op.do(svc, svc.Table("tbl1"))
		if r.Outcome.Class != outcome.Transport || r.Outcome.Key() != "transport" || !errors.Is(r.Err, ErrNoAnswer) {
			t.Errorf("%s on a dropped connection: %s (%v)", op.name, r.Outcome.Key(), r.Err)
		}
		if n := drop.reqs.Load() - before; n != 1 {
			t.Errorf("%s on a dropped connection: %d requests, want 1", op.name, n)
		}
	}

	slow := &canned{hold: true}
	tb := serve(t, slow, 50*time.Millisecond).Table("tbl1")
	if r := tb.Insert(context.Background(), entity("p", "r", 1)); r.Outcome.Class != outcome.Timeout || r.Outcome.Key() != "timeout" {
		t.Errorf("slow server: %s (%v)", r.Outcome.Key(), r.Err)
	}
	pager := tb.Query(context.Background(), Query{})
	if _, r, more := pager.Next(context.Background()); r.Outcome.Class != outcome.Timeout || !more {
		t.Errorf("slow page: %s more=%v, want timeout and the page still to fetch", r.Outcome.Key(), more)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := slow.reqs.Load()
	if r := tb.Insert(ctx, entity("p", "r", 1)); r.Outcome.Class != outcome.Canceled || r.Outcome.Key() != "canceled" {
		t.Errorf("canceled context: %s (%v)", r.Outcome.Key(), r.Err)
	}
	if n := slow.reqs.Load() - before; n != 0 {
		t.Errorf("a canceled context sent %d requests", n)
	}

	held := &canned{hold: true, arrived: make(chan struct{}, 1)}
	tb = serve(t, held, time.Minute).Table("tbl1")
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan Result)
	go func() { done <- tb.Get(ctx, "p", "r", nil) }()
	<-held.arrived
	cancel()
	if r := <-done; r.Outcome.Class != outcome.Canceled || r.Outcome.Status != 0 {
		t.Errorf("canceled in flight: %s (%v)", r.Outcome.Key(), r.Err)
	}
}

// Input aztables would panic on is refused without a request.
func TestBadInputNotSent(t *testing.T) {
	s := &canned{status: 204}
	tb := serve(t, s, 5*time.Second).Table("tbl1")
	ctx := context.Background()
	bad := [][]byte{nil, []byte(`{"RowKey":"r"}`), []byte(`{"PartitionKey":1,"RowKey":"r"}`), []byte(`[1,2]`), []byte(`{"PartitionKey":"p","RowKey":"r"`),
		[]byte(`{"PartitionKey":"p","RowKey":"r","V":tru}`)}
	for _, e := range bad {
		for name, r := range map[string]Result{
			"insert": tb.Insert(ctx, e),
			"upsert": tb.Upsert(ctx, e, UpdateModeMerge),
			"update": tb.Update(ctx, e, UpdateModeReplace, ""),
			"submit": tb.Submit(ctx, []Action{{Kind: ActionInsert, Entity: entity("p", "a", 1)}, {Kind: ActionUpsertMerge, Entity: e}}),
		} {
			if r.Outcome.Key() != "400 InvalidInput" || !errors.Is(r.Err, ErrNotSent) || !errors.Is(r.Err, ErrEntity) {
				t.Errorf("%s %q: %s (%v)", name, e, r.Outcome.Key(), r.Err)
			}
			if name == "submit" && r.FailedIndex != 1 {
				t.Errorf("submit %q: FailedIndex %d, want 1", e, r.FailedIndex)
			}
		}
	}
	tooMany := make([]Action, MaxTransactionActions+1)
	for i := range tooMany {
		tooMany[i] = Action{Kind: ActionInsert, Entity: entity("p", "r", i)}
	}
	for _, acts := range [][]Action{nil, tooMany} {
		if r := tb.Submit(ctx, acts); r.Outcome.Key() != "400 InvalidInput" || !errors.Is(r.Err, ErrTooManyActions) || !errors.Is(r.Err, ErrNotSent) {
			t.Errorf("%d actions: %s (%v)", len(acts), r.Outcome.Key(), r.Err)
		}
	}
	if r := tb.Submit(ctx, []Action{{Kind: ActionKind(42), Entity: entity("p", "r", 1)}}); !errors.Is(r.Err, ErrActionKind) || r.FailedIndex != 0 {
		t.Errorf("unknown kind: %s index %d (%v)", r.Outcome.Key(), r.FailedIndex, r.Err)
	}
	if n := s.reqs.Load(); n != 0 {
		t.Errorf("refused input sent %d requests", n)
	}
}
