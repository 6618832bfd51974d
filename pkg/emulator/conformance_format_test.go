package emulator

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	client "github.com/tablestress/tablestress/pkg/table"
)

// rawClient is an aztables client for a conformance target's table,
// sending every request once.
func rawClient(t *testing.T, tg target, table string) *aztables.Client {
	t.Helper()
	p, err := client.ParseTarget(tg.conn)
	if err != nil {
		t.Fatal(err)
	}
	cred, _ := aztables.NewSharedKeyCredential(DevAccount, DevKey)
	o := azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}
	sdkTransport(&o, tg)
	svc, err := aztables.NewServiceClientWithSharedKey(p.Endpoint, cred, &aztables.ClientOptions{ClientOptions: o})
	if err != nil {
		t.Fatal(err)
	}
	return svc.NewClient(table)
}

// members returns the sorted member names of a JSON object.
func members(t *testing.T, raw []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// typed is an entity with a property of every Edm type.
const typed = `{"PartitionKey":"p","RowKey":"r","S":"s","I":7,"D":2.5,"B":true,` +
	`"L":"9007199254740993","L@odata.type":"Edm.Int64",` +
	`"T":"2025-01-15T12:00:00Z","T@odata.type":"Edm.DateTime",` +
	`"G":"0000000a-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid",` +
	`"X":"Af8=","X@odata.type":"Edm.Binary"}`

func TestConformanceMetadataLevels(t *testing.T) {
	const props = "B D G I L PartitionKey RowKey S T Timestamp X"
	const annotations = "G@odata.type L@odata.type T@odata.type X@odata.type"
	tests := []struct {
		format aztables.MetadataFormat
		want   string // member names besides the properties
	}{
		{aztables.MetadataFormatNone, ""},
		{aztables.MetadataFormatMinimal, annotations + " odata.etag"},
		{aztables.MetadataFormatFull, annotations + " Timestamp@odata.type odata.editLink odata.etag odata.id odata.type"},
	}
	forEach(t, func(t *testing.T, tg target, svc *client.Service) {
		tb := freshTable(t, svc)
		key(t, "insert", tb.Insert(context.Background(), []byte(typed)), "201")
		tc := rawClient(t, tg, tb.Name())
		for _, tt := range tests {
			f := tt.format
			page, err := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Format: &f}).NextPage(context.Background())
			if err != nil || len(page.Entities) != 1 {
				t.Fatalf("%s: %v (%d entities)", f, err, len(page.Entities))
			}
			want := strings.Fields(props + " " + tt.want)
			sort.Strings(want)
			if got := members(t, page.Entities[0]); got != strings.Join(want, " ") {
				t.Errorf("%s: members %s\nwant %s", f, got, strings.Join(want, " "))
			}
			var m map[string]any
			json.Unmarshal(page.Entities[0], &m)
			if m["L"] != "9007199254740993" || m["I"] != 7.0 || m["D"] != 2.5 || m["B"] != true || m["X"] != "Af8=" {
				t.Errorf("%s: values %v", f, m)
			}
		}
	})
}

// The answer to a failed transaction, as aztables hands it over: a
// ResponseError with status 202 whose body holds the failing operation.
func TestConformanceFailedTransactionFormat(t *testing.T) {
	forEach(t, func(t *testing.T, tg target, svc *client.Service) {
		tb := freshTable(t, svc)
		key(t, "seed", tb.Insert(context.Background(), []byte(`{"PartitionKey":"p","RowKey":"b"}`)), "201")
		acts := []aztables.TransactionAction{
			{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"a"}`)},
			{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"b"}`)},
		}
		_, err := rawClient(t, tg, tb.Name()).SubmitTransaction(context.Background(), acts, nil)
		var re *azcore.ResponseError
		if !asResponseError(err, &re) {
			t.Fatalf("a failed transaction: %v, want a ResponseError", err)
		}
		if re.StatusCode != http.StatusAccepted || re.ErrorCode != "" {
			t.Errorf("status %d code %q, want 202 and no code", re.StatusCode, re.ErrorCode)
		}
		if ct := re.RawResponse.Header.Get("Content-Type"); !strings.HasPrefix(ct, "multipart/mixed; boundary=batchresponse_") {
			t.Errorf("Content-Type %q", ct)
		}
		b, _ := runtime.Payload(re.RawResponse)
		body := string(b)
		if n := strings.Count(body, "HTTP/1.1 "); n != 1 || !strings.Contains(body, "HTTP/1.1 409 Conflict\r\n") {
			t.Errorf("%d inner answers, want one 409 Conflict:\n%s", n, body)
		}
		if !strings.Contains(body, "\r\nContent-Type: multipart/mixed; boundary=changesetresponse_") {
			t.Errorf("no changeset response:\n%s", body)
		}
		status, code, msg := innerError(t, body)
		if status != "409 Conflict" || code != "EntityAlreadyExists" || !strings.HasPrefix(msg, "1:The specified entity already exists.") {
			t.Errorf("inner error %s %s %q", status, code, msg)
		}
		if page, _, _ := tb.Query(context.Background(), client.Query{}).Next(context.Background()); len(page.Entities) != 1 {
			t.Errorf("%d entities after the failed transaction, want 1", len(page.Entities))
		}
	})
}

func TestConformanceMoreFilters(t *testing.T) {
	forEach(t, func(t *testing.T, _ target, svc *client.Service) {
		tb := freshTable(t, svc)
		for i := 0; i < 4; i++ {
			body := fmt.Sprintf(`{"PartitionKey":"p","RowKey":"r%d","X":"%s","X@odata.type":"Edm.Binary","D":%d.25,"Q":"it's %d"}`,
				i, []string{"AA==", "AQ==", "Af8=", "/w=="}[i], i, i)
			key(t, "insert", tb.Insert(context.Background(), []byte(body)), "201")
		}
		tests := []struct {
			filter string
			want   string
		}{
			{"X eq X'01ff'", "r2"},                                 // binary literal
			{"X eq binary'00'", "r0"},                              // binary'..' form
			{"D gt 1.5 and D lt 3.0", "r2"},                        // doubles
			{"Q eq 'it''s 3'", "r3"},                               // doubled quote
			{"RowKey gt 'r1' and RowKey lt 'r3'", "r2"},            // strict bounds
			{"PartitionKey eq 'p' and RowKey gt 'r2'", "r3"},       // strict lower bound of a seek
			{"PartitionKey eq 'p' and not (RowKey ne 'r0')", "r0"}, // not ne
		}
		for _, tt := range tests {
			if got := strings.Join(rowKeys(t, tb, client.Query{Filter: tt.filter}), " "); got != tt.want {
				t.Errorf("%s: %q, want %q", tt.filter, got, tt.want)
			}
		}
	})
}
