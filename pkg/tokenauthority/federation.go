package tokenauthority

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// federationPath is where the authority's stand-in for a cluster's OIDC
// issuer lives.
const federationPath = "/federation"

// FederatedIssuer is the issuer of the tokens FederatedToken mints: the
// stand-in for a Kubernetes cluster's OIDC issuer URL, which a
// Federation's Issuer names.
func (a *Authority) FederatedIssuer() string { return a.host + federationPath }

// FederatedToken mints the token a Kubernetes cluster projects into a pod
// for its service account (what AZURE_FEDERATED_TOKEN_FILE holds under
// workload identity): issuer FederatedIssuer, subject subject (such as
// system:serviceaccount:NAMESPACE:NAME), audience
// DefaultFederationAudience, valid for lifetime from the authority's now.
func (a *Authority) FederatedToken(subject string, lifetime time.Duration) (string, error) {
	now := a.cfg.Now()
	return sign(a.fedKey, jwt.MapClaims{
		"iss": a.FederatedIssuer(), "sub": subject, "aud": []string{DefaultFederationAudience},
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(lifetime).Unix(),
	})
}

// serveFederationDiscovery is the stand-in issuer's discovery document, as
// a cluster's is.
func (a *Authority) serveFederationDiscovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                a.FederatedIssuer(),
		"jwks_uri":                              a.FederatedIssuer() + "/openid/v1/jwks",
		"response_types_supported":              []string{"id_token"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
	})
}

// checkAssertion checks a federated token presented by client c as its
// client assertion, as Entra checks it against the client's federated
// identity credentials: the signature of an issuer the authority can
// verify (its own stand-in issuer), a record matching issuer, subject and
// audience, and the token's lifetime. It returns 0 when the assertion
// signs c in, else the AADSTS code and message of the refusal.
func (a *Authority) checkAssertion(c *Client, assertion string) (int, string) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(assertion, &claims, func(t *jwt.Token) (any, error) {
		if iss, _ := t.Claims.GetIssuer(); iss != a.FederatedIssuer() {
			return nil, errUnknownIssuer
		}
		return &a.fedKey.priv.PublicKey, nil
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithTimeFunc(a.cfg.Now), jwt.WithExpirationRequired())
	switch {
	case errors.Is(err, errUnknownIssuer):
		return 70021, fmt.Sprintf("No matching federated identity record found for presented assertion issuer '%s'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.", claims.Issuer)
	case errors.Is(err, jwt.ErrTokenMalformed):
		return 50027, "JWT token is invalid or malformed."
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return 700027, "Client assertion failed signature validation."
	case errors.Is(err, jwt.ErrTokenExpired), errors.Is(err, jwt.ErrTokenNotValidYet):
		return 700024, "Client assertion is not within its valid time range."
	case err != nil:
		return 50027, "JWT token is invalid or malformed."
	}
	for _, f := range c.Federations {
		aud := f.Audience
		if aud == "" {
			aud = DefaultFederationAudience
		}
		iss := f.Issuer
		if iss == "" {
			iss = a.FederatedIssuer()
		}
		if iss == claims.Issuer && f.Subject == claims.Subject && hasAudience(claims.Audience, aud) {
			return 0, ""
		}
	}
	return 70021, fmt.Sprintf("No matching federated identity record found for presented assertion. Assertion Issuer: '%s'. Assertion Subject: '%s'. Assertion Audience: '%v'.",
		claims.Issuer, claims.Subject, []string(claims.Audience))
}

var errUnknownIssuer = errors.New("the assertion's issuer is not one this authority can verify")

func hasAudience(list jwt.ClaimStrings, aud string) bool {
	for _, a := range list {
		if a == aud {
			return true
		}
	}
	return false
}
