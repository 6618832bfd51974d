package emulator

import (
	"net"
	"net/http"
	"strings"
)

// Product-style URLs. Azure addresses an account by its host name
// (https://ACCOUNT.table.core.windows.net/Tables), and an emulator by its
// path (http://127.0.0.1:10002/ACCOUNT/Tables). Azurite serves both: a
// request whose host is a name with a dot (not an IP address) takes the
// account from the host's first label, unless --disableProductStyleUrl
// (https://github.com/Azure/Azurite#use-production-style-url). The
// service does the same, with one difference on purpose: a host whose
// first label names no account the service serves is read path-style, so
// a client that reaches the service by a machine's name
// (http://build-01.lan:10002/devstoreaccount1) keeps working.

// hostAccount is the account a product-style host names and whether it is
// the secondary endpoint (ACCOUNT-secondary.table.localhost); ok is false
// for a host that is an IP address, has no dot, or is
// host.docker.internal (Azurite's one name that names no account).
func hostAccount(host string) (account string, secondary, ok bool) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if net.ParseIP(host) != nil || strings.EqualFold(host, "host.docker.internal") {
		return "", false, false
	}
	first, _, dot := strings.Cut(host, ".")
	if !dot || first == "" {
		return "", false, false
	}
	first = strings.ToLower(first)
	if a, ok := strings.CutSuffix(first, secondarySuffix); ok {
		return a, true, true
	}
	return first, false, true
}

// productStyle reports whether r addresses the service by its host
// (ACCOUNT.table.localhost/Tables): product-style URLs are served, and
// the host's first label is this service's account.
func (s *Server) productStyle(r *http.Request) (secondary, ok bool) {
	// Every request asks (resource, then root for each URL it renders):
	// a host that does not begin with the account and a dot or dash (an
	// IP address, localhost, another name) is path-style without
	// parsing it.
	h, n := r.Host, len(s.account)
	if s.pathStyleOnly || len(h) <= n || !strings.EqualFold(h[:n], s.account) || (h[n] != '.' && h[n] != '-') {
		return false, false
	}
	a, sec, ok := hostAccount(h)
	if !ok || a != s.account {
		return false, false
	}
	return sec, true
}

// resource is the path of r after the account, and whether r addresses
// the account's secondary endpoint; ok is false when r names another
// account (by its host or its path's first segment).
func (s *Server) resource(r *http.Request, path string) (rest string, secondary, ok bool) {
	if sec, ok := s.productStyle(r); ok {
		return path, sec, true
	}
	rest, ok = strings.CutPrefix(path, s.prefix)
	secondary = ok && strings.HasPrefix(rest, secondarySuffix)
	if secondary {
		rest = rest[len(secondarySuffix):]
	}
	if !ok || rest != "" && rest[0] != '/' {
		return "", false, false
	}
	return rest, secondary, true
}

// root is what the service's URLs carry after the host for r: "/ACCOUNT"
// path-style, nothing product-style (so odata.metadata and odata.id read
// as Azure's: https://ACCOUNT.table.core.windows.net/$metadata#Tables).
func (s *Server) root(r *http.Request) string {
	if _, ok := s.productStyle(r); ok {
		return ""
	}
	return s.prefix
}
