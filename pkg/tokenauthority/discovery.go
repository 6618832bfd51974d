package tokenauthority

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
)

// newSigningKey generates an RSA key of 2,048 bits, the size Entra signs
// with; its kid is the base64url SHA-256 of its public key.
func newSigningKey() (*signingKey, error) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("tokenauthority: generating a signing key: %v", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("tokenauthority: %v", err)
	}
	sum := sha256.Sum256(der)
	return &signingKey{kid: base64.RawURLEncoding.EncodeToString(sum[:20]), priv: priv}, nil
}

// JWK is one public key of a JSON Web Key Set, as Entra publishes them.
type JWK struct {
	Kty string `json:"kty"`
	Use string `json:"use"`
	Kid string `json:"kid"`
	Alg string `json:"alg,omitempty"`
	N   string `json:"n"`
	E   string `json:"e"`
}

// JWKS is a JSON Web Key Set.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

func jwksOf(k *signingKey) JWKS {
	pub := k.priv.PublicKey
	return JWKS{Keys: []JWK{{Kty: "RSA", Use: "sig", Kid: k.kid, Alg: "RS256",
		N: base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		E: base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes())}}}
}

// serveDiscovery answers the tenant's OpenID Connect discovery document:
// the fields MSAL requires (authorization_endpoint, token_endpoint, issuer,
// whose host must be the authority's) and those a resource server reads
// (jwks_uri).
func (a *Authority) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	t := a.host + "/" + a.cfg.Tenant
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                a.Issuer(),
		"authorization_endpoint":                t + "/oauth2/v2.0/authorize",
		"token_endpoint":                        t + "/oauth2/v2.0/token",
		"jwks_uri":                              t + "/discovery/v2.0/keys",
		"response_types_supported":              []string{"code", "id_token", "code id_token", "id_token token"},
		"subject_types_supported":               []string{"pairwise"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_post", "private_key_jwt", "client_secret_basic"},
		"scopes_supported":                      []string{"openid", "profile", "email", "offline_access"},
		"tenant_region_scope":                   "WW",
		"cloud_instance_name":                   "microsoftonline.com",
	})
}

// serveInstanceDiscovery answers Entra's instance discovery
// (/common/discovery/instance?api-version=1.1&authorization_endpoint=…):
// the tenant discovery endpoint of the authorization endpoint's tenant,
// and the authority host as the only alias of itself.
func (a *Authority) serveInstanceDiscovery(w http.ResponseWriter, r *http.Request) {
	tenant := a.cfg.Tenant
	if ep, err := url.Parse(r.URL.Query().Get("authorization_endpoint")); err == nil && len(ep.Path) > 1 {
		if seg := firstSegment(ep.Path); seg != "" {
			tenant = seg
		}
	}
	host := a.ln.Addr().String()
	writeJSON(w, http.StatusOK, map[string]any{
		"tenant_discovery_endpoint": a.host + "/" + tenant + "/v2.0/.well-known/openid-configuration",
		"api-version":               "1.1",
		"metadata": []map[string]any{{
			"preferred_network": host, "preferred_cache": host, "aliases": []string{host},
		}},
	})
}

func firstSegment(path string) string {
	for i := 1; i < len(path); i++ {
		if path[i] == '/' {
			return path[1:i]
		}
	}
	return path[1:]
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// oauthError answers an OAuth 2.0 error as Entra does: the error, a
// description starting with the AADSTS code, the code, and ids.
func oauthError(w http.ResponseWriter, status int, kind string, code int, msg string) {
	now := time.Now().UTC()
	trace, corr := uuid.NewString(), uuid.NewString()
	writeJSON(w, status, map[string]any{
		"error": kind,
		"error_description": fmt.Sprintf("AADSTS%d: %s Trace ID: %s Correlation ID: %s Timestamp: %s",
			code, msg, trace, corr, now.Format("2006-01-02 15:04:05Z")),
		"error_codes":    []int{code},
		"timestamp":      now.Format("2006-01-02 15:04:05Z"),
		"trace_id":       trace,
		"correlation_id": corr,
	})
}
