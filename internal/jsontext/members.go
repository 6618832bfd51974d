package jsontext

// Iter iterates over the members of one JSON object without decoding it
// or allocating: names come back raw (between the quotes, escapes
// untouched) and values as their raw JSON text, in the order they come
// (duplicates too). It is for text known to be JSON (a service's answer,
// a body this module wrote): it checks the object's framing and skips
// values by their brackets and quotes without validating them, so
// malformed framing ends the iteration with Bad set, and malformed values
// inside it may go unnoticed. ScanObject validates.
type Iter struct {
	b    []byte
	i, n int
	done bool
	bad  bool
}

// Members starts iterating the object b (surrounding white space allowed).
func Members(b []byte) Iter {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return Iter{done: true, bad: true}
	}
	return Iter{b: b, i: i + 1}
}

// Bad reports whether the iteration ended on malformed text (or text that
// is not an object).
func (m *Iter) Bad() bool { return m.bad }

// Next returns the next member; ok is false at the end or on malformed text.
func (m *Iter) Next() (name, value []byte, ok bool) {
	if m.done {
		return nil, nil, false
	}
	b := m.b
	i := SkipSpace(b, m.i)
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
			i = SkipSpace(b, i+1)
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
	i = SkipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return m.fail()
	}
	i = SkipSpace(b, i+1)
	vend := valueEnd(b, i)
	if vend < 0 {
		return m.fail()
	}
	m.i, m.n = vend, m.n+1
	return name, b[i:vend], true
}

func (m *Iter) fail() ([]byte, []byte, bool) {
	m.done, m.bad = true, true
	return nil, nil, false
}

// SkipSpace returns the index of the first byte from b[i] on that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
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
