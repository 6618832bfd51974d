package keygen

import (
	"math/bits"
	"math/rand/v2"
)

// Stream is the deterministic random source every generator draws from. It is a
// PCG generator held by value, so callers keep it on the stack and a draw never
// allocates. A Stream is not safe for concurrent use: each worker owns its own.
type Stream struct{ pcg rand.PCG }

// NewStream returns a stream seeded from two words. Equal seeds give equal
// sequences on every platform.
func NewStream(a, b uint64) Stream {
	var s Stream
	s.pcg.Seed(mix(a), mix(b^0x9e3779b97f4a7c15))
	return s
}

// Uint64 returns the next 64 random bits.
func (s *Stream) Uint64() uint64 { return s.pcg.Uint64() }

// Float64 returns a uniform value in [0, 1) with 53 bits of precision.
func (s *Stream) Float64() float64 { return float64(s.pcg.Uint64()>>11) * (1.0 / (1 << 53)) }

// Int64n returns a uniform value in [0, n) for n > 0 (Lemire's multiply-shift
// with rejection, so there is no modulo bias).
func (s *Stream) Int64n(n int64) int64 {
	if n <= 1 {
		return 0
	}
	un := uint64(n)
	for {
		hi, lo := bits.Mul64(s.pcg.Uint64(), un)
		if lo >= un || lo >= (-un)%un {
			return int64(hi)
		}
	}
}

// mix is the splitmix64 finaliser: a bijection that spreads nearby inputs
// (entity indices 0, 1, 2...) over the whole 64-bit space.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// nameHash is the 64-bit FNV-1a hash of a name, used to give every field its
// own independent stream for the same entity.
func nameHash(name string) uint64 { return fnv1a([]byte(name)) }

// fnv1a is the 64-bit FNV-1a hash; {hash(x) % N} buckets with it.
func fnv1a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// entityStream is the stream of field salt for entity i of a population seeded
// with seed: a pure function of (seed, salt, i).
func entityStream(seed, salt uint64, i int64) Stream {
	return NewStream(seed^salt, uint64(i))
}
