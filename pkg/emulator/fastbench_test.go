package emulator

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
	"github.com/tablestress/tablestress/pkg/emulator/internal/httpfront"
)

// benchConn is a connection whose reads are b.N requests, made one at a
// time as the server asks for them (make appends the i-th to a buffer),
// and whose writes are counted and dropped: a server serves it as it
// serves a client's kept-alive connection, flushing one answer a request,
// without a socket.
type benchConn struct {
	make    func(dst []byte, i int) []byte
	n, next int
	buf     []byte
	pending []byte
	written int
	answers int // status lines seen, as "HTTP/1.1 " starting a write
	status  []byte
	addr    net.Addr
}

func (c *benchConn) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		if c.next == c.n {
			return 0, io.EOF
		}
		c.buf = c.make(c.buf[:0], c.next)
		c.pending = c.buf
		c.next++
	}
	k := copy(p, c.pending)
	c.pending = c.pending[k:]
	return k, nil
}

func (c *benchConn) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, c.status) {
		c.answers++
	}
	c.written += len(p)
	return len(p), nil
}

func (c *benchConn) Close() error                     { return nil }
func (c *benchConn) LocalAddr() net.Addr              { return c.addr }
func (c *benchConn) RemoteAddr() net.Addr             { return c.addr }
func (c *benchConn) SetDeadline(time.Time) error      { return nil }
func (c *benchConn) SetReadDeadline(time.Time) error  { return nil }
func (c *benchConn) SetWriteDeadline(time.Time) error { return nil }

// fastServeBench times the service's HTTP layer and handler together
// (fasthttp's parsing and writing, the bridge to the handler, the
// handler) serving b.N requests on one kept-alive connection, in one
// goroutine: what bench/server-cpu.sh's embedded service spends per
// operation but for the socket's system calls and the scheduler, and on a
// machine no client shares. The allocations it reports are the service's
// (making a request allocates nothing). Every answer must have the status
// want, seen at the start of a write of the connection.
func fastServeBench(b *testing.B, s *Server, want int, make func(dst []byte, i int) []byte) {
	b.Helper()
	srv := httpfront.NewServer(s, 0)
	c := &benchConn{make: make, n: b.N, addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000},
		status: fmt.Appendf(nil, "HTTP/1.1 %d ", want)}
	b.ReportAllocs()
	b.ResetTimer()
	if err := srv.ServeConn(c); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if c.answers != b.N {
		b.Fatalf("%d answers of status %d to %d requests", c.answers, want, b.N)
	}
	b.ReportMetric(float64(c.written)/float64(b.N), "B/answer")
}

// rawRequest is r as a client writes it, with r's body as the last
// len(body) bytes.
func rawRequest(b *testing.B, r *http.Request) []byte {
	b.Helper()
	r.Header.Set("User-Agent", "azsdk-go-aztables/v1.4.1 (go1.26; linux)")
	r.Header.Set("X-Ms-Version", "2019-02-02")
	r.Header.Set("Dataserviceversion", "3.0")
	r.Header.Set("X-Ms-Client-Request-Id", "5f4c3a1e-7d2b-4c8e-9a61-0b3d2e1f4a5c")
	r.Header.Set("Accept-Encoding", "gzip")
	var w bytes.Buffer
	if err := r.Write(&w); err != nil {
		b.Fatal(err)
	}
	return w.Bytes()
}

// insertTemplate is a signed insert of scenarioBody(pk, rk, 1) into
// scenarioServer's table as the Go SDK sends it (the entity in the
// answer), and where pk and rk are in it: a benchmark writes other keys of
// the same lengths in their place, the signature covering no body.
func insertTemplate(b *testing.B, s *Server, pk, rk string) (tmpl []byte, pkAt, rkAt int) {
	body := scenarioBody(pk, rk, 1)
	r := signed(s, "POST", "/bench", "", []byte(body))
	r.Header.Del("Prefer")
	tmpl = rawRequest(b, r)
	bodyAt := len(tmpl) - len(body)
	return tmpl, bodyAt + strings.Index(body, pk), bodyAt + strings.Index(body, rk)
}

// BenchmarkFastServeInsert is an insert of an entity of 1 KiB, as the
// Azure SDK for Go sends it (the entity in the answer), into the 20,000
// of scenarioServer, through the service's HTTP layer (see
// fastServeBench): the embedded service's share of an insert in
// bench/server-cpu.sh but for system calls. Each request's RowKey is new,
// of the same length, so one signed request is the template of all.
func BenchmarkFastServeInsert(b *testing.B) {
	s := scenarioServer(b)
	tmpl, _, rkAt := insertTemplate(b, s, "dev-000", fmt.Sprintf("%019d", scenarioRK0))
	fastServeBench(b, s, http.StatusCreated, func(dst []byte, i int) []byte {
		dst = append(dst, tmpl...)
		edm.AppendDigits(dst[rkAt:rkAt], scenarioRK0-(20_000+i), 19) // scenarioKey(20_000+i)'s RowKey
		return dst
	})
	if got := s.store.Table("bench").Len(); got != 20_000+b.N {
		b.Fatalf("the table holds %d entities, want %d", got, 20_000+b.N)
	}
}

// BenchmarkFastServeInsertIn1M is BenchmarkFastServeInsert into a table of
// a million entities of 1 KiB, each insert's keys those of a stored entity
// chosen at random with a suffix to its RowKey, as bench/bareclient makes
// them: every insert lands at a random place of the table, its B-tree
// search reads records the processor's caches do not hold, and the
// table's new records take memory the kernel must supply (internal/store/slab.go). The
// difference to BenchmarkFastServeInsert is what a large table costs an
// insert.
func BenchmarkFastServeInsertIn1M(b *testing.B) {
	s := scenarioServerOf(b, 1_000_000)
	tmpl, pkAt, rkAt := insertTemplate(b, s, "dev-000", fmt.Sprintf("%019d", scenarioRK0)+"-n-00000000")
	fastServeBench(b, s, http.StatusCreated, func(dst []byte, i int) []byte {
		dst = append(dst, tmpl...)
		j := (i * 7919) % 1_000_000
		edm.AppendDigits(dst[pkAt+len("dev-"):pkAt+len("dev-")], j%200, 3) // scenarioKey(j), then "-n-" and i
		edm.AppendDigits(dst[rkAt:rkAt], scenarioRK0-j, 19)
		edm.AppendDigits(dst[rkAt+19+len("-n-"):rkAt+19+len("-n-")], i, 8)
		return dst
	})
	if got := s.store.Table("bench").Len(); got != 1_000_000+b.N {
		b.Fatalf("the table holds %d entities, want %d", got, 1_000_000+b.N)
	}
}

// BenchmarkFastServePointRead is a point read of one of the 20,000
// entities of 1 KiB of scenarioServer through the service's HTTP layer
// (see fastServeBench): the embedded service's share of a point read in
// bench/server-cpu.sh but for system calls.
func BenchmarkFastServePointRead(b *testing.B) {
	s := scenarioServer(b)
	tmpls := make([][]byte, 1000)
	for i := range tmpls {
		pk, rk := scenarioKey((i * 7919) % 20_000)
		r := signed(s, "GET", fmt.Sprintf("/bench(PartitionKey='%s',RowKey='%s')", pk, rk), "", nil)
		r.Header.Del("Prefer")
		tmpls[i] = rawRequest(b, r)
	}
	fastServeBench(b, s, http.StatusOK, func(dst []byte, i int) []byte {
		return append(dst, tmpls[i%len(tmpls)]...)
	})
}
