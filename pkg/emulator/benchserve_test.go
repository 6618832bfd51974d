package emulator

import (
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// benchWriter is a reusable http.ResponseWriter that keeps the status and
// the headers and counts the body's bytes without keeping them, so that a
// benchmark times the service's handler, not a recorder's buffers (an
// httptest.ResponseRecorder allocates a header map and copies the body).
type benchWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *benchWriter) Header() http.Header { return w.h }

func (w *benchWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}

func (w *benchWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *benchWriter) reset() {
	clear(w.h)
	w.code, w.n = 0, 0
}

// benchBatch is how many requests serveBench builds at a time.
const benchBatch = 1000

// serveBench times s's handler serving b.N requests, the i-th built by
// req(i), each answered want and then judged by check (nil: no check).
//
// What the time includes: ServeHTTP from a parsed request to the last byte
// written, that is the service's Shared Key check, routing, the lookup, the
// JSON rendering and its counters. What it excludes: building and signing
// the requests (done with the timer stopped, benchBatch at a time: a
// request costs about a third of what serving it does), net/http's request
// parsing and socket writes, and page faults: a first untimed pass serves
// as many requests as the timed one and the collector then reclaims them,
// so the timed pass allocates from memory the heap has already used, as a
// service that has been running does. The entities live outside the Go
// heap (internal/store/slab.go), so the heap is mostly the B-tree (about 12 bytes an
// entity) and a collection, which marks only that, may fall in the timed
// pass at a few milliseconds' cost, as it does in a running service;
// -benchmem shows what each request allocates.
func serveBench(b *testing.B, s *Server, req func(i int) *http.Request, want int, check func(*benchWriter) error) {
	b.Helper()
	b.StopTimer()
	w := &benchWriter{h: http.Header{}}
	reqs := make([]*http.Request, 0, min(b.N, benchBatch))
	pass := func(timed bool) {
		for from := 0; from < b.N; from += benchBatch {
			if timed {
				b.StopTimer()
			}
			reqs = reqs[:0]
			for i := from; i < min(b.N, from+benchBatch); i++ {
				reqs = append(reqs, req(i))
			}
			if timed {
				b.StartTimer()
			}
			for _, r := range reqs {
				w.reset()
				s.ServeHTTP(w, r)
				if w.code != want {
					b.Fatalf("%s %s: %d, want %d", r.Method, r.URL, w.code, want)
				}
				if check != nil {
					if err := check(w); err != nil {
						b.Fatalf("%s %s: %v", r.Method, r.URL, err)
					}
				}
			}
		}
		clear(reqs)
	}
	pass(false)
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	pass(true)
	b.StopTimer()
}

// scenarioServer holds 20,000 entities of 1 KiB in 200 partitions, as
// bench/scenarios/point-read-1k.yaml seeds for bench/server-cpu.sh.
func scenarioServer(b *testing.B) *Server { return scenarioServerOf(b, 20_000) }

// scenarioServerOf holds n entities shaped as scenarioServer's, keyed
// scenarioKey(0) to scenarioKey(n-1).
func scenarioServerOf(b *testing.B, n int) *Server {
	b.Helper()
	s := newServer(b)
	s.store.Create("bench")
	t := s.store.Table("bench")
	for i := range n {
		pk, rk := scenarioKey(i)
		t.Put(store.NewEntity(pk, rk, []store.Prop{{Name: "Data", Raw: []byte(`"` + payload + `"`)},
			{Name: "Seq", Raw: []byte(`"` + strconv.Itoa(i) + `"`), Type: "Edm.Int64"}}, time.Now(), t.Names()))
	}
	runtime.GC()
	return s
}

// scenarioRK0 is the RowKey of scenarioServer's first entity (inverted
// ticks); the i-th entity's is scenarioRK0-i, in 19 digits.
const scenarioRK0 = 2516666111801029999

// scenarioKey is the i-th key of scenarioServer's entities.
func scenarioKey(i int) (string, string) {
	return fmt.Sprintf("dev-%03d", i%200), fmt.Sprintf("%019d", scenarioRK0-i)
}

// scenarioBody is the body of an insert of an entity shaped as the
// benchmark clients send them (a device, an event time, a sequence number,
// a version and 1 KiB of Data), with the keys and sequence number given.
func scenarioBody(pk, rk string, seq int) string {
	return fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q,"device":%q,"EventTime":"2025-01-01T00:00:19.897Z",`+
		`"EventTime@odata.type":"Edm.DateTime","Seq":"%d","Seq@odata.type":"Edm.Int64","Version":0,"Data":%q}`, pk, rk, pk, seq, payload)
}

// BenchmarkServePointRead is the handler answering a signed point read of
// one of 20,000 entities of 1 KiB (see serveBench for what the time
// includes): the embedded service's own share of a point read in
// bench/server-cpu.sh.
func BenchmarkServePointRead(b *testing.B) {
	s := scenarioServer(b)
	serveBench(b, s, func(i int) *http.Request {
		pk, rk := scenarioKey((i * 7919) % 20_000)
		r := signed(s, "GET", fmt.Sprintf("/bench(PartitionKey='%s',RowKey='%s')", pk, rk), "", nil)
		r.Header.Del("Prefer")
		return r
	}, http.StatusOK, nil)
}

// BenchmarkServeInsert is the handler answering a signed insert of an
// entity of 1 KiB into a table of 20,000, with the entity in the answer
// as Azure sends it by default (see serveBench for what the time
// includes): the embedded service's own share of an insert in
// bench/server-cpu.sh.
func BenchmarkServeInsert(b *testing.B) {
	s := scenarioServer(b)
	n := 0
	serveBench(b, s, func(int) *http.Request {
		n++
		pk, rk := scenarioKey(n)
		r := signed(s, "POST", "/bench", "", []byte(scenarioBody(pk, fmt.Sprintf("%s-%d", rk, n), n)))
		r.Header.Del("Prefer")
		return r
	}, http.StatusCreated, nil)
}
