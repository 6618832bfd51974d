package jsontext

import "encoding/binary"

// Byte scans eight bytes at a time (SIMD within a register): a JSON
// string's bytes are almost all plain, and a 1 KiB property is most of
// what an insert's body parse reads.
const (
	lsbs = 0x0101010101010101 // 0x01 in every byte
	msbs = 0x8080808080808080 // 0x80 in every byte
)

// hasControl reports whether any byte of x is below 0x20 (the test is
// exact for the word as a whole: S. E. Anderson, "Bit Twiddling Hacks",
// determine if a word has a byte less than n).
func hasControl(x uint64) bool { return (x-lsbs*0x20)&^x&msbs != 0 }

// hasByte reports whether any byte of x is c ("Bit Twiddling Hacks",
// determine if a word has a byte equal to n).
func hasByte(x uint64, c byte) bool {
	y := x ^ lsbs*uint64(c)
	return (y-lsbs)&^y&msbs != 0
}

// plainPrefix is the length of the longest prefix of b whose bytes are
// all plainByte (no quote, backslash or control character).
func plainPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if hasControl(x) || hasByte(x, '"') || hasByte(x, '\\') {
			break
		}
	}
	for i < len(b) && plainByte[b[i]] {
		i++
	}
	return i
}

// controlFree reports whether b holds no byte below 0x20.
func controlFree(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if hasControl(binary.LittleEndian.Uint64(b[i:])) {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return false
		}
	}
	return true
}
