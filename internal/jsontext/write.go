package jsontext

import "unicode/utf8"

// hexDigits writes the \u00XX escapes of control characters.
const hexDigits = "0123456789abcdef"

// safe marks the bytes a string literal holds as they are, in the ASCII
// range: all but the quote, the backslash and the control characters.
// Bytes of 0x80 and up are not safe: they are written as they are only
// as part of valid UTF-8.
var safe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string literal: the quote, the
// backslash, \n, \r and \t escaped by a backslash, the other control
// characters as \u00XX, each byte of invalid UTF-8 as \ufffd (the
// replacement character, which encoding/json decodes it to), and every
// other character as it is (no HTML escaping, U+2028 and U+2029 as they
// are). json.Unmarshal reads it back as s with invalid UTF-8 replaced.
// A string of printable ASCII, the common case, is copied at once.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = AppendChars(dst, s)
	return append(dst, '"')
}

// AppendBytes is AppendString of the bytes s.
func AppendBytes(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst = appendChars(dst, s)
	return append(dst, '"')
}

// AppendChars appends s escaped for the inside of a JSON string literal:
// the characters AppendString writes between the quotes.
func AppendChars(dst []byte, s string) []byte { return appendChars(dst, s) }

// appendChars is AppendChars for a string or bytes.
func appendChars[S ~string | ~[]byte](dst []byte, s S) []byte {
	i := 0
	for i < len(s) && safe[s[i]] {
		i++
	}
	dst = append(dst, s[:i]...)
	for i < len(s) {
		c := s[i]
		if safe[c] {
			dst = append(dst, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		size := runeLen(s[i:])
		if size == 0 {
			dst = append(dst, `\ufffd`...)
			size = 1
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// runeLen is the length of the valid UTF-8 encoding s begins with, 0 when
// it begins with invalid UTF-8 (s[0] is 0x80 or above).
func runeLen[S ~string | ~[]byte](s S) int {
	var b [utf8.UTFMax]byte
	n := copy(b[:], s)
	r, size := utf8.DecodeRune(b[:n])
	if r == utf8.RuneError && size == 1 {
		return 0
	}
	return size
}

// StringLen is len(AppendString(nil, s)), computed without writing it.
func StringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case safe[c]:
			n++
			i++
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n += 2
			i++
		case c < utf8.RuneSelf:
			n += 6
			i++
		default:
			size := runeLen(s[i:])
			if size == 0 {
				n += 6
				size = 1
			} else {
				n += size
			}
			i += size
		}
	}
	return n
}
