// Package tokenauthority is a small Microsoft Entra ID for this machine: an
// OAuth 2.0 token authority on a loopback address, over TLS, that the Azure
// SDKs' credentials (azidentity's DefaultAzureCredential and its
// environment and workload identity credentials, MSAL for Go, Python and
// JavaScript) sign in to as they sign in to login.microsoftonline.com, so
// that the bearer-token path of a Table client runs end to end without
// Azure. It serves what MSAL asks for:
//
//   - GET /{tenant}/v2.0/.well-known/openid-configuration, the OpenID
//     Connect discovery document MSAL reads first (issuer,
//     authorization_endpoint, token_endpoint, jwks_uri);
//   - GET /common/discovery/instance, Entra's instance discovery (MSAL asks
//     login.microsoftonline.com for it unless instance discovery is
//     disabled, so a client of a loopback authority disables it; it is
//     served for those that ask the authority itself);
//   - GET /{tenant}/discovery/v2.0/keys, the signing keys (JWKS);
//   - POST /{tenant}/oauth2/v2.0/token, the client credentials grant with a
//     client secret (client_secret in the body or HTTP Basic) or with a
//     federated token as client_assertion (workload identity), for a scope
//     RESOURCE/.default; the access token is an RS256 JWT whose audience is
//     the resource and whose issuer is the discovery document's.
//
// The authority also stands in for the other party of workload identity, a
// Kubernetes cluster's OIDC issuer: FederatedToken mints the service
// account token a cluster would project into a pod, signed by a key of its
// own published under FederatedIssuer, and a client's Federation records
// say which (issuer, subject, audience) it trusts, as a federated identity
// credential does.
//
// Refusals are Entra's: 400 or 401 with {"error", "error_description"
// starting with the AADSTS code, "error_codes"}. Tokens and secrets are
// never logged.
package tokenauthority

import (
	"context"
	"crypto/rsa"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Client is an application registered with the authority: a service
// principal that signs in with a secret or with a federated token.
type Client struct {
	// Name describes the client in messages (not sent anywhere).
	Name string
	// ID is the application (client) ID: AZURE_CLIENT_ID.
	ID string
	// ObjectID is the service principal's object ID: the access token's
	// oid (and sub), which role assignments name.
	ObjectID string
	// Secret is the client secret: AZURE_CLIENT_SECRET ("": none).
	Secret string
	// Federations are the federated identity credentials the client
	// trusts (workload identity).
	Federations []Federation
	// Audience, when set, is the audience of every token the client gets,
	// whatever resource it asks for: a misconfigured application, for
	// tests of the refusal a service gives a token meant for another.
	Audience string
}

// Federation is a federated identity credential: a token from Issuer
// (default: the authority's own stand-in issuer, FederatedIssuer) with
// subject Subject and audience Audience (default DefaultFederationAudience)
// signs the client in.
type Federation struct {
	Issuer, Subject, Audience string
}

// DefaultFederationAudience is the audience Entra expects of federated
// tokens (the default of a federated identity credential).
const DefaultFederationAudience = "api://AzureADTokenExchange"

// DefaultTenant is the tenant ID when Config.Tenant is empty.
const DefaultTenant = "72f988bf-0000-4000-8000-000000000001"

// DefaultLifetime is an access token's lifetime when Config.Lifetime is
// zero: Entra's default is between 60 and 90 minutes.
const DefaultLifetime = time.Hour

// Config configures an authority.
type Config struct {
	// Tenant is the directory (tenant) ID: AZURE_TENANT_ID.
	Tenant string
	// TLS serves the authority's certificate; required (MSAL refuses an
	// authority that is not https).
	TLS     *tls.Config
	Clients []Client
	// Lifetime of access tokens (default DefaultLifetime).
	Lifetime time.Duration
	// Now is the authority's clock (default time.Now). Tokens carry its
	// time: an authority whose clock is behind the service's issues tokens
	// that the service finds expired, one ahead tokens not valid yet.
	Now func() time.Time
}

// Authority is a running token authority. Its methods are safe for
// concurrent use; Close once.
type Authority struct {
	cfg     Config
	clients map[string]*Client
	ln      net.Listener
	srv     *http.Server
	done    chan error
	host    string // https://ADDR, AZURE_AUTHORITY_HOST
	key     *signingKey
	fedKey  *signingKey

	mu     sync.Mutex
	issued []Issued
}

// Issued is one access token the authority handed out.
type Issued struct {
	ClientID, Audience string
	// Token is the access token itself: a secret; tests use it to prove
	// that no output repeats it.
	Token string
}

// signingKey is an RSA key and its key ID (its thumbprint, as Entra's
// kid is its certificate's).
type signingKey struct {
	kid  string
	priv *rsa.PrivateKey
}

// ErrConfig is wrapped by the errors of Start.
var ErrConfig = errors.New("tokenauthority: bad configuration")

// Start listens on addr (a loopback address such as "127.0.0.1:0") and
// serves the authority over TLS until Close.
func Start(addr string, cfg Config) (*Authority, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%w: %q is not a loopback address: the authority serves this machine only", ErrConfig, addr)
	}
	if cfg.TLS == nil {
		return nil, fmt.Errorf("%w: the authority needs a TLS certificate (MSAL signs in over https only)", ErrConfig)
	}
	if cfg.Tenant == "" {
		cfg.Tenant = DefaultTenant
	}
	cfg.Tenant = strings.ToLower(cfg.Tenant) // MSAL lower-cases the authority URL
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = DefaultLifetime
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	a := &Authority{cfg: cfg, clients: map[string]*Client{}, done: make(chan error, 1)}
	for i := range cfg.Clients {
		c := &cfg.Clients[i]
		if c.ID == "" {
			return nil, fmt.Errorf("%w: client %d (%s) has no ID", ErrConfig, i, c.Name)
		}
		a.clients[strings.ToLower(c.ID)] = c
	}
	if a.key, err = newSigningKey(); err != nil {
		return nil, err
	}
	if a.fedKey, err = newSigningKey(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	a.ln = ln
	a.host = "https://" + ln.Addr().String()
	a.srv = &http.Server{Handler: a.routes(), TLSConfig: cfg.TLS.Clone(), ReadHeaderTimeout: 10 * time.Second}
	go func() { a.done <- a.srv.ServeTLS(ln, "", "") }()
	return a, nil
}

// Host is the authority host, as AZURE_AUTHORITY_HOST takes it:
// https://ADDR.
func (a *Authority) Host() string { return a.host }

// Tenant is the tenant ID, as AZURE_TENANT_ID takes it.
func (a *Authority) Tenant() string { return a.cfg.Tenant }

// Issuer is the issuer of the authority's access tokens, as its discovery
// document states it.
func (a *Authority) Issuer() string { return a.host + "/" + a.cfg.Tenant + "/v2.0" }

// DiscoveryURL is the tenant's OpenID Connect discovery document.
func (a *Authority) DiscoveryURL() string { return a.Issuer() + "/.well-known/openid-configuration" }

// AuthorizeURL is the tenant's authorization endpoint (what Azure Storage
// names as authorization_uri in its bearer challenge).
func (a *Authority) AuthorizeURL() string { return a.host + "/" + a.cfg.Tenant + "/oauth2/authorize" }

// Issued returns the access tokens handed out so far, oldest first.
func (a *Authority) Issued() []Issued {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Issued(nil), a.issued...)
}

// Close stops the authority, waiting for requests in flight until ctx ends.
func (a *Authority) Close(ctx context.Context) error {
	err := a.srv.Shutdown(ctx)
	if serr := <-a.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// routes is the authority's HTTP surface.
func (a *Authority) routes() http.Handler {
	mux := http.NewServeMux()
	t := "/" + a.cfg.Tenant
	mux.HandleFunc("GET "+t+"/v2.0/.well-known/openid-configuration", a.serveDiscovery)
	mux.HandleFunc("GET /common/discovery/instance", a.serveInstanceDiscovery)
	mux.HandleFunc("GET "+t+"/discovery/v2.0/keys", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, jwksOf(a.key)) })
	mux.HandleFunc("POST "+t+"/oauth2/v2.0/token", a.serveToken)
	mux.HandleFunc("GET "+federationPath+"/.well-known/openid-configuration", a.serveFederationDiscovery)
	mux.HandleFunc("GET "+federationPath+"/openid/v1/jwks", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, jwksOf(a.fedKey)) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if tenant, _, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/"); ok && !strings.EqualFold(tenant, a.cfg.Tenant) && tenant != "common" {
			oauthError(w, http.StatusBadRequest, "invalid_request", 90002, fmt.Sprintf("Tenant '%s' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.", tenant))
			return
		}
		http.NotFound(w, r)
	})
	return mux
}
