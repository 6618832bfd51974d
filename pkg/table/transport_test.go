package table

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

const entityJSON = `{"PartitionKey":"p","RowKey":"r","V":1}`

var entityAnswer = "HTTP/1.1 200 OK\r\nContent-Type: application/json;odata=minimalmetadata\r\nETag: W/\"datetime'1'\"\r\n" +
	fmt.Sprintf("Content-Length: %d\r\n\r\n", len(entityJSON)) + entityJSON

// net/http re-sends a GET by itself when a reused connection breaks after
// the request was written; the server then sees a request the tool never
// counted. The transporter prevents it: the server here hangs up on the
// second request of the first connection and answers everything else.
func TestNoSilentReplay(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var reqs atomic.Int64
	var conns sync.WaitGroup
	t.Cleanup(func() { ln.Close(); conns.Wait() })
	go func() {
		for n := 0; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func(c net.Conn, first bool) {
				defer conns.Done()
				defer c.Close()
				br := bufio.NewReader(c)
				for i := 0; ; i++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					reqs.Add(1)
					if first && i == 1 {
						return // hang up after reading the request
					}
					fmt.Fprint(c, entityAnswer)
				}
			}(c, n == 0)
		}
	}()
	tb := openURL(t, "http://"+ln.Addr().String(), 5*time.Second).Table("tbl1")
	ctx := context.Background()
	if r := tb.Get(ctx, "p", "r", nil); r.Outcome.Key() != "200" || r.Entities != 1 {
		t.Fatalf("first get: %s (%v)", r.Outcome.Key(), r.Err)
	}
	if r := tb.Get(ctx, "p", "r", nil); r.Outcome.Class != outcome.Transport {
		t.Errorf("get on the connection the server hung up: %s (%v), want transport", r.Outcome.Key(), r.Err)
	}
	if n := reqs.Load(); n != 2 {
		t.Errorf("the server read %d requests for 2 gets: a request was sent again", n)
	}
	if r := tb.Get(ctx, "p", "r", nil); r.Outcome.Key() != "200" || reqs.Load() != 3 {
		t.Errorf("third get: %s, %d requests", r.Outcome.Key(), reqs.Load())
	}
}

// A GET leaves the transporter with no body on the wire: no
// Transfer-Encoding, no Content-Length, and the connection stays usable.
func TestGetWire(t *testing.T) {
	var bad atomic.Int64
	var news atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodGet && (len(r.TransferEncoding) > 0 || r.ContentLength != 0 || len(body) > 0 ||
			r.Header.Get("Content-Length") != "" || r.Header.Get("Transfer-Encoding") != "") {
			bad.Add(1)
		}
		w.Header().Set("Content-Type", "application/json;odata=minimalmetadata")
		fmt.Fprint(w, `{"value":[]}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			news.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	tb := openURL(t, srv.URL, 5*time.Second).Table("tbl1")
	for i := range 3 {
		if _, r, _ := tb.Query(context.Background(), Query{Filter: FilterPK("p")}).Next(context.Background()); r.Outcome.Key() != "200" {
			t.Fatalf("query %d: %s (%v)", i, r.Outcome.Key(), r.Err)
		}
	}
	if bad.Load() != 0 || news.Load() != 1 {
		t.Errorf("%d GETs carried a body or its headers; %d connections for 3 sequential requests, want 1", bad.Load(), news.Load())
	}
}

// The pool keeps an idle connection for every worker: rounds of as many
// concurrent requests as workers reuse them instead of opening new ones
// (azcore's default pool keeps 10 per host, so 32 workers would open ~22
// connections a round).
func TestPoolSizedToWorkers(t *testing.T) {
	const workers, rounds = 32, 8
	var news atomic.Int64
	srv := httptest.NewUnstartedServer(&canned{status: 200, body: entityJSON})
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			news.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	tg, _ := ParseTarget("AccountName=devstoreaccount1;AccountKey=" + DevKey + ";TableEndpoint=" + srv.URL + "/devstoreaccount1")
	svc, err := Open(tg, Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	tb := svc.Table("tbl1")
	for range rounds {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if r := tb.Get(context.Background(), "p", fmt.Sprint(w), nil); r.Err != nil {
					t.Error(r.Err)
				}
			}()
		}
		wg.Wait()
	}
	if n := news.Load(); n > workers+8 {
		t.Errorf("%d connections for %d rounds of %d concurrent requests, want at most %d", n, rounds, workers, workers+8)
	}
	if tr := svc.transport.(*http.Transport); tr.MaxIdleConnsPerHost < workers {
		t.Errorf("MaxIdleConnsPerHost = %d < %d workers", tr.MaxIdleConnsPerHost, workers)
	}
}
