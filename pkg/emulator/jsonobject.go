package emulator

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// member is one member of a JSON object: its name, unescaped, and its
// value's JSON, a slice of the object's.
type member struct {
	name string
	raw  []byte
}

// jsonMembers are a JSON object's members sorted by name, each name once
// with its last value, as encoding/json decodes an object into a map.
type jsonMembers []member

// get returns the value of the member name+suffix (the name joined only
// in comparisons, so a lookup allocates nothing).
func (m jsonMembers) get(name, suffix string) ([]byte, bool) {
	i := sort.Search(len(m), func(i int) bool { return compareJoined(m[i].name, name, suffix) >= 0 })
	if i < len(m) && compareJoined(m[i].name, name, suffix) == 0 {
		return m[i].raw, true
	}
	return nil, false
}

// compareJoined is strings.Compare(a, b1+b2).
func compareJoined(a, b1, b2 string) int {
	if len(a) < len(b1) {
		if c := strings.Compare(a, b1[:len(a)]); c != 0 {
			return c
		}
		return -1 // a proper prefix of b1
	}
	if c := strings.Compare(a[:len(b1)], b1); c != 0 {
		return c
	}
	return strings.Compare(a[len(b1):], b2)
}

// scanObject reads a JSON object's members, the values checked but not
// decoded, as json.Unmarshal into a map reads them (JSON null is an
// object without members) for a fraction of its cost: parseBody reads
// every entity written. It reports false when body is not a JSON object.
func scanObject(body []byte) (jsonMembers, bool) {
	i := skipSpace(body, 0)
	if i == len(body) {
		return nil, false
	}
	if body[i] != '{' {
		end, ok := validValue(body, i, 0)
		return nil, ok && skipSpace(body, end) == len(body) && body[i] == 'n'
	}
	m := make(jsonMembers, 0, 16)
	if i = skipSpace(body, i+1); i < len(body) && body[i] == '}' {
		return m, skipSpace(body, i+1) == len(body)
	}
	for {
		if i >= len(body) || body[i] != '"' {
			return nil, false
		}
		end, ok := validString(body, i)
		if !ok {
			return nil, false
		}
		name := body[i:end]
		if i = skipSpace(body, end); i >= len(body) || body[i] != ':' {
			return nil, false
		}
		i = skipSpace(body, i+1)
		vend, ok := validValue(body, i, 1)
		if !ok {
			return nil, false
		}
		m = append(m, member{name: keyString(name), raw: body[i:vend:vend]})
		if i = skipSpace(body, vend); i < len(body) && body[i] == '}' {
			break
		}
		if i >= len(body) || body[i] != ',' {
			return nil, false
		}
		i = skipSpace(body, i+1)
	}
	if skipSpace(body, i+1) != len(body) {
		return nil, false
	}
	if !slices.IsSortedFunc(m, compareMembers) {
		slices.SortStableFunc(m, compareMembers)
	}
	// Of equal names, keep the last.
	out := m[:0]
	for k, mb := range m {
		if k+1 < len(m) && m[k+1].name == mb.name {
			continue
		}
		out = append(out, mb)
	}
	return out, true
}

func compareMembers(a, b member) int { return strings.Compare(a.name, b.name) }

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// keyString is the value of a member name, raw with its quotes.
func keyString(raw []byte) string {
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		return string(in)
	}
	var s string
	_ = json.Unmarshal(raw, &s) // valid: a string
	return s
}

// jsonString is what json.Unmarshal puts in a string from raw: a string's
// value, or "" for null; false for any other JSON.
func jsonString(raw []byte) (string, bool) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		return keyString(raw), true
	case string(raw) == "null":
		return "", true
	}
	return "", false
}
