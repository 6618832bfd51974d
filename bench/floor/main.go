// Command floor is the yardstick of bench/server-cpu.sh: a plain net/http
// server (with -http fasthttp, a plain fasthttp one) that answers the
// Table requests bench/bareclient sends the way Azure shapes them, with a
// fixed entity, and does no other work. Its CPU time per operation is what
// the HTTP server itself costs on this machine, the floor the embedded
// service's own cost is measured against.
//
// It answers, for any account and table, without checking signatures:
//
//   - a point read, GET /ACCOUNT/T(PartitionKey='…',RowKey='…'): 200 with
//     the fixed entity of 1 KiB payload, in the minimal-metadata JSON the
//     embedded service writes for the entities of
//     bench/scenarios/point-read-1k.yaml, with its ETag;
//   - an insert, POST /ACCOUNT/T: the request body read and dropped, then
//     201 with the fixed entity or, under Prefer: return-no-content, 204;
//   - a table creation, POST /ACCOUNT/Tables: 201 with the table, or 204
//     (Prefer: return-no-content);
//   - anything else: 404 ResourceNotFound.
//
// Every answer carries the headers Azure sends (x-ms-request-id,
// x-ms-version, Date from the HTTP server, Content-Type, DataServiceVersion).
//
//	floor -listen 127.0.0.1:10010
//	floor -listen 127.0.0.1:10011 -http fasthttp
//	floor -listen 127.0.0.1:10010 -cpuprofile /tmp/floor.pprof   # written on SIGTERM or SIGINT
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:10010", "address to listen on")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this file when stopped by SIGINT or SIGTERM")
	layer := flag.String("http", "net/http", "the HTTP server: net/http or fasthttp")
	flag.Parse()
	if *layer != "net/http" && *layer != "fasthttp" {
		fmt.Fprintf(os.Stderr, "floor: -http %q: want net/http or fasthttp\n", *layer)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fail(err)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-stop
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(0)
		}()
	}
	fmt.Printf("floor (%s) listening on %s\n", *layer, ln.Addr())
	if *layer == "fasthttp" {
		fail(serveFast(newFloor(), ln))
	}
	srv := &http.Server{Handler: newFloor(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	fail(srv.Serve(ln))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(1)
}

// floor is the handler; its answers are built once, in newFloor.
type floor struct {
	entity, table, notFound []byte
	entityLen, tableLen     []string // Content-Length of each
	notFoundLen             []string
	ids                     atomic.Uint64
	idPrefix                string
}

// Header values shared by every answer, as Azure writes them. They are
// assigned to the header map directly (canonical keys, slices built once):
// the cheapest way net/http offers.
var (
	jsonType    = []string{"application/json;odata=minimalmetadata;streaming=true;charset=utf-8"}
	version     = []string{"2019-02-02"}
	dsVersion   = []string{"3.0;"}
	nosniff     = []string{"nosniff"}
	etag        = []string{`W/"datetime'2026-01-01T00%3A00%3A00.0000000Z'"`}
	noContent   = []string{"return-no-content"}
	withContent = []string{"return-content"}
	notFoundErr = []string{"ResourceNotFound"}
)

func newFloor() *floor {
	f := &floor{idPrefix: fmt.Sprintf("%08x-0000-0000-0000-", uint32(time.Now().UnixNano()>>20))}
	f.entity = []byte(entityJSON())
	f.table = []byte(`{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#Tables/@Element","TableName":"floor"}`)
	f.notFound = []byte(`{"odata.error":{"code":"ResourceNotFound","message":{"lang":"en-US","value":"The specified resource does not exist."}}}`)
	f.entityLen = []string{strconv.Itoa(len(f.entity))}
	f.tableLen = []string{strconv.Itoa(len(f.table))}
	f.notFoundLen = []string{strconv.Itoa(len(f.notFound))}
	return f
}

// entityJSON is an entity of bench/scenarios/point-read-1k.yaml as the
// embedded service answers a point read of it: the same properties and
// sizes (a 1,024-character payload), other values.
func entityJSON() string {
	var data strings.Builder
	for i := range 1024 {
		data.WriteByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[(i*7+3)%62])
	}
	return `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#floor/@Element",` +
		`"odata.etag":"W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"",` +
		`"PartitionKey":"dev-000","RowKey":"2516666111801029999","Timestamp":"2026-01-01T00:00:00.0000000Z",` +
		`"device":"dev-000","Seq@odata.type":"Edm.Int64","Seq":"19897",` +
		`"EventTime@odata.type":"Edm.DateTime","EventTime":"2025-01-01T00:00:19.8970000Z",` +
		`"Version":0,"Data":"` + data.String() + `"}`
}

func (f *floor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["X-Ms-Request-Id"] = []string{f.requestID()}
	h["X-Ms-Version"] = version
	h["X-Content-Type-Options"] = nosniff
	switch route(r.Method, r.URL.Path) {
	case pointRead:
		f.answer(w, http.StatusOK, f.entity, f.entityLen, true)
	case tableCreated:
		_, _ = io.Copy(io.Discard, r.Body)
		f.created(w, r, f.table, f.tableLen, false)
	case entityInserted:
		_, _ = io.Copy(io.Discard, r.Body)
		f.created(w, r, f.entity, f.entityLen, true)
	default:
		h["X-Ms-Error-Code"] = notFoundErr
		f.answer(w, http.StatusNotFound, f.notFound, f.notFoundLen, false)
	}
}

// The requests the floor answers.
const (
	notFound       = iota
	pointRead      // GET .../table(PartitionKey=...,RowKey=...)
	tableCreated   // POST .../Tables
	entityInserted // POST .../table
)

// route is what a request of method on path (the URL's path, the
// account first) asks for, under either HTTP server.
func route(method, path string) int {
	_, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	switch {
	case method == http.MethodGet && strings.Contains(rest, "(PartitionKey="):
		return pointRead
	case method == http.MethodPost && rest == "Tables":
		return tableCreated
	case method == http.MethodPost && rest != "" && !strings.ContainsAny(rest, "/("):
		return entityInserted
	}
	return notFound
}

// requestID is a GUID as Azure's: the prefix, then a count in 12 hex
// digits.
func (f *floor) requestID() string {
	b := make([]byte, 0, 36)
	b = append(b, f.idPrefix...)
	var nb [16]byte
	n := strconv.AppendUint(nb[:0], f.ids.Add(1)&0xffffffffffff, 16)
	for range 12 - len(n) {
		b = append(b, '0')
	}
	return string(append(b, n...))
}

// created answers a creation: 204 when the request prefers no content,
// else 201 with body.
func (f *floor) created(w http.ResponseWriter, r *http.Request, body []byte, n []string, tagged bool) {
	h := w.Header()
	if strings.Contains(r.Header.Get("Prefer"), "return-no-content") {
		h["Preference-Applied"] = noContent
		if tagged {
			h["Etag"] = etag
		}
		h["Dataserviceversion"] = dsVersion
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h["Preference-Applied"] = withContent
	f.answer(w, http.StatusCreated, body, n, tagged)
}

// answer writes status with a JSON body of length n.
func (f *floor) answer(w http.ResponseWriter, status int, body []byte, n []string, tagged bool) {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Content-Length"] = n
	h["Dataserviceversion"] = dsVersion
	if tagged {
		h["Etag"] = etag
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
