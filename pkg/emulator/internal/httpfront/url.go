package httpfront

import (
	"net/url"
	"strings"
)

// requestURL sets *u to what url.ParseRequestURI makes of uri; false
// when that fails. A path of plain bytes (no %, no byte that makes
// ParseRequestURI keep a RawPath, see plainPathByte) with any query, the
// requests SDKs send but for their keys in parentheses and quotes, is
// split without it; anything else is parsed by it.
func requestURL(u *url.URL, uri string) bool {
	path, query, hasQuery := strings.Cut(uri, "?")
	if len(path) == 0 || path[0] != '/' || strings.Contains(path, "%") || hasCTL(query) {
		return parseRequestURL(u, uri)
	}
	raw := ""
	for i := 0; i < len(path); i++ {
		switch c := path[i]; plainPathByte[c] {
		case 0: // a byte that url does not take as it is
			return parseRequestURL(u, uri)
		case 2: // taken, but escaped by EscapedPath: the path is kept raw
			raw = path
		}
	}
	*u = url.URL{Path: path, RawPath: raw, RawQuery: query, ForceQuery: hasQuery && query == ""}
	return true
}

// hasCTL reports whether s holds an ASCII control byte, which
// url.ParseRequestURI refuses anywhere.
func hasCTL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// parseRequestURL is requestURL by url.ParseRequestURI.
func parseRequestURL(u *url.URL, uri string) bool {
	p, err := url.ParseRequestURI(uri)
	if err != nil {
		return false
	}
	*u = *p
	return true
}

// plainPathByte classifies a path's bytes for requestURL: 1 for those
// url.URL.EscapedPath writes as they are (letters, digits, "-_.~$&+,/:;=@"),
// 2 for those it would escape but that a request's path may carry as they
// are ("!'()*", which make ParseRequestURI keep the path as RawPath), 0
// for the rest (%, controls, spaces, brackets, non-ASCII, ...: parsed by
// url).
var plainPathByte = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1, 1
	}
	for _, c := range "-_.~$&+,/:;=@" {
		t[c] = 1
	}
	for _, c := range "!'()*" {
		t[c] = 2
	}
	return t
}()
