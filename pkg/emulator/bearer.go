package emulator

import (
	"net/http"

	"github.com/tablestress/tablestress/pkg/emulator/entra"
)

// errBearerHTTP refuses a bearer token sent over plain http: Azure Storage
// takes Microsoft Entra ID tokens over HTTPS only (REST "Authorize with
// Microsoft Entra ID"), and the SDKs refuse to send one otherwise.
var errBearerHTTP = &apiError{403, "AuthenticationFailed", "Server failed to authenticate the request. Authentication scheme Bearer is not allowed with HTTP."}

// authenticateBearer checks a request's Microsoft Entra ID token (Config.
// Entra) and returns what its principal's roles allow, as a grant for the
// whole account: Storage Table Data Reader reads (r, l), Contributor also
// writes (w, a, u) and deletes (d); the ACL stays the account key's. A
// service without an authority refuses tokens as it refuses an unknown
// signature.
func (s *Server) authenticateBearer(r *http.Request) (*grant, *apiError) {
	switch {
	case s.entra == nil:
		return nil, errAuth
	case s.scheme != "https":
		return nil, errBearerHTTP
	}
	p, ref := s.entra.Authenticate(r.Context(), reqHeader(r, "Authorization"))
	if ref != nil {
		return nil, &apiError{ref.Status, ref.Code, ref.Message + "\nAuthenticationErrorDetail:" + ref.Detail}
	}
	perms := ""
	if p.Read {
		perms += "rl"
	}
	if p.Write {
		perms += "wau"
	}
	if p.Delete {
		perms += "d"
	}
	return &grant{account: true, services: "t", resTypes: "sco", perms: perms}, nil
}

// challenge is the header of an authentication refusal: Azure's bearer
// challenge on a 401, when the service takes tokens.
func (s *Server) challenge(r *http.Request, e *apiError) map[string]string {
	if s.entra == nil || e.status != http.StatusUnauthorized {
		return nil
	}
	return map[string]string{"WWW-Authenticate": s.entra.Challenge(r.Context())}
}

// isBearer reports whether a request carries a bearer token.
func isBearer(r *http.Request) bool { return entra.IsBearer(reqHeader(r, "Authorization")) }
