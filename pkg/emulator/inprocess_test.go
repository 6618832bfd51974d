package emulator

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
	client "github.com/tablestress/tablestress/pkg/table"
)

// A request whose connection the service drops fails in process as it
// does over a socket: a transport outcome with the same error (io.EOF,
// net/http's error for a connection closed before any answer), counted as
// dropped by the service.
func TestDropAsSocket(t *testing.T) {
	var want string
	for _, way := range reaches {
		in := way.start(t, Config{Model: model.Off()})
		svc := openClient(t, in)
		ctx := context.Background()
		svc.CreateTable(ctx, "dropped")
		tb := svc.Table("dropped")
		tb.Insert(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`))
		in.SetFaults(faults.Config{Drop: 1})
		var got []string
		for _, r := range []client.Result{tb.Get(ctx, "p", "r", nil), tb.Insert(ctx, []byte(`{"PartitionKey":"p","RowKey":"s"}`)),
			tb.Submit(ctx, []client.Action{{Kind: client.ActionInsert, Entity: []byte(`{"PartitionKey":"p","RowKey":"t"}`)}})} {
			if r.Outcome.Class != outcome.Transport {
				t.Errorf("%s: a dropped request is %s (%v), want transport", way.name, r.Outcome.Key(), r.Err)
			}
			got = append(got, fmt.Sprint(r.Err))
		}
		if p := in.Stats().Tables["dropped"].Partitions["p"]; p.Dropped != 3 {
			t.Errorf("%s: %d dropped, want 3", way.name, p.Dropped)
		}
		if rows, _ := in.Rows("dropped"); rows != 1 {
			t.Errorf("%s: %d rows after dropped writes, want 1", way.name, rows)
		}
		if s := fmt.Sprint(got); want == "" {
			want = s
		} else if s != want {
			t.Errorf("%s: %s, want (%s) %s", way.name, s, reaches[0].name, want)
		}
	}
}

// A client that gives up before an answer held by injected latency gets
// its timeout at once, in process as over a socket, while the service
// goes on: it stores the write and counts the request as answered once
// the latency has passed, both ways.
func TestTimeoutAsSocket(t *testing.T) {
	for _, way := range reaches {
		in := way.start(t, Config{Model: model.Off()})
		tg, err := client.ParseTarget(in.conn)
		if err != nil {
			t.Fatal(err)
		}
		svc, err := client.Open(tg, client.Options{Workers: 1, Timeout: 50 * time.Millisecond, RoundTripper: in.rt})
		if err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		ctx := context.Background()
		svc.CreateTable(ctx, "slow")
		in.SetFaults(faults.Config{Latency: []faults.Latency{{Min: 400 * time.Millisecond, Share: 1}}})
		r := svc.Table("slow").Insert(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`))
		if r.Outcome.Class != outcome.Timeout {
			t.Errorf("%s: %s (%v), want a timeout", way.name, r.Outcome.Key(), r.Err)
		}
		if n := requests(in.Server, "slow")["p"]; len(n) != 0 {
			t.Errorf("%s: counted %v while the answer is held", way.name, n)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(requests(in.Server, "slow")["p"]) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got, want := requests(in.Server, "slow")["p"], map[string]int64{"201": 1}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: counted %v, want %v", way.name, got, want)
		}
		if rows, _ := in.Rows("slow"); rows != 1 {
			t.Errorf("%s: %d rows, want the write stored", way.name, rows)
		}
	}
}

// In process on a fake clock, an answer leaves exactly at its modelled
// time: the injected latency plus the model's service time, which the
// service holds whether the request is served on its client's goroutine
// or, because it may wait, on one of its own.
func TestInProcessServiceTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mc, err := model.Parse("azure,read=5ms,write=10ms,entity=0s,kib=0s,queue=0")
		if err != nil {
			t.Fatal(err)
		}
		p, err := StartInProcess(Config{Model: mc, Faults: faults.Config{Latency: []faults.Latency{{Min: 40 * time.Millisecond, Share: 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.Background())
		svc := openClient(t, &reached{Server: p.Server, conn: p.ConnectionString(), rt: p})
		ctx := context.Background()
		p.SetMeasured(false)
		svc.CreateTable(ctx, "timed")
		p.SetMeasured(true)
		start := time.Now()
		if r := svc.Table("timed").Insert(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`)); r.Err != nil {
			t.Fatal(r.Err)
		}
		if d := time.Since(start); d != 50*time.Millisecond {
			t.Errorf("the insert took %v, want 40ms injected + 10ms written", d)
		}
		start = time.Now()
		if r := svc.Table("timed").Get(ctx, "p", "r", nil); r.Err != nil {
			t.Fatal(r.Err)
		}
		if d := time.Since(start); d != 45*time.Millisecond {
			t.Errorf("the read took %v, want 40ms injected + 5ms read", d)
		}
	})
}
