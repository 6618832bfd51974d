package emulator

// A JSON validator with encoding/json's rules (RFC 8259, any byte from
// 0x20 up inside strings, at most maxDepth nested arrays and objects), for
// scanObject: one pass that finds where each value ends, where
// json.Valid's state machine costs a call per byte.

// maxDepth is encoding/json's limit on nesting.
const maxDepth = 10000

// validValue checks the value at b[i], inside depth arrays and objects,
// and returns the index after it.
func validValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; c {
	case '"':
		return validString(b, i)
	case '{', '[':
		if depth++; depth > maxDepth {
			return 0, false
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		if i = skipSpace(b, i+1); i < len(b) && b[i] == closing {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return 0, false
				}
				if i, ok = validString(b, i); !ok {
					return 0, false
				}
				if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
					return 0, false
				}
				i = skipSpace(b, i+1)
			}
			if i, ok = validValue(b, i, depth); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i >= len(b) {
				return 0, false
			}
			if b[i] == closing {
				return i + 1, true
			}
			if b[i] != ',' {
				return 0, false
			}
			i = skipSpace(b, i+1)
		}
	case 't':
		return validLiteral(b, i, "true")
	case 'f':
		return validLiteral(b, i, "false")
	case 'n':
		return validLiteral(b, i, "null")
	}
	return validNumber(b, i)
}

func validLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// validString checks the string at b[i] and returns the index after it.
func validString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); {
		switch c := b[j]; {
		case c == '"':
			return j + 1, true
		case c < 0x20:
			return 0, false
		case c != '\\':
			j++
			continue
		}
		if j+1 >= len(b) {
			return 0, false
		}
		switch b[j+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j += 2
		case 'u':
			if len(b)-j < 6 || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
				return 0, false
			}
			j += 6
		default:
			return 0, false
		}
	}
	return 0, false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// validNumber checks the number at b[i] and returns the index after it.
func validNumber(b []byte, i int) (int, bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && b[j] >= '1' && b[j] <= '9':
		for j < len(b) && isDigit(b[j]) {
			j++
		}
	default:
		return 0, false
	}
	if j < len(b) && b[j] == '.' {
		if j++; j >= len(b) || !isDigit(b[j]) {
			return 0, false
		}
		for j < len(b) && isDigit(b[j]) {
			j++
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		if j++; j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j >= len(b) || !isDigit(b[j]) {
			return 0, false
		}
		for j < len(b) && isDigit(b[j]) {
			j++
		}
	}
	return j, true
}
