package jsontext

import (
	"math/rand/v2"
	"testing"
)

// TestPlainPrefixAsByteLoop holds the word-at-a-time scans to their byte
// by byte definitions, with every special byte at every position of
// strings of every length to 40, over backgrounds of plain bytes that sit
// next to the specials in value (0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80,
// 0xff) and random ones.
func TestPlainPrefixAsByteLoop(t *testing.T) {
	naivePrefix := func(b []byte) int {
		i := 0
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		return i
	}
	naiveFree := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 {
				return false
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(5, 6))
	backgrounds := []func() byte{
		func() byte { return 0x20 }, func() byte { return 0x21 }, func() byte { return 0x23 },
		func() byte { return 0x5b }, func() byte { return 0x5d }, func() byte { return 0x7f },
		func() byte { return 0x80 }, func() byte { return 0xff },
		func() byte { return byte(0x20 + r.IntN(0xe0)) },
	}
	specials := []byte{'"', '\\', 0, 0x1f, '\n', 0x01}
	for n := range 41 {
		for _, bg := range backgrounds {
			b := make([]byte, n)
			for i := range b {
				for b[i] = bg(); !plainByte[b[i]]; b[i] = bg() {
				}
			}
			check := func() {
				if got, want := plainPrefix(b), naivePrefix(b); got != want {
					t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
				}
				if got, want := controlFree(b), naiveFree(b); got != want {
					t.Fatalf("controlFree(%q) = %v, want %v", b, got, want)
				}
			}
			check()
			for pos := range n {
				for _, sp := range specials {
					old := b[pos]
					b[pos] = sp
					check()
					b[pos] = old
				}
			}
		}
	}
	// Random bytes, specials included, at random.
	for range 100_000 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		if got, want := plainPrefix(b), naivePrefix(b); got != want {
			t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
		}
		if got, want := controlFree(b), naiveFree(b); got != want {
			t.Fatalf("controlFree(%q) = %v, want %v", b, got, want)
		}
	}
}
