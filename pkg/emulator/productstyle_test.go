package emulator

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// hostAccount reads a host as Azurite does: the first label of a name with
// a dot, never of an IP address or host.docker.internal.
func TestHostAccount(t *testing.T) {
	for _, c := range []struct {
		host      string
		account   string
		secondary bool
		ok        bool
	}{
		{"devstoreaccount1.table.localhost:10002", "devstoreaccount1", false, true},
		{"DevStoreAccount1.table.localhost", "devstoreaccount1", false, true},
		{"devstoreaccount1-secondary.table.localhost:10002", "devstoreaccount1", true, true},
		{"acct1.localhost", "acct1", false, true},
		{"127.0.0.1:10002", "", false, false},
		{"[::1]:10002", "", false, false},
		{"localhost:10002", "", false, false},
		{"host.docker.internal:10002", "", false, false},
		{".localhost", "", false, false},
	} {
		a, sec, ok := hostAccount(c.host)
		if a != c.account || sec != c.secondary || ok != c.ok {
			t.Errorf("%s: %q %v %v, want %q %v %v", c.host, a, sec, ok, c.account, c.secondary, c.ok)
		}
	}
}

// hostClient is an aztables client of the account at base (a URL whose
// host need not resolve), every connection dialled to in's address.
func hostClient(t *testing.T, in *Instance, base, account, key string) *aztables.ServiceClient {
	t.Helper()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, in.Addr())
	}}
	t.Cleanup(tr.CloseIdleConnections)
	cred, err := aztables.NewSharedKeyCredential(account, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aztables.NewServiceClientWithSharedKey(base, cred, &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: &http.Client{Transport: tr}, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A product-style URL (the account in the host, as Azure's
// ACCOUNT.table.core.windows.net) is served as Azurite serves it: signed,
// read, written in a transaction, and answered with URLs without the
// account in the path; path-style requests keep working beside it, also
// from a host whose first label names no account.
func TestProductStyleURLs(t *testing.T) {
	ctx := context.Background()
	in := startServer(t, Config{Model: model.Off()})
	_, port, _ := net.SplitHostPort(in.Addr())
	product := hostClient(t, in, "http://devstoreaccount1.table.localhost:"+port, DevAccount, DevKey)
	if _, err := product.CreateTable(ctx, "Parcels", nil); err != nil {
		t.Fatal(err)
	}
	tc := product.NewClient("Parcels")
	if _, err := tc.AddEntity(ctx, []byte(`{"PartitionKey":"p1","RowKey":"a","Depot":"d1"}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.SubmitTransaction(ctx, []aztables.TransactionAction{
		{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p1","RowKey":"b"}`)},
		{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p1","RowKey":"c"}`)},
	}, nil); err != nil {
		t.Fatalf("a transaction product-style: %v", err)
	}
	got, err := tc.GetEntity(ctx, "p1", "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"odata.metadata":"http://devstoreaccount1.table.localhost:` + port + `/$metadata#Parcels/@Element"`; !strings.Contains(string(got.Value), want) {
		t.Errorf("the entity's metadata URL: %s, want %s", got.Value, want)
	}
	pg := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr("PartitionKey eq 'p1'")})
	n := 0
	for pg.More() {
		p, err := pg.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(p.Entities)
	}
	if n != 3 {
		t.Errorf("%d entities product-style, want 3", n)
	}
	// Path-style, by a name whose first label is no account, and by IP.
	for _, base := range []string{"http://build-01.lan:" + port + "/" + DevAccount, in.URL()} {
		if _, err := hostClient(t, in, base, DevAccount, DevKey).NewClient("Parcels").GetEntity(ctx, "p1", "b", nil); err != nil {
			t.Errorf("path-style at %s: %v", base, err)
		}
	}
	// The secondary endpoint reads.
	sec := hostClient(t, in, "http://devstoreaccount1-secondary.table.localhost:"+port, DevAccount, DevKey)
	if _, err := sec.NewClient("Parcels").GetEntity(ctx, "p1", "c", nil); err != nil {
		t.Errorf("the secondary endpoint product-style: %v", err)
	}
}

// PathStyleOnly (Azurite's --disableProductStyleUrl) takes the account
// from the path alone: a product-style request names no account there.
func TestPathStyleOnlyRefusesProductStyle(t *testing.T) {
	ctx := context.Background()
	in := startServer(t, Config{Model: model.Off(), PathStyleOnly: true})
	_, port, _ := net.SplitHostPort(in.Addr())
	if _, err := hostClient(t, in, "http://devstoreaccount1.table.localhost:"+port, DevAccount, DevKey).CreateTable(ctx, "Parcels", nil); !isStatus(err, 400) {
		t.Errorf("product-style with PathStyleOnly: %v, want 400", err)
	}
	if _, err := hostClient(t, in, in.URL(), DevAccount, DevKey).CreateTable(ctx, "Parcels", nil); err != nil {
		t.Errorf("path-style with PathStyleOnly: %v", err)
	}
}

// Several accounts on one address are told apart by the host too.
func TestAccountsByHost(t *testing.T) {
	ctx := context.Background()
	in := startServer(t, Config{Model: model.Off(), Accounts: []Account{{Name: "acct1", Key: "a2V5MQ=="}, {Name: "acct2", Key: "a2V5Mw=="}}})
	_, port, _ := net.SplitHostPort(in.Addr())
	if _, err := hostClient(t, in, "http://acct2.table.localhost:"+port, "acct2", "a2V5Mw==").CreateTable(ctx, "OnlyInTwo", nil); err != nil {
		t.Fatal(err)
	}
	pg := hostClient(t, in, "http://acct1.table.localhost:"+port, "acct1", "a2V5MQ==").NewListTablesPager(nil)
	for pg.More() {
		p, err := pg.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Tables) != 0 {
			t.Errorf("acct1 lists %d tables, all acct2's", len(p.Tables))
		}
	}
	if _, err := hostClient(t, in, "http://acct2.table.localhost:"+port, "acct2", "a2V5Mw==").NewClient("OnlyInTwo").GetAccessPolicy(ctx, nil); err != nil {
		t.Errorf("acct2's own table: %v", err)
	}
}
