package emulator

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// A service with a Location keeps, over a restart on it, every table and
// entity the Go SDK wrote (their ETags and Timestamps as answered, also
// after updates, merges, deletes and a transaction), a table's stored
// access policies and the service properties; a table deleted stays
// deleted.
func TestLocationSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	in, err := Start("127.0.0.1:0", Config{Model: model.Off(), Location: dir})
	if err != nil {
		t.Fatal(err)
	}
	svc := azClient(t, socketReached(in), DevKey)
	for _, name := range []string{"Kept", "Gone"} {
		if _, err := svc.CreateTable(ctx, name, nil); err != nil {
			t.Fatal(err)
		}
	}
	tc := svc.NewClient("Kept")
	etags := map[string]azcore.ETag{}
	for i, rk := range []string{"a", "b", "c", "d"} {
		body, _ := json.Marshal(map[string]any{"PartitionKey": "p", "RowKey": rk, "N": i, "S": strings.Repeat(rk, 10)})
		r, err := tc.AddEntity(ctx, body, nil)
		if err != nil {
			t.Fatal(err)
		}
		etags[rk] = r.ETag
	}
	var u aztables.UpdateEntityResponse
	upd, _ := json.Marshal(map[string]any{"PartitionKey": "p", "RowKey": "b", "New": true})
	u, err = tc.UpdateEntity(ctx, upd, &aztables.UpdateEntityOptions{IfMatch: to.Ptr(etags["b"]), UpdateMode: aztables.UpdateModeMerge})
	if err != nil {
		t.Fatal(err)
	}
	etags["b"] = u.ETag
	if _, err := tc.DeleteEntity(ctx, "p", "c", nil); err != nil {
		t.Fatal(err)
	}
	delete(etags, "c")
	txn := []aztables.TransactionAction{}
	for _, rk := range []string{"t1", "t2"} {
		body, _ := json.Marshal(map[string]any{"PartitionKey": "p", "RowKey": rk})
		txn = append(txn, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: body})
	}
	if _, err := tc.SubmitTransaction(ctx, txn, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.SetAccessPolicy(ctx, &aztables.SetAccessPolicyOptions{TableACL: []*aztables.SignedIdentifier{
		{ID: to.Ptr("policy1"), AccessPolicy: &aztables.AccessPolicy{Permission: to.Ptr("r")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetProperties(ctx, aztables.ServiceProperties{Cors: []*aztables.CorsRule{{AllowedOrigins: to.Ptr("https://example.org"),
		AllowedMethods: to.Ptr("GET"), AllowedHeaders: to.Ptr("*"), ExposedHeaders: to.Ptr("*"), MaxAgeInSeconds: to.Ptr(int32(60))}}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.DeleteTable(ctx, "Gone", nil); err != nil {
		t.Fatal(err)
	}
	before := listAll(t, tc)
	if err := in.Close(ctx); err != nil {
		t.Fatal(err)
	}

	in2 := startServer(t, Config{Model: model.Off(), Location: dir})
	if rec := in2.Recovered(); rec.Tables != 1 || rec.Entities != 5 || rec.Dropped != 0 {
		t.Errorf("recovered %+v, want 1 table of 5 entities", rec)
	}
	svc2 := azClient(t, socketReached(in2), DevKey)
	tc2 := svc2.NewClient("Kept")
	if after := listAll(t, tc2); after != before {
		t.Errorf("entities after the restart:\n%s\nbefore:\n%s", after, before)
	}
	for rk, etag := range etags {
		r, err := tc2.GetEntity(ctx, "p", rk, nil)
		if err != nil || r.ETag != etag {
			t.Errorf("%s: ETag %q (%v), want %q as answered before the restart", rk, r.ETag, err, etag)
		}
	}
	if _, err := svc2.NewClient("Gone").GetEntity(ctx, "p", "a", nil); !isStatus(err, http.StatusNotFound) {
		t.Errorf("the deleted table answered %v", err)
	}
	acl, err := tc2.GetAccessPolicy(ctx, nil)
	if err != nil || len(acl.SignedIdentifiers) != 1 || *acl.SignedIdentifiers[0].ID != "policy1" {
		t.Errorf("stored access policies after the restart: %+v %v", acl, err)
	}
	props, err := svc2.GetProperties(ctx, nil)
	if err != nil || len(props.Cors) != 1 || *props.Cors[0].AllowedOrigins != "https://example.org" {
		t.Errorf("service properties after the restart: %+v %v", props, err)
	}
}

// listAll returns a table's entities as the minimal-metadata JSON the SDK
// reads, one a line.
func listAll(t *testing.T, tc *aztables.Client) string {
	t.Helper()
	var b strings.Builder
	p := tc.NewListEntitiesPager(nil)
	for p.More() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entities {
			b.Write(e)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func isStatus(err error, status int) bool {
	var re *azcore.ResponseError
	return asResponseError(err, &re) && re.StatusCode == status
}
