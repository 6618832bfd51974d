package jsontext

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
	"unsafe"
)

// Decode returns the value of the JSON string literal raw as
// encoding/json decodes it (escapes decoded, invalid UTF-8 replaced by
// U+FFFD); false when raw is not a well-formed string literal. A string
// without escapes in valid UTF-8, the common case, costs one copy.
func Decode(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// StringValue is what json.Unmarshal makes of a valid JSON value decoded
// into a string: the string's value (as Decode), "" for null (which
// leaves the string as it was), false for any other kind of value.
func StringValue(raw []byte) (string, bool) {
	if string(raw) == "null" {
		return "", true
	}
	return Decode(raw)
}

// Unquote returns the value of the string literal raw, one valid JSON
// value: the bytes between the quotes as they are when it holds no
// escape (invalid UTF-8 kept), else as encoding/json decodes it; false
// when raw is not a string. It is the value as the client sent it, for
// checking and storing it.
func Unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}

// UnquoteView is Unquote without a copy of a string with no escapes: the
// string aliases raw, so it is read while raw is and not kept.
func UnquoteView(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return unsafe.String(&raw[1], len(raw)-2), true
	}
	return Unquote(raw)
}
