package entra

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/golang-jwt/jwt/v5"

	"github.com/tablestress/tablestress/internal/devcert"
	"github.com/tablestress/tablestress/pkg/tokenauthority"
)

// Three applications: one assigned Contributor by its object ID, one
// Reader by its client ID, one with no role; one whose tokens are for
// another resource.
var clients = []tokenauthority.Client{
	{Name: "writer", ID: "00000000-0000-4000-8000-00000000000a", ObjectID: "00000000-0000-4000-8000-0000000000a0", Secret: "s-writer"},
	{Name: "reader", ID: "00000000-0000-4000-8000-00000000000b", ObjectID: "00000000-0000-4000-8000-0000000000b0", Secret: "s-reader"},
	{Name: "nobody", ID: "00000000-0000-4000-8000-00000000000c", ObjectID: "00000000-0000-4000-8000-0000000000c0", Secret: "s-nobody"},
	{Name: "elsewhere", ID: "00000000-0000-4000-8000-00000000000d", ObjectID: "00000000-0000-4000-8000-0000000000d0", Secret: "s-elsewhere",
		Audience: "https://management.azure.com"},
}

var assignments = []Assignment{{Principal: clients[0].ObjectID, Role: Contributor}, {Principal: clients[1].ID, Role: Reader},
	{Principal: clients[3].ObjectID, Role: Contributor}}

type fixture struct {
	ca   *devcert.CA
	auth *tokenauthority.Authority
	opts azcore.ClientOptions
	v    *Validator
}

// setup starts an authority whose clock is offset from the service's by
// skew, and a validator trusting it.
func setup(t *testing.T, skew time.Duration) *fixture {
	t.Helper()
	ca, err := devcert.NewCA("test")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ca.ServerConfig("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	a, err := tokenauthority.Start("127.0.0.1:0", tokenauthority.Config{TLS: srv, Clients: clients,
		Now: func() time.Time { return time.Now().Add(skew) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	v := New(Config{Discovery: a.DiscoveryURL(), Client: hc, Account: "devstoreaccount1", Assignments: assignments})
	return &fixture{ca: ca, auth: a, v: v, opts: azcore.ClientOptions{Transport: hc, Cloud: cloud.Configuration{ActiveDirectoryAuthorityHost: a.Host()}}}
}

// token signs client c in with its secret and returns its storage token.
func (f *fixture) token(t *testing.T, c tokenauthority.Client) string {
	t.Helper()
	cred, err := azidentity.NewClientSecretCredential(f.auth.Tenant(), c.ID, c.Secret,
		&azidentity.ClientSecretCredentialOptions{ClientOptions: f.opts, DisableInstanceDiscovery: true})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := cred.GetToken(context.Background(), policy.TokenRequestOptions{Scopes: []string{ResourceID + "/.default"}})
	if err != nil {
		t.Fatal(err)
	}
	return tk.Token
}

// Role assignments decide what a valid token's principal may do: by
// object ID, by client ID, or nothing without one.
func TestRolesOfValidTokens(t *testing.T) {
	f := setup(t, 0)
	for i, want := range []Permissions{{Read: true, Write: true, Delete: true}, {Read: true}, {}} {
		p, ref := f.v.Authenticate(context.Background(), "Bearer "+f.token(t, clients[i]))
		if ref != nil {
			t.Fatalf("%s: refused: %+v", clients[i].Name, ref)
		}
		if p.Permissions != want || p.ObjectID != clients[i].ObjectID || p.AppID != clients[i].ID {
			t.Errorf("%s: %+v, want %+v", clients[i].Name, p, want)
		}
	}
}

// Every failed check is 401 InvalidAuthenticationInfo with Azure's
// challenge and the detail of the check that failed.
func TestRefusals(t *testing.T) {
	f := setup(t, 0)
	good := f.token(t, clients[0])
	parts := strings.Split(good, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	payload = []byte(strings.Replace(string(payload), clients[0].ObjectID, clients[2].ObjectID, 1)) // another principal
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]
	other := setup(t, 0) // another authority: another issuer and keys
	foreign := other.token(t, clients[0])
	forged := forge(t, f, "unknown-kid")
	cases := []struct {
		name, header, detail string
	}{
		{"another resource", "Bearer " + f.token(t, clients[3]), DetailAudience},
		{"another issuer", "Bearer " + foreign, DetailIssuer},
		{"tampered payload", "Bearer " + tampered, DetailSignature},
		{"unknown key", "Bearer " + forged, DetailNoKey},
		{"not a JWT", "Bearer abc", DetailMalformed},
		{"empty", "Bearer ", DetailMalformed},
	}
	for _, c := range cases {
		_, ref := f.v.Authenticate(context.Background(), c.header)
		if ref == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if ref.Status != 401 || ref.Code != "InvalidAuthenticationInfo" || ref.Detail != c.detail || ref.Message != MsgChallenge {
			t.Errorf("%s: %+v, want detail %q", c.name, ref, c.detail)
		}
		want := "Bearer authorization_uri=" + f.auth.AuthorizeURL() + " resource_id=https://storage.azure.com"
		if ref.Challenge != want {
			t.Errorf("%s: challenge %q, want %q", c.name, ref.Challenge, want)
		}
	}
}

// forge signs a token with the authority's issuer and a key of its own,
// under key ID kid.
func forge(t *testing.T, f *fixture, kid string) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tk := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"iss": f.auth.Issuer(), "aud": ResourceID,
		"exp": time.Now().Add(time.Hour).Unix(), "oid": clients[0].ObjectID})
	tk.Header["kid"] = kid
	s, err := tk.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The lifetime is checked on the service's clock with five minutes of
// skew: an authority an hour and four minutes behind still issues usable
// (hour-long) tokens, one an hour and six behind expired ones; one six
// minutes ahead tokens not valid yet.
func TestLifetime(t *testing.T) {
	for _, c := range []struct {
		skew   time.Duration
		detail string
	}{
		{-64 * time.Minute, ""},
		{-66 * time.Minute, DetailExpired},
		{4 * time.Minute, ""},
		{6 * time.Minute, DetailNotYet},
	} {
		f := setup(t, c.skew)
		_, ref := f.v.Authenticate(context.Background(), "Bearer "+f.token(t, clients[0]))
		got := ""
		if ref != nil {
			got = ref.Detail
		}
		if got != c.detail {
			t.Errorf("authority clock %v: detail %q, want %q", c.skew, got, c.detail)
		}
	}
}

func TestParseAssignment(t *testing.T) {
	a, err := ParseAssignment("Storage Table Data Reader=abc")
	if err != nil || a.Role != Reader || a.Principal != "abc" {
		t.Errorf("%+v %v", a, err)
	}
	for _, bad := range []string{"owner=abc", "contributor=", "contributor"} {
		if _, err := ParseAssignment(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
