package emulator

import "net/http"

// pathByte marks the bytes a request path may hold as sent, per
// url.URL.EscapedPath's notion of a valid encoding: unreserved characters,
// sub-delims, ':', '@', '/', '[', ']' and '%' (RFC 3986, Appendix A).
var pathByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-_.~!$&'()*+,;=:@/[]%" {
		t[c] = true
	}
	return t
}()

// escapedPath is r.URL.EscapedPath() without its cost: EscapedPath
// returns RawPath when that is a valid encoding and unescapes to Path,
// which it checks by unescaping RawPath into a new string; here the same
// checks are a byte scan and a comparison in place. For a request the
// server parsed, RawPath is the path as sent whenever that differs from
// Path's default escaping (every point read: its parentheses and quotes
// are left as sent).
func escapedPath(r *http.Request) string {
	u := r.URL
	raw := u.RawPath
	if raw == "" || !unescapesTo(raw, u.Path) {
		return u.EscapedPath()
	}
	for i := 0; i < len(raw); i++ {
		if !pathByte[raw[i]] {
			return u.EscapedPath()
		}
	}
	return raw
}

// unescapesTo reports whether raw, its %XX escapes decoded, is path.
func unescapesTo(raw, path string) bool {
	j := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '%' {
			if i+2 >= len(raw) || !isHex(raw[i+1]) || !isHex(raw[i+2]) {
				return false
			}
			c = unhex(raw[i+1])<<4 | unhex(raw[i+2])
			i += 2
		}
		if j >= len(path) || path[j] != c {
			return false
		}
		j++
	}
	return j == len(path)
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// unhex is the value of a hexadecimal digit.
func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
