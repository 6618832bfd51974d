package table

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// The benchmarks run the whole client path (aztables, azcore, net/http)
// against an httptest server that answers canned responses over loopback;
// the server's own cost is in the figures too.

func benchTable(b *testing.B, s *canned) *Table {
	b.Helper()
	return serve(b, s, 10*time.Second).Table("tbl1")
}

const benchEntity = `{"PartitionKey":"device-0042_2026-11-22","RowKey":"2517867199999999999","Temperature":21.5,"Humidity":40,"Site":"north-7","Payload":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}`

func BenchmarkInsert(b *testing.B) {
	tb := benchTable(b, &canned{status: 201, header: map[string]string{"ETag": `W/"datetime'2026-11-22T12%3A00%3A00.1234567Z'"`},
		body: `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#tbl1/@Element","odata.etag":"W/\"datetime'2026-11-22T12%3A00%3A00.1234567Z'\"",` + benchEntity[1:]})
	body, ctx := []byte(benchEntity), context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := tb.Insert(ctx, body); r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	tb := benchTable(b, &canned{status: 200, header: map[string]string{"ETag": `W/"datetime'2026-11-22T12%3A00%3A00.1234567Z'"`},
		body: `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#tbl1/@Element","odata.etag":"W/\"datetime'2026-11-22T12%3A00%3A00.1234567Z'\"","Timestamp":"2026-11-22T12:00:00.1234567Z",` + benchEntity[1:]})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := tb.Get(ctx, "device-0042_2026-11-22", "2517867199999999999", nil); r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

func BenchmarkGetSelect(b *testing.B) {
	tb := benchTable(b, &canned{status: 200,
		body: `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#tbl1","value":[{"odata.etag":"W/\"datetime'2026-11-22T12%3A00%3A00.1234567Z'\"","RowKey":"2517867199999999999"}]}`})
	ctx, sel := context.Background(), []string{"RowKey"}
	b.ReportAllocs()
	for b.Loop() {
		if r := tb.Get(ctx, "device-0042_2026-11-22", "2517867199999999999", sel); r.Err != nil || r.ETag == "" {
			b.Fatal(r.Err)
		}
	}
}

// BenchmarkThrottled is an insert answered 503 ServerBusy: the error path
// of a throttled run.
func BenchmarkThrottled(b *testing.B) {
	tb := benchTable(b, &canned{status: 503, code: "ServerBusy",
		body: odataError("ServerBusy", "The server is currently unable to receive requests. Please retry your request.")})
	body, ctx := []byte(benchEntity), context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := tb.Insert(ctx, body); r.Outcome.Key() != "503 ServerBusy" {
			b.Fatal(r.Err)
		}
	}
}

// BenchmarkSubmitFailed is a transaction of 2 inserts answered with
// Azurite's failed-transaction body, classified 409 at index 1.
func BenchmarkSubmitFailed(b *testing.B) {
	golden, contentType := goldenBatchFailure(b)
	tb := benchTable(b, &canned{status: 202, header: map[string]string{"Content-Type": contentType}, body: string(golden)})
	acts := []Action{{Kind: ActionInsert, Entity: []byte(benchEntity)}, {Kind: ActionInsert, Entity: entity("device-0042_2026-11-22", "x", 1)}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := tb.Submit(ctx, acts); r.FailedIndex != 1 {
			b.Fatal(r.Err)
		}
	}
}

// BenchmarkClassifyFailedTransaction is the classification alone.
func BenchmarkClassifyFailedTransaction(b *testing.B) {
	golden, _ := goldenBatchFailure(b)
	b.ReportAllocs()
	for b.Loop() {
		if o, _, idx := transactionOutcome(golden); idx != 1 || o.Status != 409 {
			b.Fatal(o)
		}
	}
}

func BenchmarkErrorDetail(b *testing.B) {
	body := []byte(odataError("ServerBusy", "The server is currently unable to receive requests. Please retry your request."))
	b.ReportAllocs()
	for b.Loop() {
		if code, _ := errorDetail(body); code != "ServerBusy" {
			b.Fatal(code)
		}
	}
}

func BenchmarkCheckEntity(b *testing.B) {
	body := []byte(benchEntity)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := checkEntity(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetSDKAlone is BenchmarkGet's request made with aztables alone
// (a pool sent on directly, no retries, no timeout, nothing recorded): the
// baseline Table.Get's own cost is judged against.
func BenchmarkGetSDKAlone(b *testing.B) {
	srv := httptest.NewServer(&canned{status: 200, header: map[string]string{"ETag": `W/"datetime'2026-11-22T12%3A00%3A00.1234567Z'"`},
		body: `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#tbl1/@Element","odata.etag":"W/\"datetime'2026-11-22T12%3A00%3A00.1234567Z'\"","Timestamp":"2026-11-22T12:00:00.1234567Z",` + benchEntity[1:]})
	b.Cleanup(srv.Close)
	tr := newHTTPTransport(4)
	b.Cleanup(tr.CloseIdleConnections)
	svc, err := aztables.NewServiceClientFromConnectionString("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="+DevKey+
		";TableEndpoint="+srv.URL+"/devstoreaccount1;", &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: bareTransport{tr}, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		b.Fatal(err)
	}
	c, ctx := svc.NewClient("tbl1"), context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetEntity(ctx, "device-0042_2026-11-22", "2517867199999999999", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// bareTransport sends on the pool directly, as bench/bareclient does.
type bareTransport struct{ *http.Transport }

func (t bareTransport) Do(req *http.Request) (*http.Response, error) { return t.RoundTrip(req) }
