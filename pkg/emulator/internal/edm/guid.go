package edm

import (
	"encoding/hex"
	"strings"
)

// Hex digits, as GUIDs are written in either case.
const (
	lowerHex = "0123456789abcdef"
	upperHex = "0123456789ABCDEF"
)

// ValidGUID reports whether s is a GUID: 8-4-4-4-12 hex digits, in any
// case.
func ValidGUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// CompactGUID returns the bytes of a GUID written in one case, and
// whether that case is upper; false for a GUID in mixed case or any other
// form, which is stored as written.
func CompactGUID(s string) (g [16]byte, upper, ok bool) {
	if !ValidGUID(s) {
		return g, false, false
	}
	lower := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		}
	}
	if lower && upper {
		return g, false, false
	}
	hexes := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36]
	if _, err := hex.Decode(g[:], []byte(hexes)); err != nil {
		return g, false, false
	}
	return g, upper, true
}

// ParseGUID reads a GUID in any of the forms the Table service reads an
// Edm.Guid value in — OData .NET Libraries 5.x convert the JSON string
// with new Guid(string), which takes, in any case and between white
// space, 32 hex digits ("N"), 8-4-4-4-12 digits with dashes ("D"), and
// the same in braces or in parentheses ("B", "P") — and returns its 16
// bytes, the first as the text's first two digits. The hexadecimal
// structure form ("X", {0x…,0x…,…}) is not read.
func ParseGUID(s string) (g [16]byte, ok bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	if len(s) == 38 && (s[0] == '{' && s[37] == '}' || s[0] == '(' && s[37] == ')') {
		s = s[1:37]
	}
	var hexes [32]byte
	switch {
	case len(s) == 32:
		copy(hexes[:], s)
	case ValidGUID(s):
		copy(hexes[0:], s[0:8])
		copy(hexes[8:], s[9:13])
		copy(hexes[12:], s[14:18])
		copy(hexes[16:], s[19:23])
		copy(hexes[20:], s[24:36])
	default:
		return g, false
	}
	if _, err := hex.Decode(g[:], hexes[:]); err != nil {
		return g, false
	}
	return g, true
}

// AppendGUID writes 16 bytes as a GUID, 8-4-4-4-12 hex digits, as
// CompactGUID reads it.
func AppendGUID(dst, g []byte, upper bool) []byte {
	digits := lowerHex
	if upper {
		digits = upperHex
	}
	for i, b := range g {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, digits[b>>4], digits[b&0xf])
	}
	return dst
}

// AppendHex appends v in width lowercase hex digits, zero-padded (v must
// fit): a part of a GUID.
func AppendHex(dst []byte, v uint64, width int) []byte {
	for i := width - 1; i >= 0; i-- {
		dst = append(dst, lowerHex[(v>>(4*uint(i)))&0xf])
	}
	return dst
}
