package emulator

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Cross-origin resource sharing as the Table service does it (REST
// "Cross-Origin Resource Sharing (CORS) support for the Azure Storage
// services"): up to five rules, set with the service's properties; a
// preflight OPTIONS request is answered from the first rule that allows
// its origin, method and headers, without authentication; an answer to a
// request with an Origin that a rule allows carries the CORS headers.

// CORS rule limits: five rules; in a rule, up to 64 allowed origins of at
// most 256 characters each, or *; methods among the service's; up to 64
// allowed and 64 exposed headers, of which two may be prefixes ending in
// *, of at most 256 characters each; a MaxAgeInSeconds of at least 0.
const (
	maxCorsRules    = 5
	maxCorsItems    = 64
	maxCorsPrefixes = 2
	maxCorsItemLen  = 256
)

// corsMethods are the methods a rule may allow.
var corsMethods = []string{"DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH"}

// corsList splits a rule's comma-separated list, each item trimmed.
func corsList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// validCorsRule checks a rule against the limits.
func validCorsRule(r corsRuleXML) bool {
	origins, methods := corsList(r.AllowedOrigins), corsList(r.AllowedMethods)
	if len(origins) == 0 || len(origins) > maxCorsItems || len(methods) == 0 {
		return false
	}
	for _, o := range origins {
		if len(o) > maxCorsItemLen {
			return false
		}
	}
	for _, m := range methods {
		if !slices.Contains(corsMethods, strings.ToUpper(m)) {
			return false
		}
	}
	if age, err := strconv.Atoi(strings.TrimSpace(r.MaxAgeInSeconds)); err != nil || age < 0 {
		return false
	}
	return validCorsHeaders(r.AllowedHeaders) && validCorsHeaders(r.ExposedHeaders)
}

// validCorsHeaders checks a rule's list of headers.
func validCorsHeaders(s string) bool {
	items, prefixes := corsList(s), 0
	for _, h := range items {
		if len(h) > maxCorsItemLen {
			return false
		}
		if strings.HasSuffix(h, "*") && h != "*" {
			prefixes++
		}
	}
	return len(items)-prefixes <= maxCorsItems && prefixes <= maxCorsPrefixes
}

// allowsOrigin reports whether rule r allows origin: * or the origin
// itself, in any case.
func (r corsRuleXML) allowsOrigin(origin string) bool {
	for _, o := range corsList(r.AllowedOrigins) {
		if o == "*" || strings.EqualFold(o, origin) {
			return true
		}
	}
	return false
}

// allowsMethod reports whether rule r allows method.
func (r corsRuleXML) allowsMethod(method string) bool {
	return slices.ContainsFunc(corsList(r.AllowedMethods), func(m string) bool { return strings.EqualFold(m, method) })
}

// allowsHeaders reports whether rule r allows every header of a
// preflight's Access-Control-Request-Headers: each named by the rule, or
// beginning with one of its prefixes (x-ms-meta-*), or * for any.
func (r corsRuleXML) allowsHeaders(requested string) bool {
	allowed := corsList(r.AllowedHeaders)
	for _, h := range corsList(requested) {
		if !slices.ContainsFunc(allowed, func(a string) bool { return headerMatches(a, h) }) {
			return false
		}
	}
	return true
}

// headerMatches reports whether a rule's header item names header.
func headerMatches(item, header string) bool {
	if prefix, ok := strings.CutSuffix(item, "*"); ok {
		return len(header) >= len(prefix) && strings.EqualFold(header[:len(prefix)], prefix)
	}
	return strings.EqualFold(item, header)
}

// Preflight refusals: without Origin or Access-Control-Request-Method, 400;
// when no rule allows the request (or there is none), 403, "CORS not
// enabled or no matching rule found for this request." in Azure's words
// (azure-sdk-for-js issue #5095 quotes Azure's answer). The codes and the
// 400's words are inferred (Azurite's; the REST reference gives the
// statuses only).
var (
	errCorsHeaders = &apiError{400, "InvalidHeaderValue", "A required CORS header is not present."}
	errCorsNoMatch = &apiError{403, "CorsPreflightFailure", "CORS not enabled or no matching rule found for this request."}
)

// The values of CORS headers every answer shares (see headers.go), and the
// header names Go's canonical form writes otherwise than Azure.
var (
	hdrCredentials  = []string{"true"}
	hdrVaryOrigin   = []string{"Origin"}
	azureHeaderCase = map[string]string{"Etag": "ETag"}
)

// preflight answers an OPTIONS request from the CORS rules.
func (s *Server) preflight(r *http.Request) reply {
	origin, method := reqHeader(r, "Origin"), reqHeader(r, "Access-Control-Request-Method")
	if origin == "" || method == "" {
		return errReply(errCorsHeaders, "")
	}
	requested := reqHeader(r, "Access-Control-Request-Headers")
	for _, rule := range s.serviceProperties().Cors.Rules {
		if rule.allowsOrigin(origin) && rule.allowsMethod(method) && rule.allowsHeaders(requested) {
			h := map[string]string{"Access-Control-Allow-Origin": origin, "Access-Control-Allow-Methods": method,
				"Access-Control-Max-Age": strings.TrimSpace(rule.MaxAgeInSeconds), "Access-Control-Allow-Credentials": "true"}
			if requested != "" {
				h["Access-Control-Allow-Headers"] = requested
			}
			return reply{status: http.StatusOK, header: h}
		}
	}
	return errReply(errCorsNoMatch, "")
}

// setCorsHeaders adds to an answer h to a request with an Origin the CORS
// headers of the first rule allowing its origin and method: the origin
// (* for a rule allowing any), with credentials and Vary: Origin unless
// the rule allows any origin, and the exposed headers — the rule's named
// ones, and the answer's headers that begin with one of its prefixes.
// extra names headers the answer will carry that h does not hold yet.
// When rules exist but none allows the request, the answer says Vary:
// Origin only.
func (s *Server) setCorsHeaders(h http.Header, r *http.Request, extra ...string) {
	origin := reqHeader(r, "Origin")
	if origin == "" || r.Method == http.MethodOptions { // a preflight's answer has its own
		return
	}
	p := s.service.Load()
	if p == nil || len(p.Cors.Rules) == 0 {
		return
	}
	for _, rule := range p.Cors.Rules {
		if !rule.allowsOrigin(origin) || !rule.allowsMethod(r.Method) {
			continue
		}
		h["Access-Control-Expose-Headers"] = []string{exposedHeaders(rule, h, extra)}
		if slices.Contains(corsList(rule.AllowedOrigins), "*") {
			h["Access-Control-Allow-Origin"] = []string{"*"}
			return
		}
		h["Access-Control-Allow-Origin"] = []string{origin}
		h["Access-Control-Allow-Credentials"], h["Vary"] = hdrCredentials, hdrVaryOrigin
		return
	}
	h["Vary"] = hdrVaryOrigin
}

// exposedHeaders is a rule's Access-Control-Expose-Headers for an answer
// with headers h and extra: the answer's headers its prefixes name (as
// Azure writes their names: x-ms-* in lower case), then its named ones.
func exposedHeaders(rule corsRuleXML, h http.Header, extra []string) string {
	names := extra
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	var out []string
	for _, item := range corsList(rule.ExposedHeaders) {
		if !strings.HasSuffix(item, "*") {
			continue
		}
		for _, n := range names {
			if headerMatches(item, n) && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, n) }) {
				out = append(out, azureCase(n))
			}
		}
	}
	for _, item := range corsList(rule.ExposedHeaders) {
		if !strings.HasSuffix(item, "*") && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, item) }) {
			out = append(out, item)
		}
	}
	return strings.Join(out, ",")
}

// azureCase writes a header name as Azure's answers do.
func azureCase(name string) string {
	if strings.HasPrefix(strings.ToLower(name), "x-ms-") {
		return strings.ToLower(name)
	}
	if c, ok := azureHeaderCase[name]; ok {
		return c
	}
	return name
}
