package jsontext

import "encoding/json"

// maxNesting is how deep encoding/json lets arrays and objects nest.
const maxNesting = 10000

// scanner validates JSON as encoding/json's scanner does (RFC 8259;
// bytes of 0x80 and up are allowed in strings, valid UTF-8 or not) and
// splits the top-level object into members.
type scanner struct {
	b []byte
	i int
}

func (sc *scanner) space() { sc.i = SkipSpace(sc.b, sc.i) }

// object reads the object at sc.i, nested depth deep (the top level is 1),
// appending its members to into when it is not nil.
func (sc *scanner) object(depth int, into *[]Member) bool {
	if depth > maxNesting {
		return false
	}
	sc.i++ // '{'
	sc.space()
	if sc.i < len(sc.b) && sc.b[sc.i] == '}' {
		sc.i++
		return true
	}
	for {
		start := sc.i
		escaped, ok := sc.str()
		if !ok {
			return false
		}
		nameRaw := sc.b[start:sc.i]
		sc.space()
		if sc.i >= len(sc.b) || sc.b[sc.i] != ':' {
			return false
		}
		sc.i++
		sc.space()
		vstart := sc.i
		if !sc.value(depth) {
			return false
		}
		if into != nil {
			name, ok := decodeName(nameRaw, escaped)
			if !ok {
				return false
			}
			*into = append(*into, Member{Name: name, Raw: sc.b[vstart:sc.i], key: nameKey(name)})
		}
		if more, ok := sc.next('}'); !more {
			return ok
		}
	}
}

// next reads what follows an element of a container: a comma, when more
// follow, or the container's closing byte.
func (sc *scanner) next(closing byte) (more, ok bool) {
	sc.space()
	if sc.i >= len(sc.b) {
		return false, false
	}
	switch sc.b[sc.i] {
	case ',':
		sc.i++
		sc.space()
		return true, true
	case closing:
		sc.i++
		return false, true
	}
	return false, false
}

// decodeName is a member name's value: the bytes between the quotes when
// they are plain ASCII, else what encoding/json makes of the string
// (escapes decoded, invalid UTF-8 replaced).
func decodeName(raw []byte, escaped bool) (string, bool) {
	inner := raw[1 : len(raw)-1]
	if !escaped && !hasHighBit(inner) {
		return memberNames.get(inner), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// value reads the value at sc.i, inside containers depth deep.
func (sc *scanner) value(depth int) bool {
	if sc.i >= len(sc.b) {
		return false
	}
	switch c := sc.b[sc.i]; {
	case c == '"':
		_, ok := sc.str()
		return ok
	case c == '{':
		return sc.object(depth+1, nil)
	case c == '[':
		return sc.array(depth + 1)
	case c == 't':
		return sc.literal("true")
	case c == 'f':
		return sc.literal("false")
	case c == 'n':
		return sc.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return sc.number()
	}
	return false
}

func (sc *scanner) array(depth int) bool {
	if depth > maxNesting {
		return false
	}
	sc.i++ // '['
	sc.space()
	if sc.i < len(sc.b) && sc.b[sc.i] == ']' {
		sc.i++
		return true
	}
	for {
		if !sc.value(depth) {
			return false
		}
		if more, ok := sc.next(']'); !more {
			return ok
		}
	}
}

func (sc *scanner) literal(word string) bool {
	if string(sc.b[sc.i:min(len(sc.b), sc.i+len(word))]) != word {
		return false
	}
	sc.i += len(word)
	return true
}

// str reads the string at sc.i and reports whether it holds escapes.
func (sc *scanner) str() (escaped, ok bool) {
	if sc.i >= len(sc.b) || sc.b[sc.i] != '"' {
		return false, false
	}
	i := sc.i + 1
	for i < len(sc.b) {
		i += plainPrefix(sc.b[i:])
		if i >= len(sc.b) {
			break
		}
		switch c := sc.b[i]; {
		case c == '"':
			sc.i = i + 1
			return escaped, true
		case c < 0x20:
			return false, false
		}
		escaped = true
		if i+1 >= len(sc.b) {
			return false, false
		}
		switch sc.b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(sc.b) {
				return false, false
			}
			for _, h := range sc.b[i+2 : i+6] {
				if !isHex(h) {
					return false, false
				}
			}
			i += 6
		default:
			return false, false
		}
	}
	return false, false
}

// plainByte tells the bytes a JSON string holds as they are: all but the
// quote, the backslash and the control characters.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (sc *scanner) number() bool {
	b, i := sc.b, sc.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		if i+1 >= len(b) || !isDigit(b[i+1]) {
			return false
		}
		i = digits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		i = digits(b, i)
	}
	sc.i = i
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits returns the index after the run of digits at b[i].
func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}
