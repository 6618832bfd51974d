package tokenauthority

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/golang-jwt/jwt/v5"

	"github.com/tablestress/tablestress/internal/devcert"
)

const (
	appID    = "11111111-2222-4333-8444-555555555555"
	objectID = "99999999-8888-4777-8666-555555555555"
	secret   = "local-secret-value"
	subject  = "system:serviceaccount:load:tablestress"
)

// start runs an authority with one client, trusted by the returned
// client options.
func start(t *testing.T, mutate func(*Config)) (*Authority, azcore.ClientOptions) {
	t.Helper()
	ca, err := devcert.NewCA("test")
	if err != nil {
		t.Fatal(err)
	}
	srvTLS, err := ca.ServerConfig("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{TLS: srvTLS, Clients: []Client{{Name: "loader", ID: appID, ObjectID: objectID, Secret: secret}}}
	if mutate != nil {
		mutate(&cfg)
	}
	a, err := Start("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	return a, azcore.ClientOptions{Transport: hc, Cloud: cloud.Configuration{ActiveDirectoryAuthorityHost: a.Host()}}
}

var storageScope = policy.TokenRequestOptions{Scopes: []string{"https://storage.azure.com/.default"}}

// verify checks a token against the authority's published keys, as a
// resource server would, and returns its claims.
func verify(t *testing.T, a *Authority, opts azcore.ClientOptions, token string) jwt.MapClaims {
	t.Helper()
	get := func(url string, v any) {
		resp, err := opts.Transport.(*http.Client).Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	get(a.DiscoveryURL(), &doc)
	var set JWKS
	get(doc.JWKSURI, &set)
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(tk *jwt.Token) (any, error) {
		for _, k := range set.Keys {
			if k.Kid == tk.Header["kid"] {
				return &a.key.priv.PublicKey, nil // the published modulus is checked below
			}
		}
		return nil, jwt.ErrTokenUnverifiable
	}, jwt.WithIssuer(doc.Issuer), jwt.WithAudience("https://storage.azure.com"))
	if err != nil {
		t.Fatalf("the token does not verify against the published document and keys: %v", err)
	}
	if want := jwksOf(a.key).Keys[0].N; set.Keys[0].N != want {
		t.Fatal("the published key is not the signing key")
	}
	return claims
}

// azidentity's client secret credential signs in (discovery document, then
// token endpoint) and gets a token for the storage resource that verifies
// against the published keys, naming the client's object and app IDs.
func TestClientSecretCredential(t *testing.T) {
	a, opts := start(t, nil)
	cred, err := azidentity.NewClientSecretCredential(a.Tenant(), appID, secret,
		&azidentity.ClientSecretCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: true})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := cred.GetToken(context.Background(), storageScope)
	if err != nil {
		t.Fatal(err)
	}
	c := verify(t, a, opts, tk.Token)
	if c["oid"] != objectID || c["azp"] != appID || c["tid"] != a.Tenant() {
		t.Errorf("claims %v", c)
	}
	if d := time.Until(tk.ExpiresOn); d < 50*time.Minute || d > 61*time.Minute {
		t.Errorf("expires in %v, want the lifetime of an hour", d)
	}
	if got := a.Issued(); len(got) != 1 || got[0].Token != tk.Token || got[0].Audience != "https://storage.azure.com" {
		t.Errorf("issued %+v", got)
	}

	bad, _ := azidentity.NewClientSecretCredential(a.Tenant(), appID, "wrong",
		&azidentity.ClientSecretCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: true})
	if _, err := bad.GetToken(context.Background(), storageScope); err == nil || !strings.Contains(err.Error(), "AADSTS7000215") {
		t.Errorf("a wrong secret: %v", err)
	}
	if strings.Contains(errString(bad.GetToken(context.Background(), storageScope)), "wrong") {
		t.Error("the refusal repeats the secret")
	}
}

func errString(_ azcore.AccessToken, err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Workload identity: azidentity reads the federated token from
// AZURE_FEDERATED_TOKEN_FILE and presents it as its client assertion; the
// authority signs it in when a federated credential matches the token's
// issuer, subject and audience, and refuses another subject or an expired
// token with Entra's codes.
func TestWorkloadIdentityCredential(t *testing.T) {
	a, opts := start(t, func(c *Config) {
		c.Clients[0].Secret = ""
		c.Clients[0].Federations = []Federation{{Subject: subject}}
	})
	dir := t.TempDir()
	tokenFor := func(sub string, life time.Duration) string {
		tok, err := a.FederatedToken(sub, life)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, strings.ReplaceAll(sub, ":", "_")+life.String())
		os.WriteFile(path, []byte(tok), 0o600)
		return path
	}
	get := func(file string) (azcore.AccessToken, error) {
		cred, err := azidentity.NewWorkloadIdentityCredential(&azidentity.WorkloadIdentityCredentialOptions{
			ClientOptions: opts, ClientID: appID, TenantID: a.Tenant(), TokenFilePath: file, DisableInstanceDiscovery: true})
		if err != nil {
			t.Fatal(err)
		}
		return cred.GetToken(context.Background(), storageScope)
	}
	tk, err := get(tokenFor(subject, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if c := verify(t, a, opts, tk.Token); c["azpacr"] != "2" || c["oid"] != objectID {
		t.Errorf("claims %v", c)
	}
	if _, err := get(tokenFor("system:serviceaccount:load:other", time.Hour)); err == nil || !strings.Contains(err.Error(), "AADSTS70021") {
		t.Errorf("another subject: %v", err)
	}
	if _, err := get(tokenFor(subject, -time.Minute)); err == nil || !strings.Contains(err.Error(), "AADSTS700024") {
		t.Errorf("an expired federated token: %v", err)
	}
}

// A client registered with an audience gets tokens for it whatever it asks
// for; the authority's clock sets the tokens' times.
func TestAudienceAndClock(t *testing.T) {
	behind := time.Now().Add(-2 * time.Hour)
	a, opts := start(t, func(c *Config) {
		c.Clients[0].Audience = "https://management.azure.com"
		c.Now = func() time.Time { return behind }
	})
	cred, _ := azidentity.NewClientSecretCredential(a.Tenant(), appID, secret,
		&azidentity.ClientSecretCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: true})
	tk, err := cred.GetToken(context.Background(), storageScope)
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(tk.Token, claims); err != nil {
		t.Fatal(err)
	}
	if claims["aud"] != "https://management.azure.com" {
		t.Errorf("aud %v", claims["aud"])
	}
	if exp, _ := claims.GetExpirationTime(); exp == nil || !exp.Before(time.Now().Add(-50*time.Minute)) {
		t.Errorf("exp %v: want an hour after the authority's clock, two hours behind", exp)
	}
}

// Instance discovery and an unknown tenant answer as Entra does.
func TestInstanceDiscoveryAndUnknownTenant(t *testing.T) {
	a, opts := start(t, nil)
	hc := opts.Transport.(*http.Client)
	resp, err := hc.Get(a.Host() + "/common/discovery/instance?api-version=1.1&authorization_endpoint=" + a.Host() + "/" + a.Tenant() + "/oauth2/v2.0/authorize")
	if err != nil {
		t.Fatal(err)
	}
	var disc struct {
		Endpoint string `json:"tenant_discovery_endpoint"`
	}
	json.NewDecoder(resp.Body).Decode(&disc)
	resp.Body.Close()
	if disc.Endpoint != a.DiscoveryURL() {
		t.Errorf("tenant_discovery_endpoint %q, want %q", disc.Endpoint, a.DiscoveryURL())
	}
	cred, _ := azidentity.NewClientSecretCredential("00000000-0000-0000-0000-00000000beef", appID, secret,
		&azidentity.ClientSecretCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: true})
	if _, err := cred.GetToken(context.Background(), storageScope); err == nil || !strings.Contains(err.Error(), "AADSTS90002") {
		t.Errorf("an unknown tenant: %v", err)
	}
}

func TestStartRefusesRemoteAndPlainHTTP(t *testing.T) {
	if _, err := Start("0.0.0.0:0", Config{TLS: &tls.Config{}}); err == nil {
		t.Error("a non-loopback address was accepted")
	}
	if _, err := Start("127.0.0.1:0", Config{}); err == nil {
		t.Error("an authority without TLS was started")
	}
}
