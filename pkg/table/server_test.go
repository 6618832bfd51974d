package table

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// canned is an httptest handler that gives every request the same answer
// and counts the requests it receives.
type canned struct {
	status  int
	code    string            // x-ms-error-code header, when set
	header  map[string]string // more headers
	body    string            // "" with a code: an odata.error body for it
	hold    bool              // never answer: wait until the client gives up
	drop    bool              // close the connection without answering
	arrived chan struct{}     // told of each request, when not nil
	reqs    atomic.Int64
}

func (s *canned) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.reqs.Add(1)
	// Reading the body to its end lets the server notice the client
	// hanging up (it watches the connection only after that).
	io.Copy(io.Discard, r.Body)
	if s.arrived != nil {
		s.arrived <- struct{}{}
	}
	if s.hold {
		<-r.Context().Done()
		return
	}
	if s.drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	for k, v := range s.header {
		w.Header().Set(k, v)
	}
	if s.code != "" {
		w.Header().Set("x-ms-error-code", s.code)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8")
	}
	w.WriteHeader(s.status)
	body := s.body
	if body == "" && s.code != "" {
		body = odataError(s.code, "message of "+s.code)
	}
	fmt.Fprint(w, body)
}

// odataError is the JSON error body Table Storage and Azurite send.
func odataError(code, msg string) string {
	return `{"odata.error":{"code":"` + code + `","message":{"lang":"en-US","value":"` + msg +
		`\nRequestId:6f1f5e1c-0002-0041-1a2b-3c4d5e6f7a8b\nTime:2026-11-22T12:00:00.0000000Z"}}}`
}

// serve starts an httptest server for h and opens a Service on it with
// the development account's key.
func serve(t testing.TB, h http.Handler, timeout time.Duration) *Service {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return openURL(t, srv.URL, timeout)
}

func openURL(t testing.TB, base string, timeout time.Duration) *Service {
	t.Helper()
	tg, err := ParseTarget("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + DevKey +
		";TableEndpoint=" + base + "/devstoreaccount1;")
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Open(tg, Options{Workers: 4, Timeout: timeout, UserAgent: "tablestress/test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

// entity is a small entity body.
func entity(pk, rk string, v int) []byte {
	return fmt.Appendf(nil, `{"PartitionKey":%q,"RowKey":%q,"V":%d}`, pk, rk, v)
}

// operation is one kind of request the package sends.
type operation struct {
	name string
	do   func(s *Service, tb *Table) Result
}

// operations lists every request-sending method once.
func operations() []operation {
	ctx := context.Background()
	return []operation{
		{"create table", func(s *Service, _ *Table) Result { return s.CreateTable(ctx, "tbl1") }},
		{"delete table", func(s *Service, _ *Table) Result { return s.DeleteTable(ctx, "tbl1") }},
		{"table exists", func(s *Service, _ *Table) Result { _, r := s.TableExists(ctx, "tbl1"); return r }},
		{"insert", func(_ *Service, tb *Table) Result { return tb.Insert(ctx, entity("p", "r", 1)) }},
		{"upsert merge", func(_ *Service, tb *Table) Result { return tb.Upsert(ctx, entity("p", "r", 1), UpdateModeMerge) }},
		{"upsert replace", func(_ *Service, tb *Table) Result { return tb.Upsert(ctx, entity("p", "r", 1), UpdateModeReplace) }},
		{"update any", func(_ *Service, tb *Table) Result { return tb.Update(ctx, entity("p", "r", 1), UpdateModeMerge, "") }},
		{"update etag", func(_ *Service, tb *Table) Result {
			return tb.Update(ctx, entity("p", "r", 1), UpdateModeReplace, `W/"datetime'2026-11-22T12%3A00%3A00Z'"`)
		}},
		{"delete", func(_ *Service, tb *Table) Result { return tb.Delete(ctx, "p", "r", "") }},
		{"get", func(_ *Service, tb *Table) Result { return tb.Get(ctx, "p", "r", nil) }},
		{"get select", func(_ *Service, tb *Table) Result { return tb.Get(ctx, "p", "r", []string{"V"}) }},
		{"query page", func(_ *Service, tb *Table) Result {
			_, r, _ := tb.Query(ctx, Query{Filter: FilterPK("p"), Top: 10}).Next(ctx)
			return r
		}},
		{"submit", func(_ *Service, tb *Table) Result {
			return tb.Submit(ctx, []Action{{Kind: ActionInsert, Entity: entity("p", "a", 1)}, {Kind: ActionDelete, Entity: entity("p", "b", 1)}})
		}},
	}
}
