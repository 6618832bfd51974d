package jsontext

import (
	"bytes"
	"unicode/utf8"
)

// Verbatim returns the value of the JSON string literal raw when
// AppendString writes that value back as raw, byte for byte, and
// whether raw holds escapes; ok is false for a literal AppendString would
// write otherwise (escapes it would not write, invalid UTF-8) and for
// anything that is not a string literal. Without escapes, the value is
// the bytes between the quotes, a slice of raw.
func Verbatim(raw []byte) (s []byte, escaped, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false, false
	}
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		// No quote, no backslash: AppendString escapes nothing else
		// but control characters and invalid UTF-8.
		if !controlFree(in) {
			return nil, false, false
		}
		return in, false, utf8.Valid(in)
	}
	v, ok := Unquote(raw)
	if !ok || !bytes.Equal(AppendString(nil, v), raw) {
		return nil, false, false
	}
	return []byte(v), true, true
}
