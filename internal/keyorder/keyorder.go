// Package keyorder orders strings as Azure Table storage orders its keys:
// by their UTF-16 code units, as .NET's ordinal comparison does
// (String.CompareOrdinal). Go compares strings by their UTF-8 bytes, which
// is code point order; the two agree but for characters outside the basic
// plane (U+10000 and above), which UTF-16 writes as surrogate pairs
// (D800–DFFF) and so orders before the basic plane's U+E000–U+FFFF, where
// UTF-8 orders them after: U+1F642 (D83D DE42) sorts before U+FFEE.
//
// Azure keeps that order: NuGet Insights' table prefix scanner, tested
// against Azure Table storage (test/Logic.Test/TablePrefixScan/
// TablePrefixScannerTest.cs, HandlesSurrogatePairs), finds keys that begin
// with U+10437 and U+24B62 by `PartitionKey gt 'P' and PartitionKey lt
// 'P\uffff'`, which holds them only in UTF-16 order, and expects them in
// String.CompareOrdinal order.
//
// In UTF-8, U+E000–U+FFFF are the characters whose first byte is 0xEE or
// 0xEF, and those outside the basic plane begin with 0xF0–0xF4; no other
// byte value marks the two apart. So the order is the lexicographic order
// of the strings' bytes under Weight, which moves 0xEE and 0xEF above every
// other byte and keeps the rest in order: at the first byte where two valid
// strings differ, either both bytes continue the same character (below
// 0xC0, unchanged), or they begin two characters, which Weight orders as
// UTF-16 does. Strings that are not valid UTF-8 are ordered by the same
// rule, a total order too.
//
// It is shared by the embedded service (its store, filters, continuations
// and SAS key ranges) and the load generator's models of a table, which
// must order keys as the service does. It imports the standard library
// only.
package keyorder

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// weights is Weight for every byte value.
var weights = func() (w [256]byte) {
	for b := range 256 {
		switch {
		case b == 0xEE || b == 0xEF:
			w[b] = byte(b + 0x10) // 0xFE, 0xFF
		case b >= 0xF0:
			w[b] = byte(b - 2)
		default:
			w[b] = byte(b)
		}
	}
	return w
}()

// Weight is the rank of byte b in the order: b itself below 0xEE, then
// 0xF0–0xFF, then 0xEE and 0xEF.
func Weight(b byte) byte { return weights[b] }

// Compare returns -1, 0 or +1 as a orders before, with or after b.
func Compare(a, b string) int {
	i := mismatch(a, b)
	switch {
	case i < len(a) && i < len(b):
		if weights[a[i]] < weights[b[i]] {
			return -1
		}
		return +1
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return +1
	}
	return 0
}

// Less reports whether a orders before b.
func Less(a, b string) bool { return Compare(a, b) < 0 }

// Max returns the later of a and b in the order.
func Max(a, b string) string {
	if Less(a, b) {
		return b
	}
	return a
}

// mismatch is the index of the first byte where a and b differ, or the
// length of the shorter when one begins the other.
func mismatch(a, b string) int {
	n := min(len(a), len(b))
	x := unsafe.Slice(unsafe.StringData(a), len(a))[:n]
	y := unsafe.Slice(unsafe.StringData(b), len(b))[:n]
	i := 0
	for len(x) >= 8 && len(y) >= 8 {
		if d := binary.LittleEndian.Uint64(x) ^ binary.LittleEndian.Uint64(y); d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
		x, y, i = x[8:], y[8:], i+8
	}
	for k := range x {
		if k >= len(y) || x[k] != y[k] {
			return i + k
		}
	}
	return n
}

// PrefixEnd is the least string after every string that begins with s in
// the order ("" when there is none: an open bound), so that `RowKey ge s
// and RowKey lt PrefixEnd(s)` holds exactly the keys beginning with s. For
// valid UTF-8 it is valid UTF-8: s with its last character followed, in
// UTF-16 order, by the next one (after U+D7FF the first pair, U+10000;
// after U+10FFFF, U+E000; U+FFFF carries into the character before).
// Other bytes step to the next byte by Weight.
func PrefixEnd(s string) string {
	for len(s) > 0 {
		r, n := utf8.DecodeLastRuneInString(s)
		head := s[:len(s)-n]
		if r == utf8.RuneError && n == 1 {
			if w := weights[s[len(s)-1]]; w < 0xFF {
				return head + string([]byte{byteOfWeight[w+1]})
			}
			s = head
			continue
		}
		switch {
		case r == 0xD7FF:
			return head + "\U00010000"
		case r == 0x10FFFF:
			return head + "\uE000"
		case r != 0xFFFF:
			return head + string(r+1)
		}
		s = head
	}
	return ""
}

// byteOfWeight is Weight's inverse.
var byteOfWeight = func() (b [256]byte) {
	for c := range 256 {
		b[weights[c]] = byte(c)
	}
	return b
}()
