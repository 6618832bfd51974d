package httpfront

import (
	"net/http"
	"strings"
)

// canonicalNames maps the spellings of the request headers SDKs send and
// of the answer headers the service writes (as listed, lower case,
// canonical) to their canonical keys (http.CanonicalHeaderKey's), found
// without making a string of the name.
var canonicalNames = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"Accept", "Accept-Charset", "Accept-Encoding", "Authorization", "Connection", "Content-Length",
		"Content-MD5", "Content-Type", "DataServiceVersion", "Date", "Expect", "Host", "If-Match",
		"MaxDataServiceVersion", "Prefer", "Traceparent", "Transfer-Encoding", "User-Agent",
		"X-Ms-Client-Request-Id", "X-Ms-Date", "X-Ms-Return-Client-Request-Id", "X-Ms-Version",
		// answers
		"Access-Control-Allow-Credentials", "Access-Control-Allow-Headers", "Access-Control-Allow-Origin",
		"Access-Control-Expose-Headers", "ETag", "Location", "DataServiceId", "Preference-Applied", "Vary",
		"WWW-Authenticate", "X-Content-Type-Options", "X-Ms-Error-Code", "X-Ms-Request-Charge", "X-Ms-Request-Id",
	} {
		c := http.CanonicalHeaderKey(k)
		m[k], m[strings.ToLower(k)], m[c] = c, c, c
	}
	return m
}()

// method is m as a string, without an allocation for the methods of the
// Table protocol.
func method(m []byte) string {
	for _, s := range [...]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodPatch, "MERGE", http.MethodOptions} {
		if string(m) == s {
			return s
		}
	}
	return string(m)
}
