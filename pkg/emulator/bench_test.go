package emulator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

var payload = strings.Repeat("x", 1000)

// populate loads n entities of about 1 KiB into 1,000 partitions directly.
func populate(s *Server, name string, n int) {
	s.store.Create(name)
	t := s.store.Table(name)
	for i := 0; i < n; i++ {
		props := []store.Prop{{Name: "Data", Raw: []byte(`"` + payload + `"`)}, {Name: "N", Raw: []byte(fmt.Sprint(i))}}
		t.Put(store.NewEntity(fmt.Sprintf("p%04d", i%1000), fmt.Sprintf("%010d", i), props, time.Now(), t.Names()))
	}
}

func benchServer(b *testing.B, n int) *Server {
	b.Helper()
	s := newServer(b)
	populate(s, "bench", n)
	runtime.GC() // do not bill the loop for collecting the population's garbage
	return s
}

// million is a 1,000,000-entity service shared by the read benchmarks
// (building it takes seconds; they do not change it).
var million struct {
	once   sync.Once
	s      *Server
	in     *Instance
	inproc *InProcess
}

func millionServer(b *testing.B) *Server {
	million.once.Do(func() { million.s = benchServer(b, 1_000_000) })
	runtime.GC()
	return million.s
}

// millionClient serves the shared 1,000,000-entity service on loopback, or
// in process, and returns an aztables client for its table.
func millionClient(b *testing.B, way reach) *aztables.Client {
	s := millionServer(b)
	if way.name == "in process" {
		if million.inproc == nil {
			million.inproc = inProcessOf(s) // serves until the test binary exits
		}
		p := million.inproc
		return azClient(b, &reached{Server: s, url: p.URL(), conn: p.ConnectionString(), rt: p}, DevKey).NewClient("bench")
	}
	if million.in == nil {
		in, err := serveOn("127.0.0.1:0", s)
		if err != nil {
			b.Fatal(err)
		}
		million.in = in // serves until the test binary exits
	}
	return azClient(b, socketReached(million.in), DevKey).NewClient("bench")
}

// benchReaches runs f as a sub-benchmark for each way of reaching the
// service.
func benchReaches(b *testing.B, f func(b *testing.B, way reach)) {
	for _, r := range reaches {
		b.Run(strings.ReplaceAll(r.name, " ", "-"), func(b *testing.B) { f(b, r) })
	}
}

// pointKey is the i-th key of a spread of reads over the million entities.
func pointKey(i int) (string, string) {
	k := (i * 7919) % 1_000_000
	return fmt.Sprintf("p%04d", k%1000), fmt.Sprintf("%010d", k)
}

// rangeKey is the i-th start of a 50-row range inside one partition (each
// holds 1,000 rows: RowKeys k, k+1000, ...).
func rangeKey(i int) (string, string) {
	k := (i * 7919) % 950_000
	return fmt.Sprintf("p%04d", k%1000), fmt.Sprintf("%010d", k)
}

// batchBody is a transaction body of n inserts of data into partition pk
// of a table.
func batchBody(account, table, pk string, n int, data string) []byte {
	var body bytes.Buffer
	body.WriteString("--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n")
	for j := 0; j < n; j++ {
		ent := fmt.Sprintf(`{"PartitionKey":"%s","RowKey":"%d","Data":"%s"}`, pk, j, data)
		fmt.Fprintf(&body, "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"+
			"POST http://127.0.0.1/%s/%s HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\nPrefer: return-no-content\r\n\r\n%s\r\n",
			account, table, len(ent), ent)
	}
	body.WriteString("--changeset_c--\r\n--batch_b--\r\n")
	return body.Bytes()
}

func BenchmarkInsert(b *testing.B) {
	s := benchServer(b, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		body := []byte(fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":%q}`, i%1000, i, payload))
		do(b, s, signed(s, "POST", "/bench", "", body), 204)
	}
}

func BenchmarkBatch100(b *testing.B) {
	s := benchServer(b, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		do(b, s, batchRequest(s, "multipart/mixed; boundary=batch_b", batchBody(s.account, "bench", fmt.Sprint("p", i), 100, payload)), 202)
	}
}

// BenchmarkMemoryPerEntity reports the memory held per stored entity, on
// the Go heap and in the tables' slabs together: for 200,000 entities of
// about 1 KiB (populate's), and of the 256-byte payload of
// bench/scenarios/seed-1m.yaml (seed256's), inserted through the service's
// own write path.
func BenchmarkMemoryPerEntity(b *testing.B) {
	for _, bb := range []struct {
		name string
		fill func(*Server, int)
	}{
		{"1KiB", func(s *Server, n int) { populate(s, "bench", n) }},
		{"256B", seed256},
	} {
		b.Run(bb.name, func(b *testing.B) {
			const n = 200_000
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				s := newServer(b)
				bb.fill(s, n)
				runtime.GC()
				runtime.ReadMemStats(&after)
				off := s.store.OffHeapBytes()
				b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)+int64(off))/n, "bytes/entity")
				b.ReportMetric(float64(off)/n, "off-heap-bytes/entity")
				runtime.KeepAlive(s)
			}
		})
	}
}

// seed256 inserts n entities shaped as tablestress seeds those of
// bench/scenarios/seed-1m.yaml (a device PartitionKey of 1,000, an
// inverted-ticks RowKey, the device, an event time, a sequence number, a
// version and 256 bytes of payload) into table "bench", through the
// service's parsing and storing of a request body.
func seed256(s *Server, n int) {
	s.store.Create("bench")
	t := s.store.Table("bench")
	data := strings.Repeat("p", 256)
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		dev := fmt.Sprintf("dev-%04d", i*7919%1000)
		body := fmt.Sprintf(`{"PartitionKey":%q,"RowKey":"%d","device":%q,"EventTime":%q,"EventTime@odata.type":"Edm.DateTime","Seq":"%d","Seq@odata.type":"Edm.Int64","Version":0,"Data":%q}`,
			dev, 2516666111999999999-int64(i)*10000, dev, at.Add(time.Duration(i)*time.Millisecond).Format(edm.TimeLayout), i, data)
		pk, rk, props, err := parseEntity([]byte(body))
		if err != nil {
			panic(err)
		}
		t.Put(store.NewEntity(pk, rk, props, s.store.Timestamp(), t.Names()))
	}
}

// BenchmarkPropertyFilterScan100k is the worst query: a filter on a
// property that no entity matches, which reads all 100,000 entities of
// the table.
func BenchmarkPropertyFilterScan100k(b *testing.B) {
	s := benchServer(b, 100_000)
	q := "$filter=" + url.QueryEscape("N eq -1")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		do(b, s, signed(s, "GET", "/bench()", q, nil), 200)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entity")
}

// The same operations through aztables over loopback TCP and in process:
// what the load generator pays per request, client and server together.

func BenchmarkAztablesInsert(b *testing.B) { benchReaches(b, benchmarkAztablesInsert) }

func benchmarkAztablesInsert(b *testing.B, way reach) {
	in := way.start(b, Config{Model: model.Off()})
	tc := azClient(b, in, DevKey).NewClient("bench")
	ctx := context.Background()
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := []byte(fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":%q}`, i%1000, i, payload))
		if _, err := tc.AddEntity(ctx, body, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAztablesBatch100(b *testing.B) { benchReaches(b, benchmarkAztablesBatch100) }

func benchmarkAztablesBatch100(b *testing.B, way reach) {
	in := way.start(b, Config{Model: model.Off()})
	tc := azClient(b, in, DevKey).NewClient("bench")
	ctx := context.Background()
	if _, err := tc.CreateTable(ctx, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		acts := make([]aztables.TransactionAction, 100)
		for j := range acts {
			acts[j] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd,
				Entity: []byte(fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":%q}`, i, j, payload))}
		}
		if _, err := tc.SubmitTransaction(ctx, acts, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The 1,000,000-entity benchmarks come last (benchmarks run in file
// order): their shared table stays in memory, and every later garbage
// collection would mark it.

// BenchmarkPointReadIn1M is the service's handler answering a signed
// point read of one of a million entities of about 1 KiB (see serveBench
// for what the time includes and excludes).
func BenchmarkPointReadIn1M(b *testing.B) {
	s := millionServer(b)
	serveBench(b, s, func(i int) *http.Request {
		pk, rk := pointKey(i)
		return signed(s, "GET", fmt.Sprintf("/bench(PartitionKey='%s',RowKey='%s')", pk, rk), "", nil)
	}, http.StatusOK, func(w *benchWriter) error {
		if w.n < len(payload) {
			return fmt.Errorf("a %d-byte entity for a %d-byte payload", w.n, len(payload))
		}
		return nil
	})
}

// BenchmarkRangeQuery50In1M is the service's handler answering a signed
// query for 50 rows of a partition (of 1,000) in a million-entity table:
// the first page of a longer range, with its continuation (see serveBench
// for what the time includes and excludes).
func BenchmarkRangeQuery50In1M(b *testing.B) {
	s := millionServer(b)
	serveBench(b, s, func(i int) *http.Request {
		pk, rk := rangeKey(i)
		f := url.QueryEscape(fmt.Sprintf("PartitionKey eq '%s' and RowKey ge '%s'", pk, rk))
		return signed(s, "GET", "/bench()", "$filter="+f+"&$top=50", nil)
	}, http.StatusOK, func(w *benchWriter) error {
		if w.h.Get("x-ms-continuation-NextRowKey") == "" {
			return errors.New("a 50-row page of a longer range has no continuation")
		}
		if w.n < 50*len(payload) {
			return fmt.Errorf("%d bytes for 50 entities of %d-byte payloads", w.n, len(payload))
		}
		return nil
	})
}

func BenchmarkAztablesPointReadIn1M(b *testing.B) { benchReaches(b, benchmarkAztablesPointReadIn1M) }

func benchmarkAztablesPointReadIn1M(b *testing.B, way reach) {
	pointReads(b, millionClient(b, way))
}

// pointReads times b.N point reads of the million entities with tc,
// reporting their CPU time too.
func pointReads(b *testing.B, tc *aztables.Client) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	defer cpuPerOp(b)()
	for i := 0; i < b.N; i++ {
		pk, rk := pointKey(i)
		if _, err := tc.GetEntity(ctx, pk, rk, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuPerOp starts measuring the process's CPU time (user and system, the
// client's and the service's) over a benchmark's loop; the function it
// returns reports it per operation, as cpu-ns/op. On a machine other work
// shares, the CPU an operation costs wobbles less than its wall time.
func cpuPerOp(b *testing.B) func() {
	start := processCPU()
	return func() { b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op") }
}

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkAztablesRangeQuery50In1M(b *testing.B) {
	benchReaches(b, benchmarkAztablesRangeQuery50In1M)
}

func benchmarkAztablesRangeQuery50In1M(b *testing.B, way reach) {
	tc := millionClient(b, way)
	ctx := context.Background()
	top := int32(50)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pk, rk := rangeKey(i)
		f := fmt.Sprintf("PartitionKey eq '%s' and RowKey ge '%s'", pk, rk)
		page, err := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &f, Top: &top}).NextPage(ctx)
		if err != nil || len(page.Entities) != 50 {
			b.Fatalf("%d entities, %v", len(page.Entities), err)
		}
	}
}

// BenchmarkRangeSeek50In1M is the storage part of the range query alone:
// the B-tree seek and a walk over 50 rows (no HTTP, no JSON).
func BenchmarkRangeSeek50In1M(b *testing.B) {
	tb := millionServer(b).store.Table("bench")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pk, rk := rangeKey(i)
		f, _ := filter.Parse(fmt.Sprintf("PartitionKey eq '%s' and RowKey ge '%s'", pk, rk))
		rg := filter.RangeOf(f)
		n := 0
		var start keys
		start.pk, start.rk = rg.Start()
		tb.RLock()
		_, more := scan(tb, start, rg, f, newPage(50), func(*store.Entity) { n++ })
		tb.RUnlock()
		if n != 50 || !more {
			b.Fatalf("%d rows", n)
		}
	}
}

// cannedTransport answers every request with one recorded answer: the SDK
// alone, with no service behind it.
type cannedTransport struct {
	status int
	header http.Header
	body   []byte
}

func (c *cannedTransport) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: c.status, Status: http.StatusText(c.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: c.header.Clone(), Body: io.NopCloser(bytes.NewReader(c.body)), ContentLength: int64(len(c.body)), Request: r}, nil
}

// BenchmarkSDKCannedPointRead is aztables' GetEntity answered by a canned
// transport with the service's own answer to it (recorded once): what the
// SDK costs alone, beside BenchmarkAztablesPointReadIn1M.
func BenchmarkSDKCannedPointRead(b *testing.B) {
	s := millionServer(b)
	p := inProcessOf(s)
	pk, rk := pointKey(0)
	rec := &recordingTransport{rt: p}
	cred, _ := aztables.NewSharedKeyCredential(DevAccount, DevKey)
	opts := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}, Transport: rec}}
	svc, _ := aztables.NewServiceClientWithSharedKey(p.URL(), cred, opts)
	if _, err := svc.NewClient("bench").GetEntity(context.Background(), pk, rk, nil); err != nil {
		b.Fatal(err)
	}
	opts.Transport = rec.canned
	svc, _ = aztables.NewServiceClientWithSharedKey(p.URL(), cred, opts)
	pointReads(b, svc.NewClient("bench"))
}

// recordingTransport passes requests to rt and keeps the last answer as a
// canned transport.
type recordingTransport struct {
	rt     http.RoundTripper
	canned *cannedTransport
}

func (t *recordingTransport) Do(r *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	t.canned = &cannedTransport{status: resp.StatusCode, header: resp.Header, body: body}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, err
}
