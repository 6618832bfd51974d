package tokenauthority

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// Grant and assertion types of the token endpoint (RFC 6749, RFC 7523).
const (
	grantClientCredentials = "client_credentials"
	assertionJWTBearer     = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
)

// serveToken is the token endpoint: the client credentials grant,
// authenticated by a client secret or a federated token.
func (a *Authority) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", 900144, "The request body must contain the following parameter: 'grant_type'.")
		return
	}
	f := r.PostForm
	if gt := f.Get("grant_type"); gt != grantClientCredentials {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", 70003, "The app requested an unsupported grant type '"+gt+"'.")
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = f.Get("client_id"), f.Get("client_secret")
	}
	c := a.clients[strings.ToLower(id)]
	if c == nil {
		oauthError(w, http.StatusBadRequest, "unauthorized_client", 700016,
			"Application with identifier '"+id+"' was not found in the directory '"+a.cfg.Tenant+"'.")
		return
	}
	resource, ok := resourceOf(f.Get("scope"))
	if !ok {
		oauthError(w, http.StatusBadRequest, "invalid_scope", 1002012,
			"The provided value for scope is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).")
		return
	}
	acr, status, code, msg := a.proof(c, f, secret)
	if code != 0 {
		oauthError(w, status, "invalid_client", code, msg)
		return
	}
	if c.Audience != "" {
		resource = c.Audience
	}
	token, err := a.accessToken(c, resource, acr)
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "temporarily_unavailable", 50000, "There was an error issuing a token.")
		return
	}
	a.mu.Lock()
	a.issued = append(a.issued, Issued{ClientID: c.ID, Audience: resource, Token: token})
	a.mu.Unlock()
	secs := int(a.cfg.Lifetime / time.Second)
	writeJSON(w, http.StatusOK, map[string]any{
		"token_type": "Bearer", "expires_in": secs, "ext_expires_in": secs, "access_token": token,
	})
}

// proof checks how client c proved itself: a client assertion (a
// federated token, acr "2") or its secret (acr "1"); a refusal is its
// status, Entra's error code and message (code 0: none).
func (a *Authority) proof(c *Client, f url.Values, secret string) (acr string, status, code int, msg string) {
	switch {
	case f.Get("client_assertion_type") == assertionJWTBearer:
		if code, msg := a.checkAssertion(c, f.Get("client_assertion")); code != 0 {
			return "", http.StatusUnauthorized, code, msg
		}
		return "2", 0, 0, ""
	case secret != "":
		if c.Secret == "" || subtle.ConstantTimeCompare([]byte(secret), []byte(c.Secret)) != 1 {
			return "", http.StatusUnauthorized, 7000215,
				"Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '" + c.ID + "'."
		}
		return "1", 0, 0, ""
	}
	return "", http.StatusUnauthorized, 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'."
}

// resourceOf finds the RESOURCE/.default scope among the space-separated
// scopes of a request (MSAL adds openid, profile and offline_access).
func resourceOf(scope string) (string, bool) {
	for _, s := range strings.Fields(scope) {
		if res, ok := strings.CutSuffix(s, "/.default"); ok && res != "" {
			return res, true
		}
	}
	return "", false
}

// accessToken mints an application's access token for resource: a v2.0
// token signed with RS256 by the authority's key, with the claims a
// resource server reads (aud, iss, iat, nbf, exp, tid, oid, sub, azp).
func (a *Authority) accessToken(c *Client, resource, acr string) (string, error) {
	now := a.cfg.Now()
	oid := c.ObjectID
	if oid == "" {
		oid = c.ID
	}
	claims := jwt.MapClaims{
		"aud": resource, "iss": a.Issuer(),
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(a.cfg.Lifetime).Unix(),
		"tid": a.cfg.Tenant, "oid": oid, "sub": oid, "azp": c.ID, "azpacr": acr,
		"idtyp": "app", "ver": "2.0", "uti": uuid.NewString(),
	}
	return sign(a.key, claims)
}

// sign makes an RS256 JWT of claims with key k, naming k in its header.
func sign(k *signingKey, claims jwt.Claims) (string, error) {
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	t.Header["kid"] = k.kid
	return t.SignedString(k.priv)
}
