package jsontext

import (
	"encoding/json"
	"testing"
)

var literalCases = []string{`""`, `"a"`, `"2025-01-01T00:00:00Z"`, `"a\"b"`, `"\u00e9t\u00e9"`, `"é"`, `12`, `null`, `"`, ``,
	`"a\\"`, "\"\xff\"", `"\ud800"`, `"\x"`, `true`, `"ab`}

// TestDecodeAsEncodingJSON: Decode and StringValue read a literal as
// json.Unmarshal into a string does.
func TestDecodeAsEncodingJSON(t *testing.T) {
	for _, raw := range literalCases {
		var want string
		err := json.Unmarshal([]byte(raw), &want)
		isString := len(raw) > 0 && raw[0] == '"'
		if got, ok := Decode([]byte(raw)); ok != (err == nil && isString) || ok && got != want {
			t.Errorf("Decode(%s) = %q, %v; json.Unmarshal %q, %v", raw, got, ok, want, err)
		}
		if got, ok := StringValue([]byte(raw)); ok != (err == nil) || ok && got != want {
			t.Errorf("StringValue(%s) = %q, %v; json.Unmarshal %q, %v", raw, got, ok, want, err)
		}
	}
}

// TestUnquote: Unquote keeps the bytes of a literal without escapes as
// they are, invalid UTF-8 included, and decodes one with escapes;
// UnquoteView reads what Unquote reads, without a copy when it can.
func TestUnquote(t *testing.T) {
	if s, ok := Unquote([]byte("\"\xff\"")); !ok || s != "\xff" {
		t.Errorf("Unquote of invalid UTF-8 = %q, %v", s, ok)
	}
	if s, ok := Unquote([]byte(`"\u00e9\"\xff"`)); ok || s != "" {
		t.Errorf("Unquote of a bad escape = %q, %v", s, ok)
	}
	if s, ok := Unquote([]byte(`"\u00e9\""`)); !ok || s != `é"` {
		t.Errorf("Unquote of escapes = %q, %v", s, ok)
	}
	for _, raw := range literalCases {
		gs, gok := UnquoteView([]byte(raw))
		ws, wok := Unquote([]byte(raw))
		if gs != ws || gok != wok {
			t.Errorf("%s: %q %v, want (Unquote) %q %v", raw, gs, gok, ws, wok)
		}
	}
	raw := []byte(`"12345"`)
	if n := testing.AllocsPerRun(100, func() { UnquoteView(raw) }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}
