package table

import (
	"errors"
	"testing"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// The AuthenticationErrorDetail is read from each form Azure and the
// embedded service write it in.
func TestAuthDetail(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"XML", `<?xml version="1.0" encoding="utf-8"?><Error><Code>InvalidAuthenticationInfo</Code><Message>Server failed to authenticate the request.</Message><AuthenticationErrorDetail>Issuer validation failed. Issuer did not match.</AuthenticationErrorDetail></Error>`,
			"Issuer validation failed. Issuer did not match."},
		{"JSON member", `{"code":"InvalidAuthenticationInfo","authenticationErrorDetail":"Lifetime validation failed. The token is expired."}`,
			"Lifetime validation failed. The token is expired."},
		{"message line", `{"odata.error":{"code":"InvalidAuthenticationInfo","message":{"lang":"en-US","value":"Server failed to authenticate the request.\nAuthenticationErrorDetail:Audience validation failed. Audience did not match.\nRequestId:1\nTime:2026"}}}`,
			"Audience validation failed. Audience did not match."},
		{"none", odataError("AuthenticationFailed", "Server failed to authenticate the request."), ""},
	} {
		if got := authDetail([]byte(c.body)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestAccessDenied(t *testing.T) {
	for _, c := range []struct {
		res  Result
		want bool
	}{
		{Result{Outcome: outcome.New(401, "InvalidAuthenticationInfo")}, true},
		{Result{Outcome: outcome.New(403, "AuthorizationPermissionMismatch")}, true},
		{Result{Outcome: outcome.New(403, "AuthenticationFailed")}, true},
		{Result{Outcome: outcome.New(403, "Forbidden")}, false}, // Cosmos DB's full logical partition
		{Result{Outcome: outcome.New(404, "TableNotFound")}, false},
		{Result{Outcome: outcome.Outcome{Class: outcome.Transport}, Err: errors.Join(ErrNoAnswer, ErrSignIn)}, true},
		{Result{Outcome: outcome.Outcome{Class: outcome.Transport}, Err: ErrNoAnswer}, false},
	} {
		if got := c.res.AccessDenied(); got != c.want {
			t.Errorf("%v %v: %v, want %v", c.res.Outcome, c.res.Err, got, c.want)
		}
	}
}

func TestLocalAuthority(t *testing.T) {
	for host, want := range map[string]bool{
		"https://127.0.0.1:8443/": true, "https://localhost": true, "https://[::1]:9/": true,
		"https://login.microsoftonline.com/": false, "": false, "https://10.0.0.1/": false,
	} {
		if got := LocalAuthority(host); got != want {
			t.Errorf("%q: %v", host, got)
		}
	}
}
