package emulator

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/internal/devcert"
	"github.com/tablestress/tablestress/pkg/emulator/entra"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/tokenauthority"
)

var bearerClients = []tokenauthority.Client{
	{Name: "writer", ID: "00000000-0000-4000-8000-0000000000aa", ObjectID: "00000000-0000-4000-8000-00000000aa00", Secret: "w"},
	{Name: "reader", ID: "00000000-0000-4000-8000-0000000000bb", ObjectID: "00000000-0000-4000-8000-00000000bb00", Secret: "r"},
	{Name: "nobody", ID: "00000000-0000-4000-8000-0000000000cc", ObjectID: "00000000-0000-4000-8000-00000000cc00", Secret: "n"},
	{Name: "elsewhere", ID: "00000000-0000-4000-8000-0000000000dd", ObjectID: "00000000-0000-4000-8000-00000000dd00", Secret: "e",
		Audience: "https://vault.azure.net"},
}

// bearerService starts an authority and a service over TLS (reached the
// way way reaches it) that takes its tokens, and returns a client factory
// signing in as each bearerClients.
func bearerService(t *testing.T, way reach) (*reached, func(i int) *aztables.ServiceClient) {
	t.Helper()
	ca, err := devcert.NewCA("test")
	if err != nil {
		t.Fatal(err)
	}
	atls, _ := ca.ServerConfig("127.0.0.1")
	auth, err := tokenauthority.Start("127.0.0.1:0", tokenauthority.Config{TLS: atls, Clients: bearerClients})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { auth.Close(context.Background()) })
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	stls, _ := ca.ServerConfig("127.0.0.1")
	in := way.start(t, Config{Model: model.Off(), TLS: stls, Entra: entra.New(entra.Config{Discovery: auth.DiscoveryURL(), Account: DevAccount, Client: hc,
		Assignments: []entra.Assignment{{Principal: bearerClients[0].ObjectID, Role: entra.Contributor},
			{Principal: bearerClients[1].ObjectID, Role: entra.Reader}, {Principal: bearerClients[3].ObjectID, Role: entra.Contributor}}})})
	credOpts := azcore.ClientOptions{Transport: hc, Cloud: cloud.Configuration{ActiveDirectoryAuthorityHost: auth.Host()}}
	opts := azcore.ClientOptions{Transport: hc, Retry: policy.RetryOptions{MaxRetries: -1}}
	if in.rt != nil {
		opts.Transport = transporter{in.rt}
	}
	return in, func(i int) *aztables.ServiceClient {
		c := bearerClients[i]
		cred, err := azidentity.NewClientSecretCredential(auth.Tenant(), c.ID, c.Secret,
			&azidentity.ClientSecretCredentialOptions{ClientOptions: credOpts, DisableInstanceDiscovery: true})
		if err != nil {
			t.Fatal(err)
		}
		svc, err := aztables.NewServiceClient(in.url, cred, &aztables.ClientOptions{ClientOptions: opts})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
}

func codeOf(err error) (int, string, http.Header) {
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		return re.StatusCode, re.ErrorCode, re.RawResponse.Header
	}
	return 0, "", nil
}

// Tokens decide what a request may do by the principal's role: a
// contributor creates, writes and deletes; a reader reads and is refused
// every write with 403 AuthorizationPermissionMismatch; a principal
// without a role is refused a read too; a token for another resource is
// 401 InvalidAuthenticationInfo with Azure's challenge and its detail.
func TestBearerTokens(t *testing.T) { forEachReach(t, testBearerTokens) }

func testBearerTokens(t *testing.T, way reach) {
	in, client := bearerService(t, way)
	ctx := context.Background()
	w, r, n, x := client(0), client(1), client(2), client(3)
	if _, err := w.CreateTable(ctx, "Tokens", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.NewClient("Tokens").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"1"}`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.NewClient("Tokens").GetEntity(ctx, "p", "1", nil); err != nil {
		t.Errorf("a reader reading: %v", err)
	}
	if _, err := r.NewListTablesPager(nil).NextPage(ctx); err != nil {
		t.Errorf("a reader listing tables: %v", err)
	}
	for what, err := range map[string]error{
		"insert": func() error {
			_, err := r.NewClient("Tokens").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"2"}`), nil)
			return err
		}(),
		"create table": func() error { _, err := r.CreateTable(ctx, "Other", nil); return err }(),
		"delete":       func() error { _, err := r.NewClient("Tokens").DeleteEntity(ctx, "p", "1", nil); return err }(),
		"transaction": func() error {
			_, err := r.NewClient("Tokens").SubmitTransaction(ctx, []aztables.TransactionAction{{ActionType: aztables.TransactionTypeAdd, Entity: []byte(`{"PartitionKey":"p","RowKey":"3"}`)}}, nil)
			return err
		}(),
		"nobody reading": func() error { _, err := n.NewClient("Tokens").GetEntity(ctx, "p", "1", nil); return err }(),
	} {
		if status, code, _ := codeOf(err); status != 403 || code != "AuthorizationPermissionMismatch" {
			if what == "transaction" && strings.Contains(errString(err), "AuthorizationPermissionMismatch") {
				continue // a failed transaction's status is in its multipart body
			}
			t.Errorf("%s: %d %s (%v), want 403 AuthorizationPermissionMismatch", what, status, code, err)
		}
	}
	_, err := x.NewClient("Tokens").GetEntity(ctx, "p", "1", nil)
	status, code, h := codeOf(err)
	if status != 401 || code != "InvalidAuthenticationInfo" || !strings.Contains(errString(err), entra.DetailAudience) {
		t.Errorf("a token for another resource: %d %s %v", status, code, err)
	}
	if ch := h.Get("WWW-Authenticate"); !strings.HasPrefix(ch, "Bearer authorization_uri=https://127.0.0.1:") || !strings.HasSuffix(ch, "/oauth2/authorize resource_id=https://storage.azure.com") {
		t.Errorf("challenge %q", ch)
	}
	if _, err := w.NewClient("Tokens").DeleteEntity(ctx, "p", "1", nil); err != nil {
		t.Errorf("a contributor deleting: %v", err)
	}
	_ = in
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A bearer token over plain http is refused, and a service without an
// authority refuses tokens.
func TestBearerNeedsHTTPSAndAnAuthority(t *testing.T) {
	s, err := New(Config{Model: model.Off(), Entra: entra.New(entra.Config{Discovery: "https://127.0.0.1:1/x"})})
	if err != nil {
		t.Fatal(err)
	}
	req := signed(s, "GET", "/Tables", "", nil)
	req.Header.Set("Authorization", "Bearer abc.def.ghi")
	if rec := serve(s, req); rec.Code != 403 || rec.Header().Get("X-Ms-Error-Code") != "AuthenticationFailed" || !strings.Contains(rec.Body.String(), "Bearer is not allowed with HTTP") {
		t.Errorf("over http: %d %s", rec.Code, rec.Body)
	}
	plain := newServer(t)
	req = signed(plain, "GET", "/Tables", "", nil)
	req.Header.Set("Authorization", "Bearer abc.def.ghi")
	if rec := serve(plain, req); rec.Code != 403 || rec.Header().Get("Www-Authenticate") != "" {
		t.Errorf("without an authority: %d %v", rec.Code, rec.Header())
	}
}
