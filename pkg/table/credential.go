package table

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/golang-jwt/jwt/v5"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// credential is DefaultAzureCredential as a target's token source, with
// what the last token said of itself (TokenInfo), so that a refusal of the
// token can be explained without ever showing the token.
type credential struct {
	cred azcore.TokenCredential
	last atomic.Pointer[TokenInfo]
}

// TokenInfo is what an access token states about itself: no secret (the
// token and its signature are not kept).
type TokenInfo struct {
	Audience  []string
	Issuer    string
	Expires   time.Time
	NotBefore time.Time
	// AppID is the client's application ID (azp or appid), ObjectID its
	// principal's object ID (oid).
	AppID, ObjectID string
}

// newCredential returns DefaultAzureCredential as azidentity configures it
// from the environment (AZURE_TENANT_ID, AZURE_CLIENT_ID with
// AZURE_CLIENT_SECRET or AZURE_FEDERATED_TOKEN_FILE, AZURE_AUTHORITY_HOST,
// managed identity, the Azure CLI), signing in over a transport that
// trusts roots (nil: the system's). Instance discovery, which asks
// login.microsoftonline.com whether the authority host is one of Entra's,
// is left on unless AZURE_AUTHORITY_HOST is on this machine: a local
// authority is none of Entra's, and the question would leave the machine.
func newCredential(roots *x509.CertPool) (*credential, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if roots != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	cred, err := azidentity.NewDefaultAzureCredential(&azidentity.DefaultAzureCredentialOptions{
		ClientOptions:            azcore.ClientOptions{Transport: &http.Client{Transport: tr}},
		DisableInstanceDiscovery: LocalAuthority(os.Getenv("AZURE_AUTHORITY_HOST")),
	})
	if err != nil {
		return nil, err
	}
	return &credential{cred: cred}, nil
}

// LocalAuthority reports whether an authority host (AZURE_AUTHORITY_HOST)
// is on this machine: localhost, 127.0.0.0/8 or ::1.
func LocalAuthority(host string) bool {
	u, err := url.Parse(strings.TrimSpace(host))
	if err != nil || u.Hostname() == "" {
		return false
	}
	h := u.Hostname()
	ip := net.ParseIP(h)
	return strings.EqualFold(h, "localhost") || (ip != nil && ip.IsLoopback())
}

// GetToken implements azcore.TokenCredential, keeping the token's claims.
func (c *credential) GetToken(ctx context.Context, opts policy.TokenRequestOptions) (azcore.AccessToken, error) {
	tk, err := c.cred.GetToken(ctx, opts)
	if err == nil {
		if info, ok := tokenInfo(tk.Token); ok {
			c.last.Store(&info)
		}
	}
	return tk, err
}

// tokenInfo reads a JWT's claims, unverified: what the token says of
// itself, for explaining a refusal.
func tokenInfo(token string) (TokenInfo, bool) {
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		return TokenInfo{}, false
	}
	var info TokenInfo
	info.Audience, _ = claims.GetAudience()
	info.Issuer, _ = claims.GetIssuer()
	if exp, _ := claims.GetExpirationTime(); exp != nil {
		info.Expires = exp.Time
	}
	if nbf, _ := claims.GetNotBefore(); nbf != nil {
		info.NotBefore = nbf.Time
	}
	info.AppID, _ = claims["azp"].(string)
	if info.AppID == "" {
		info.AppID, _ = claims["appid"].(string)
	}
	info.ObjectID, _ = claims["oid"].(string)
	return info, true
}

// LastToken returns what the last access token the service signed in with
// said of itself; false when the target is not signed in with a token or
// none was obtained yet.
func (s *Service) LastToken() (TokenInfo, bool) {
	if s.cred == nil {
		return TokenInfo{}, false
	}
	if p := s.cred.last.Load(); p != nil {
		return *p, true
	}
	return TokenInfo{}, false
}

// signinCause describes a failure to obtain a token in one line: Entra's
// error description (its AADSTS code and words, without trace ids) when
// the authority answered, or which credentials DefaultAzureCredential
// found none of. "" when err is not a sign-in failure.
func signinCause(err error) string {
	var af *azidentity.AuthenticationFailedError
	if errors.As(err, &af) {
		if d := aadDescription(responseBody(af.RawResponse)); d != "" {
			return "signing in with DefaultAzureCredential failed: " + d
		}
		return "signing in with DefaultAzureCredential failed: " + oneLine(scrub(err.Error(), nil), "no detail")
	}
	if strings.Contains(err.Error(), "DefaultAzureCredential: failed to acquire a token") {
		return "DefaultAzureCredential found no credential: set AZURE_TENANT_ID, AZURE_CLIENT_ID and " +
			"AZURE_CLIENT_SECRET (or AZURE_FEDERATED_TOKEN_FILE for workload identity), or sign in with az login"
	}
	return ""
}

// aadDescription is an Entra error answer's error_description up to its
// trace ids ("AADSTS7000215: Invalid client secret provided. ...").
func aadDescription(body []byte) string {
	m := jsontext.Members(body)
	for {
		n, v, ok := m.Next()
		if !ok {
			return ""
		}
		if string(n) == "error_description" && kindOf(v) == keyString {
			d, _ := jsontext.Decode(v)
			if i := strings.Index(d, " Trace ID:"); i > 0 {
				d = d[:i]
			}
			return oneLine(scrub(d, nil), "")
		}
	}
}
