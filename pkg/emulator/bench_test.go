package emulator

import (
	"bytes"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

var payload = strings.Repeat("x", 1000)

// populate loads n entities of about 1 KiB into 1,000 partitions directly.
func populate(s *Server, name string, n int) {
	s.store.create(name)
	t := s.store.table(name)
	for i := 0; i < n; i++ {
		props := fragment([]prop{{name: "Data", raw: []byte(`"` + payload + `"`)}, {name: "N", raw: []byte(fmt.Sprint(i))}})
		t.tree.ReplaceOrInsert(&entity{pk: fmt.Sprintf("p%04d", i%1000), rk: fmt.Sprintf("%010d", i), props: props, ts: time.Now()})
	}
}

func benchServer(b *testing.B, n int) *Server {
	s, _ := New(Config{Model: model.Off()})
	populate(s, "bench", n)
	runtime.GC() // do not bill the loop for collecting the population's garbage
	return s
}

func BenchmarkInsert(b *testing.B) {
	s := benchServer(b, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		body := []byte(fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":%q}`, i%1000, i, payload))
		do(b, s, signed(s, "POST", "/bench", "", body), 204)
	}
}

func BenchmarkPointReadIn1M(b *testing.B) {
	s := benchServer(b, 1_000_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := (i * 7919) % 1_000_000
		do(b, s, signed(s, "GET", fmt.Sprintf("/bench(PartitionKey='p%04d',RowKey='%010d')", k%1000, k), "", nil), 200)
	}
}

func BenchmarkRangeQuery50In1M(b *testing.B) {
	s := benchServer(b, 1_000_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := (i * 7919) % 1_000_000
		f := url.QueryEscape(fmt.Sprintf("PartitionKey eq 'p%04d' and RowKey ge '%010d'", k%1000, k))
		do(b, s, signed(s, "GET", "/bench()", "$filter="+f+"&$top=50", nil), 200)
	}
}

func BenchmarkBatch100(b *testing.B) {
	s := benchServer(b, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var body bytes.Buffer
		body.WriteString("--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n")
		for j := 0; j < 100; j++ {
			ent := fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"%d","Data":"%s"}`, i, j, payload)
			fmt.Fprintf(&body, "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"+
				"POST http://127.0.0.1/%s/bench HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\nPrefer: return-no-content\r\n\r\n%s\r\n",
				s.account, len(ent), ent)
		}
		body.WriteString("--changeset_c--\r\n--batch_b--\r\n")
		r := signed(s, "POST", "/$batch", "", body.Bytes())
		r.Header.Set("Content-Type", "multipart/mixed; boundary=batch_b")
		do(b, s, r, 202)
	}
}

// BenchmarkMemoryPerEntity reports the heap held per stored 1 KiB entity.
func BenchmarkMemoryPerEntity(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := benchServer(b, 200_000)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/200_000, "bytes/entity")
		runtime.KeepAlive(s)
	}
}
