package table

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// AccessDenied reports whether a Result is a refusal of who the client is
// or of what it may do, which no retry cures: no token could be obtained
// (ErrSignIn), 401 (InvalidAuthenticationInfo, NoAuthenticationInformation:
// a refused token), or 403 AuthenticationFailed (a wrong key or signature,
// an expired SAS) or Authorization* (the identity or SAS lacks a
// permission).
func (r Result) AccessDenied() bool {
	o := r.Outcome
	switch {
	case errors.Is(r.Err, ErrSignIn), o.Status == http.StatusUnauthorized:
		return true
	case o.Status == http.StatusForbidden:
		return o.Code == "AuthenticationFailed" || strings.HasPrefix(o.Code, "Authorization")
	}
	return false
}

// write reports whether an operation of the Result's kind needs a
// permission beyond reading; what is the operation.
func isWrite(what string) bool { return what != "" && what != "read" }

// Explain says in one line why a refusal no retry cures happened, in the
// terms of the target's credential, for a user to act on; "" for any
// other Result. what names the refused operation ("create table",
// "insert", "read"...); table is the table it addressed.
//
// For a token: a write refused with 403 AuthorizationPermissionMismatch
// is checked with one read (is table listed?) to tell "may read but not
// write" from "may not even read"; a refused token is explained by
// Azure's AuthenticationErrorDetail and what the token says of itself
// (its audience, its expiry), never by the token.
func (s *Service) Explain(ctx context.Context, res Result, what, table string) string {
	if !res.AccessDenied() {
		return ""
	}
	if errors.Is(res.Err, ErrSignIn) {
		return res.Err.Error()
	}
	token := s.cred != nil
	switch {
	case token && res.Outcome.Status == http.StatusUnauthorized:
		return s.tokenRefused(res)
	case token && res.Outcome.Code == "AuthorizationPermissionMismatch" && isWrite(what):
		if s.mayRead(ctx, table) {
			return fmt.Sprintf("the identity may read but not write this table (%s refused: %v); give it the Storage Table Data Contributor role%s",
				what, res.Err, s.principal())
		}
		return fmt.Sprintf("the identity may neither read nor write this table (%s refused: %v); give it the Storage Table Data Contributor role%s",
			what, res.Err, s.principal())
	case token && strings.HasPrefix(res.Outcome.Code, "Authorization"):
		return fmt.Sprintf("the identity may not %s this table (%v); give it the Storage Table Data Contributor role%s", what, res.Err, s.principal())
	case s.target.sas != "" && strings.HasPrefix(res.Outcome.Code, "Authorization"):
		return fmt.Sprintf("the SAS does not allow %s on this table (%v)", what, res.Err)
	}
	return fmt.Sprintf("%s refused: %v", what, res.Err)
}

// mayRead reports whether the credential may read table: one query of the
// table list.
func (s *Service) mayRead(ctx context.Context, table string) bool {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	_, res := s.TableExists(ctx, table)
	return res.Outcome.Class == 0 // outcome.OK
}

// principal names the token's principal for a role assignment.
func (s *Service) principal() string {
	info, ok := s.LastToken()
	switch {
	case !ok:
		return ""
	case info.ObjectID != "":
		return " (principal " + info.ObjectID + ", application " + info.AppID + ")"
	}
	return " (application " + info.AppID + ")"
}

// tokenRefused explains a 401: the service's detail, and what the token
// said of the check that failed.
func (s *Service) tokenRefused(res Result) string {
	detail := res.Detail
	info, ok := s.LastToken()
	var why string
	switch {
	case strings.Contains(detail, "Lifetime validation failed. The token is expired.") || (detail == "" && ok && !info.Expires.IsZero() && time.Now().After(info.Expires)):
		why = "the token has expired"
		if ok && !info.Expires.IsZero() {
			why += fmt.Sprintf(" (it expired at %s, %s before this machine's clock: check the clocks of this machine, the service and the token authority)",
				info.Expires.UTC().Format(time.RFC3339), time.Since(info.Expires).Round(time.Second))
		}
	case strings.Contains(detail, "not yet valid"):
		why = "the token is not valid yet"
		if ok && !info.NotBefore.IsZero() {
			why += " (valid from " + info.NotBefore.UTC().Format(time.RFC3339) + ": check the clocks of this machine, the service and the token authority)"
		}
	case strings.Contains(detail, "Audience validation failed"):
		why = "the token is for another audience"
		if ok {
			why += fmt.Sprintf(" (%s; Azure Storage takes https://storage.azure.com or the account's endpoint)", strings.Join(info.Audience, ", "))
		}
	case strings.Contains(detail, "Issuer validation failed"):
		why = "the token is from an issuer the service does not trust"
		if ok {
			why += " (" + info.Issuer + ": check AZURE_AUTHORITY_HOST and AZURE_TENANT_ID)"
		}
	case detail != "":
		why = "the token was refused (" + detail + ")"
	default:
		why = "the token was refused"
	}
	return fmt.Sprintf("the service refused the identity's token: %s: %v", why, res.Err)
}
