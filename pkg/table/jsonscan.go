package table

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// members iterates over the members of one JSON object without decoding
// it or allocating: names come back raw (between the quotes, escapes
// untouched) and values as their raw JSON text. It trusts the input no
// further than its own bounds: malformed text ends the iteration with bad set.
type members struct {
	b    []byte
	i, n int
	done bool
	bad  bool
}

// objectMembers starts iterating the object b (surrounding white space allowed).
func objectMembers(b []byte) members {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return members{done: true, bad: true}
	}
	return members{b: b, i: i + 1}
}

// next returns the next member; ok is false at the end or on malformed text.
func (m *members) next() (name, value []byte, ok bool) {
	if m.done {
		return nil, nil, false
	}
	b := m.b
	i := skipSpace(b, m.i)
	if i < len(b) && b[i] == '}' && m.n == 0 {
		m.done = true
		return nil, nil, false
	}
	if m.n > 0 {
		switch {
		case i < len(b) && b[i] == '}':
			m.done = true
			return nil, nil, false
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		default:
			return m.fail()
		}
	}
	if i >= len(b) || b[i] != '"' {
		return m.fail()
	}
	end := stringEnd(b, i)
	if end < 0 {
		return m.fail()
	}
	name = b[i+1 : end-1]
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return m.fail()
	}
	i = skipSpace(b, i+1)
	vend := valueEnd(b, i)
	if vend < 0 {
		return m.fail()
	}
	m.i, m.n = vend, m.n+1
	return name, b[i:vend], true
}

func (m *members) fail() ([]byte, []byte, bool) {
	m.done, m.bad = true, true
	return nil, nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the string starting at b[i] == '"', or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index after the JSON value starting at b[i], or -1.
// Nested objects and arrays are skipped by depth, strings by stringEnd.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// stringMember returns the string value of the top-level member name of
// the object obj (the last one, as encoding/json keeps), false when it is
// missing or not a string, or obj is malformed. Names are compared as written.
func stringMember(obj []byte, name string) (string, bool) {
	m := objectMembers(obj)
	var val []byte
	for {
		n, v, ok := m.next()
		if !ok {
			break
		}
		if string(n) == name {
			val = v
		}
	}
	if m.bad || len(val) < 2 || val[0] != '"' {
		return "", false
	}
	return unquote(val)
}

// unquote decodes a raw JSON string (with its quotes). Plain strings, the
// common case, cost one copy; escapes go through encoding/json.
func unquote(raw []byte) (string, bool) {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// EntityKeys returns the PartitionKey and RowKey of an entity's JSON (for
// instance one of a query Page); ok is false when either is missing or not
// a string, or the text is not a well-formed object. Names are compared as
// written (aztables writes them plainly).
func EntityKeys(entity []byte) (pk, rk string, ok bool) {
	m := objectMembers(entity)
	var rawPK, rawRK []byte
	for {
		n, v, more := m.next()
		if !more {
			break
		}
		switch string(n) {
		case "PartitionKey":
			rawPK = v
		case "RowKey":
			rawRK = v
		}
	}
	if m.bad || len(rawPK) < 2 || rawPK[0] != '"' || len(rawRK) < 2 || rawRK[0] != '"' {
		return "", "", false
	}
	pk, ok1 := unquote(rawPK)
	rk, ok2 := unquote(rawRK)
	return pk, rk, ok1 && ok2
}
