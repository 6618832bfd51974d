package emulator

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	client "github.com/tablestress/tablestress/pkg/table"
)

// accountSASURL is an account SAS URL for the instance signed by aztables:
// ss=t, srt=sco, the permissions perms, over http and https (aztables'
// GetAccountSASURL signs for https only, which this http service refuses
// as Azure would).
func accountSASURL(t *testing.T, in *reached, perms aztables.AccountSASPermissions) string {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(DevAccount, DevKey)
	if err != nil {
		t.Fatal(err)
	}
	qp, err := aztables.AccountSASSignatureValues{Protocol: aztables.SASProtocolHTTPSandHTTP, Permissions: perms.String(),
		Services: "t", ResourceTypes: aztables.AccountSASResourceTypes{Service: true, Container: true, Object: true}.String(),
		StartTime: time.Now().Add(-time.Minute).UTC(), ExpiryTime: time.Now().Add(time.Hour).UTC()}.Sign(cred)
	if err != nil {
		t.Fatal(err)
	}
	return in.url + "?" + qp.Encode()
}

// tablestress's own SAS targets, a SAS URL and a connection string with
// SharedAccessSignature, run every kind of request it sends against the
// embedded service, and a SAS without write permission is refused the
// way the client classifies refusals.
func TestSASTargetsEndToEnd(t *testing.T) { forEachReach(t, testSASTargetsEndToEnd) }

func testSASTargetsEndToEnd(t *testing.T, way reach) {
	in := way.start(t, Config{Model: model.Off()})
	all := accountSASURL(t, in, aztables.AccountSASPermissions{Read: true, Write: true, Delete: true, List: true, Add: true, Create: true, Update: true})
	u, _ := url.Parse(all)
	specs := map[string]string{
		"SAS URL":           all,
		"connection string": "TableEndpoint=" + in.url + ";SharedAccessSignature=" + u.RawQuery,
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			tg, err := client.ParseTarget(spec)
			if err != nil {
				t.Fatal(err)
			}
			if tg.Kind != client.KindSAS && tg.Kind != client.KindConnString {
				t.Fatalf("parsed as %s", tg.Kind)
			}
			svc, err := client.Open(tg, client.Options{Workers: 2, RoundTripper: in.rt})
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			ctx := context.Background()
			name := fmt.Sprintf("sastarget%d", time.Now().UnixNano()%1e9)
			key(t, "create table", svc.CreateTable(ctx, name), "201")
			if ok, r := svc.TableExists(ctx, name); !ok {
				t.Errorf("TableExists: %v", r.Err)
			}
			tb := svc.Table(name)
			key(t, "insert", tb.Insert(ctx, []byte(`{"PartitionKey":"p","RowKey":"1","V":1}`)), "201")
			key(t, "upsert", tb.Upsert(ctx, []byte(`{"PartitionKey":"p","RowKey":"2","V":2}`), client.UpdateModeMerge), "204")
			g := tb.Get(ctx, "p", "1", nil)
			key(t, "get", g, "200")
			key(t, "update", tb.Update(ctx, []byte(`{"PartitionKey":"p","RowKey":"1","V":3}`), client.UpdateModeReplace, g.ETag), "204")
			key(t, "batch", tb.Submit(ctx, []client.Action{
				{Kind: client.ActionInsert, Entity: []byte(`{"PartitionKey":"p","RowKey":"3"}`)},
				{Kind: client.ActionDelete, Entity: []byte(`{"PartitionKey":"p","RowKey":"2"}`)},
			}), "202")
			page, r, _ := tb.Query(ctx, client.Query{Filter: client.FilterPK("p")}).Next(ctx)
			var rks []string
			for _, e := range page.Entities {
				var m struct{ RowKey string }
				json.Unmarshal(e, &m)
				rks = append(rks, m.RowKey)
			}
			if r.Err != nil || strings.Join(rks, ",") != "1,3" {
				t.Errorf("query: %v %v, want 1,3", rks, r.Err)
			}
			key(t, "delete", tb.Delete(ctx, "p", "1", ""), "204")
			key(t, "delete table", svc.DeleteTable(ctx, name), "204")
		})
	}
	readOnly := accountSASURL(t, in, aztables.AccountSASPermissions{Read: true, List: true})
	tg, _ := client.ParseTarget(readOnly)
	svc, _ := client.Open(tg, client.Options{Workers: 1, RoundTripper: in.rt})
	defer svc.Close()
	key(t, "create table with a read-only SAS", svc.CreateTable(context.Background(), "readonlysas"), "403 AuthorizationPermissionMismatch")
}

// The development account's connection string is printable whole; any
// other account key never is.
func TestPrintableConnectionString(t *testing.T) {
	dev := startServer(t, Config{Model: model.Off()})
	if got := dev.PrintableConnectionString(); got != dev.ConnectionString() || !strings.Contains(got, "AccountKey="+DevKey+";") {
		t.Errorf("the development account: %q, want the whole connection string", got)
	}
	secret := "c2VjcmV0LWtleS1vZi1hbm90aGVyLWFjY291bnQ="
	other := startServer(t, Config{Key: secret, Model: model.Off()})
	if got := other.PrintableConnectionString(); strings.Contains(got, secret) || !strings.Contains(got, "AccountKey=<the account key>;") {
		t.Errorf("another key: %q", got)
	}
}
