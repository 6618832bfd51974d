package emulator

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/internal/testenv"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	client "github.com/tablestress/tablestress/pkg/table"
)

// target is one service the conformance suite runs against: its
// connection string, and the transport under the SDK (nil: the network).
type target struct {
	name     string
	conn     string
	rt       http.RoundTripper
	embedded bool
}

// targets returns the embedded service, reached each way (reaches: over
// its socket, in process), and Azurite (the one the test script started:
// TABLESTRESS_AZURITE), so the same sequences are checked against all.
// Without Azurite its target has no connection string, and its subtest
// skips (or fails in CI) saying so.
func targets(t *testing.T) []target {
	t.Helper()
	var out []target
	for _, r := range reaches {
		in := r.start(t, Config{Model: model.Off()})
		name := "embedded"
		if in.rt != nil {
			name = "embedded in process"
		}
		out = append(out, target{name: name, conn: in.conn, rt: in.rt, embedded: true})
	}
	return append(out, target{name: "azurite", conn: os.Getenv("TABLESTRESS_AZURITE")})
}

// sdkTransport is the transport aztables should use for tg.
func sdkTransport(o *azcore.ClientOptions, tg target) {
	if tg.rt != nil {
		o.Transport = transporter{tg.rt}
	}
}

func forEach(t *testing.T, f func(t *testing.T, tg target, svc *client.Service)) {
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			if tg.conn == "" {
				testenv.Azurite(t) // skips, or fails in CI: the comparison with Azurite is the point
			}
			p, err := client.ParseTarget(tg.conn)
			if err != nil {
				t.Fatal(err)
			}
			svc, err := client.Open(p, client.Options{Workers: 4, Timeout: 20 * time.Second, RoundTripper: tg.rt})
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			f(t, tg, svc)
		})
	}
}

var tableSeq int

func freshTable(t *testing.T, svc *client.Service) *client.Table {
	t.Helper()
	tableSeq++
	name := fmt.Sprintf("conf%d%d", time.Now().UnixNano()%1_000_000_000, tableSeq)
	if r := svc.CreateTable(context.Background(), name); r.Err != nil {
		t.Fatalf("create %s: %v", name, r.Err)
	}
	t.Cleanup(func() { svc.DeleteTable(context.Background(), name) })
	return svc.Table(name)
}

func key(t *testing.T, what string, r client.Result, want string) {
	t.Helper()
	if got := r.Outcome.Key(); got != want {
		t.Errorf("%s: %s (%v), want %s", what, got, r.Err, want)
	}
}

func TestConformanceTables(t *testing.T) {
	forEach(t, func(t *testing.T, tg target, svc *client.Service) {
		ctx := context.Background()
		name := fmt.Sprintf("conft%d", time.Now().UnixNano()%1_000_000_000)
		key(t, "create", svc.CreateTable(ctx, name), "201")
		key(t, "create again", svc.CreateTable(ctx, name), "409 TableAlreadyExists")
		if ok, _ := svc.TableExists(ctx, name); !ok {
			t.Error("TableExists is false after create")
		}
		key(t, "insert into missing table", svc.Table("nosuchtable42").Insert(ctx, []byte(`{"PartitionKey":"a","RowKey":"b"}`)), "404 TableNotFound")
		key(t, "delete", svc.DeleteTable(ctx, name), "204")
		key(t, "delete again", svc.DeleteTable(ctx, name), "404 ResourceNotFound")
		if ok, _ := svc.TableExists(ctx, name); ok {
			t.Error("TableExists is true after delete")
		}
		// Azure's codes; Azurite answers the same 400s without a code.
		for bad, code := range map[string]string{"ab": "OutOfRangeInput", "1abc": "InvalidResourceName"} {
			want := "400 " + code
			if tg.name == "azurite" {
				want = "400"
			}
			key(t, "create "+bad, svc.CreateTable(ctx, bad), want)
		}
	})
}

func TestConformanceEntities(t *testing.T) {
	forEach(t, func(t *testing.T, _ target, svc *client.Service) {
		ctx := context.Background()
		tb := freshTable(t, svc)
		body := []byte(`{"PartitionKey":"p 1","RowKey":"r'1","Name":"x","N":5,"Big":"9007199254740993","Big@odata.type":"Edm.Int64"}`)
		key(t, "insert", tb.Insert(ctx, body), "201")
		key(t, "insert duplicate", tb.Insert(ctx, body), "409 EntityAlreadyExists")
		g := tb.Get(ctx, "p 1", "r'1", nil)
		key(t, "get", g, "200")
		key(t, "get missing", tb.Get(ctx, "p 1", "nope", nil), "404 ResourceNotFound")
		key(t, "update with etag", tb.Update(ctx, []byte(`{"PartitionKey":"p 1","RowKey":"r'1","Name":"y"}`), client.UpdateModeReplace, g.ETag), "204")
		key(t, "update with stale etag", tb.Update(ctx, []byte(`{"PartitionKey":"p 1","RowKey":"r'1","Name":"z"}`), client.UpdateModeReplace, g.ETag), "412 UpdateConditionNotSatisfied")
		key(t, "merge missing", tb.Update(ctx, []byte(`{"PartitionKey":"p 1","RowKey":"zz","Name":"z"}`), client.UpdateModeMerge, ""), "404 ResourceNotFound")
		key(t, "upsert merge new", tb.Upsert(ctx, []byte(`{"PartitionKey":"p 1","RowKey":"m","A":1}`), client.UpdateModeMerge), "204")
		key(t, "upsert merge existing", tb.Upsert(ctx, []byte(`{"PartitionKey":"p 1","RowKey":"m","B":2}`), client.UpdateModeMerge), "204")
		props := entityProps(t, tb, "p 1", "m")
		if props["A"] != 1.0 || props["B"] != 2.0 {
			t.Errorf("merge kept %v, want A and B", props)
		}
		key(t, "upsert replace existing", tb.Upsert(ctx, []byte(`{"PartitionKey":"p 1","RowKey":"m","C":3}`), client.UpdateModeReplace), "204")
		props = entityProps(t, tb, "p 1", "m")
		if _, ok := props["A"]; ok || props["C"] != 3.0 {
			t.Errorf("replace left %v, want only C", props)
		}
		if p := entityProps(t, tb, "p 1", "r'1"); p["Name"] != "y" || p["N"] != nil {
			t.Errorf("replace by update left %v", p)
		}
		key(t, "delete", tb.Delete(ctx, "p 1", "m", ""), "204")
		key(t, "delete missing", tb.Delete(ctx, "p 1", "m", ""), "404 ResourceNotFound")
		key(t, "bad key", tb.Insert(ctx, []byte(`{"PartitionKey":"a/b","RowKey":"c"}`)), "400 InvalidInput")
	})
}

// entityProps reads an entity's user properties with a query.
func entityProps(t *testing.T, tb *client.Table, pk, rk string) map[string]any {
	t.Helper()
	page, res, _ := tb.Query(context.Background(), client.Query{Filter: client.FilterPoint(pk, rk)}).Next(context.Background())
	if res.Err != nil || len(page.Entities) != 1 {
		t.Fatalf("read %s/%s: %v (%d entities)", pk, rk, res.Err, len(page.Entities))
	}
	var m map[string]any
	json.Unmarshal(page.Entities[0], &m)
	for k := range m {
		if strings.HasPrefix(k, "odata.") || k == "PartitionKey" || k == "RowKey" || strings.HasPrefix(k, "Timestamp") {
			delete(m, k)
		}
	}
	return m
}

// rowKeys runs a filter and returns the RowKeys returned, in order.
func rowKeys(t *testing.T, tb *client.Table, q client.Query) []string {
	t.Helper()
	pager := tb.Query(context.Background(), q)
	var out []string
	for {
		page, res, more := pager.Next(context.Background())
		if res.Err != nil {
			t.Fatalf("query %q: %v", q.Filter, res.Err)
		}
		for _, e := range page.Entities {
			var m struct{ RowKey string }
			json.Unmarshal(e, &m)
			out = append(out, m.RowKey)
		}
		if !more {
			return out
		}
	}
}

func TestConformanceFilters(t *testing.T) {
	forEach(t, func(t *testing.T, _ target, svc *client.Service) {
		ctx := context.Background()
		tb := freshTable(t, svc)
		for i := 0; i < 10; i++ {
			body := fmt.Sprintf(`{"PartitionKey":"p%d","RowKey":"r%d","I":%d,"L":"%d","L@odata.type":"Edm.Int64","D":%d.5,"B":%v,"T":"2025-01-1%dT00:00:00Z","T@odata.type":"Edm.DateTime","G":"0000000%d-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid","S":"s%d"}`,
				i%3, i, i, i*1000000000000, i, i%2 == 0, i, i, i)
			key(t, "insert", tb.Insert(ctx, []byte(body)), "201")
		}
		tests := []struct {
			filter string
			want   string
		}{
			{"I eq 3", "r3"},
			{"I ne 3 and I lt 3", "r0 r1 r2"},
			{"I gt 7", "r8 r9"},
			{"I ge 7 and I le 8", "r7 r8"},
			{"L ge 5000000000000L", "r5 r6 r7 r8 r9"},
			{"D lt 2.0", "r0 r1"},
			{"B eq true and I lt 5", "r0 r2 r4"},
			{"T gt datetime'2025-01-17T00:00:00Z'", "r8 r9"},
			{"G eq guid'00000004-0000-4000-8000-000000000000'", "r4"},
			{"S eq 's1' or S eq 's2'", "r1 r2"},
			{"not (I lt 8)", "r8 r9"},
			{"(I eq 1 or I eq 2) and B eq false", "r1"},
			{"PartitionKey eq 'p1'", "r1 r4 r7"},
			{"PartitionKey eq 'p2' and RowKey ge 'r5'", "r5 r8"},
			{"PartitionKey ge 'p1' and PartitionKey lt 'p2'", "r1 r4 r7"},
			{"Missing eq 1", ""},
		}
		for _, tt := range tests {
			got := rowKeys(t, tb, client.Query{Filter: tt.filter})
			sort.Strings(got)
			if strings.Join(got, " ") != tt.want {
				t.Errorf("%s: got %v, want %s", tt.filter, got, tt.want)
			}
		}
		// Projection returns the selected properties only.
		page, _, _ := tb.Query(ctx, client.Query{Filter: "RowKey eq 'r3'", Select: []string{"I", "S"}}).Next(ctx)
		var m map[string]any
		json.Unmarshal(page.Entities[0], &m)
		if m["I"] != 3.0 || m["S"] != "s3" || m["D"] != nil || m["G"] != nil {
			t.Errorf("projection returned %v", m)
		}
	})
}

func TestConformancePagingAndTop(t *testing.T) {
	forEach(t, func(t *testing.T, _ target, svc *client.Service) {
		ctx := context.Background()
		tb := freshTable(t, svc)
		for b := 0; b < 25; b++ {
			acts := make([]client.Action, 100)
			for i := range acts {
				acts[i] = client.Action{Kind: client.ActionInsert, Entity: []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%05d"}`, b*100+i))}
			}
			key(t, "batch", tb.Submit(ctx, acts), "202")
		}
		pager := tb.Query(ctx, client.Query{})
		var sizes []int
		for {
			page, res, more := pager.Next(ctx)
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			sizes = append(sizes, len(page.Entities))
			if !more {
				break
			}
		}
		if fmt.Sprint(sizes) != "[1000 1000 500]" {
			t.Errorf("pages %v, want [1000 1000 500]", sizes)
		}
		got := rowKeys(t, tb, client.Query{Filter: "RowKey ge '01234'", Top: 7})
		if len(got) != 1266 || got[0] != "01234" {
			t.Errorf("top 7 paged through %d entities starting %v", len(got), got[:1])
		}
		page, _, more := tb.Query(ctx, client.Query{Top: 7}).Next(ctx)
		if len(page.Entities) != 7 || !more {
			t.Errorf("$top 7: %d entities, more=%v", len(page.Entities), more)
		}
	})
}

func TestConformanceBatches(t *testing.T) {
	forEach(t, func(t *testing.T, tg target, svc *client.Service) {
		ctx := context.Background()
		tb := freshTable(t, svc)
		ent := func(pk, rk string) []byte {
			return []byte(fmt.Sprintf(`{"PartitionKey":%q,"RowKey":%q,"V":1}`, pk, rk))
		}
		key(t, "seed", tb.Insert(ctx, ent("p", "existing")), "201")
		key(t, "seed", tb.Insert(ctx, ent("p", "a2")), "201")
		key(t, "mixed actions", tb.Submit(ctx, []client.Action{
			{Kind: client.ActionInsert, Entity: ent("p", "a")},
			{Kind: client.ActionUpsertReplace, Entity: ent("p", "b")},
			{Kind: client.ActionUpsertMerge, Entity: ent("p", "existing")},
			{Kind: client.ActionUpdateMerge, Entity: ent("p", "a2")},
		}), "202")
		r := tb.Submit(ctx, []client.Action{
			{Kind: client.ActionInsert, Entity: ent("p", "c")},
			{Kind: client.ActionInsert, Entity: ent("p", "a")}, // exists: the whole transaction fails
		})
		if r.Outcome.Key() != "409 EntityAlreadyExists" || r.FailedIndex != 1 {
			t.Errorf("failing transaction: %s index %d", r.Outcome.Key(), r.FailedIndex)
		}
		key(t, "nothing of a failed transaction is written", tb.Get(ctx, "p", "c", nil), "404 ResourceNotFound")
		r = tb.Submit(ctx, []client.Action{{Kind: client.ActionDelete, Entity: ent("p", "a")}, {Kind: client.ActionDelete, Entity: ent("p", "zzz")}})
		if r.Outcome.Key() != "404 ResourceNotFound" || r.FailedIndex != 1 {
			t.Errorf("delete of a missing entity: %s index %d", r.Outcome.Key(), r.FailedIndex)
		}
		key(t, "a is still there", tb.Get(ctx, "p", "a", nil), "200")
		r = tb.Submit(ctx, []client.Action{{Kind: client.ActionInsert, Entity: ent("p", "d")}, {Kind: client.ActionUpsertMerge, Entity: ent("p", "d")}})
		if r.Outcome.Status != 400 {
			t.Errorf("the same entity twice: %s, want a 400", r.Outcome.Key())
		} else if tg.embedded && r.Outcome.Code != "InvalidDuplicateRow" {
			t.Errorf("the same entity twice: %s, want InvalidDuplicateRow", r.Outcome.Key())
		}
		r = tb.Submit(ctx, []client.Action{{Kind: client.ActionInsert, Entity: ent("p", "e")}, {Kind: client.ActionInsert, Entity: ent("q", "e")}})
		if tg.name == "azurite" {
			// Azurite accepts transactions over several partitions; Azure refuses them.
			if r.Outcome.Key() != "202" {
				t.Logf("Azurite now refuses mixed partitions: %s", r.Outcome.Key())
			}
		} else if r.Outcome.Key() != "400 CommandsInBatchActOnDifferentPartitions" || r.FailedIndex != 1 {
			t.Errorf("mixed partitions: %s index %d", r.Outcome.Key(), r.FailedIndex)
		}
	})
}

// 101 operations go through aztables directly: pkg/table refuses them
// before sending. Azure answers 202 with a 400 InvalidInput for the 100th
// operation inside (index 99; Azurite writes 0, and frames the answer so
// that aztables cannot parse it).
func TestConformanceTooManyOperations(t *testing.T) {
	forEach(t, func(t *testing.T, tg target, svc *client.Service) {
		tb := freshTable(t, svc)
		cred, _ := aztables.NewSharedKeyCredential(DevAccount, DevKey)
		p, _ := client.ParseTarget(tg.conn)
		o := azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}
		sdkTransport(&o, tg)
		azc, err := aztables.NewServiceClientWithSharedKey(p.Endpoint, cred, &aztables.ClientOptions{ClientOptions: o})
		if err != nil {
			t.Fatal(err)
		}
		acts := make([]aztables.TransactionAction, 101)
		for i := range acts {
			acts[i] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%03d"}`, i))}
		}
		_, err = azc.NewClient(tb.Name()).SubmitTransaction(context.Background(), acts, nil)
		if err == nil {
			t.Fatal("101 operations were accepted")
		}
		var re *azcore.ResponseError
		switch {
		case tg.name == "azurite":
			// Azurite answers a changeset response aztables cannot parse
			// (a plain error, not a ResponseError); Azure answers 202 with
			// the 100th operation refused.
			t.Logf("Azurite: %v", err)
		case !asResponseError(err, &re) || re.StatusCode != 202:
			t.Errorf("101 operations: %v, want a ResponseError with status 202", err)
		default:
			b, _ := runtime.Payload(re.RawResponse)
			status, code, msg := innerError(t, string(b))
			if status != "400 Bad Request" || code != "InvalidInput" || !strings.HasPrefix(msg, "99:The batch request operation exceeds the maximum 100 changes per change set.") {
				t.Errorf("101 operations: %s %s %q", status, code, msg)
			}
		}
		if page, _, _ := tb.Query(context.Background(), client.Query{}).Next(context.Background()); len(page.Entities) != 0 {
			t.Errorf("%d entities written by a refused transaction", len(page.Entities))
		}
	})
}

func TestConformanceWrongKey(t *testing.T) {
	for _, tg := range targets(t) {
		if tg.conn == "" {
			t.Run(tg.name, func(t *testing.T) { testenv.Azurite(t) })
			continue
		}
		p, _ := client.ParseTarget(tg.conn)
		bad, err := client.ParseTarget("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=d3Jvbmcta2V5LXdyb25nLWtleQ==;TableEndpoint=" + p.Endpoint)
		if err != nil {
			t.Fatal(err)
		}
		svc, _ := client.Open(bad, client.Options{Workers: 1, RoundTripper: tg.rt})
		r := svc.CreateTable(context.Background(), "wrongkeytable")
		want := "403 AuthenticationFailed" // Azure's code; Azurite says AuthorizationFailure
		if tg.name == "azurite" {
			want = "403 AuthorizationFailure"
		}
		if r.Outcome.Key() != want {
			t.Errorf("%s: a wrong key got %s, want %s", tg.name, r.Outcome.Key(), want)
		}
		svc.Close()
	}
}
