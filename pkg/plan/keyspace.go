package plan

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Keyspace tracks which entity indices exist in the table, so operations on
// existing entities pick ones that are there: the seeded indices [0, seeded),
// plus acknowledged inserts, minus acknowledged deletes. New entities take the
// next index (entity i is a pure function of i, so no key registry is needed).
//
// All methods are safe for concurrent use and lock-free: existence is a
// bitmap of atomic words, grown in fixed-size chunks published with atomic
// pointers.
type Keyspace struct {
	next   atomic.Int64
	chunks [maxChunks]atomic.Pointer[chunk]
	live   atomic.Int64
	grow   sync.Mutex
}

const (
	chunkBits = 1 << 16
	maxChunks = 1 << 14 // 2^30 entities
	// MaxEntities is the largest entity index a Keyspace tracks.
	MaxEntities = chunkBits * maxChunks
	// pickTries bounds the re-picks when a pick lands on an index that does
	// not exist (deleted, or an insert still in flight).
	pickTries = 16
)

type chunk [chunkBits / 64]atomic.Uint64

// NewKeyspace returns a keyspace in which entities [0, seeded) exist.
func NewKeyspace(seeded int64) *Keyspace {
	k := &Keyspace{}
	k.next.Store(seeded)
	for i := int64(0); i < seeded; i += 64 {
		c := k.chunkFor(i)
		n := min(seeded-i, 64)
		word := ^uint64(0)
		if n < 64 {
			word = 1<<uint(n) - 1
		}
		c[(i%chunkBits)/64].Store(word)
	}
	k.live.Store(seeded)
	return k
}

func (k *Keyspace) chunkFor(i int64) *chunk {
	slot := &k.chunks[i/chunkBits]
	if c := slot.Load(); c != nil {
		return c
	}
	k.grow.Lock()
	defer k.grow.Unlock()
	if c := slot.Load(); c != nil {
		return c
	}
	c := new(chunk)
	slot.Store(c)
	return c
}

// Allocate returns the next new entity index, or -1 when MaxEntities is reached.
func (k *Keyspace) Allocate() int64 {
	i := k.next.Add(1) - 1
	if i >= MaxEntities {
		return -1
	}
	return i
}

// Bound is one past the highest index allocated so far.
func (k *Keyspace) Bound() int64 { return min(k.next.Load(), MaxEntities) }

// Live is the number of entities that exist.
func (k *Keyspace) Live() int64 { return k.live.Load() }

// Exists reports whether entity i exists.
func (k *Keyspace) Exists(i int64) bool {
	if i < 0 || i >= MaxEntities {
		return false
	}
	c := k.chunks[i/chunkBits].Load()
	if c == nil {
		return false
	}
	return c[(i%chunkBits)/64].Load()&(1<<uint(i%64)) != 0
}

// Add records that entity i now exists (an acknowledged insert). It reports
// false if it already existed.
func (k *Keyspace) Add(i int64) bool {
	if i < 0 || i >= MaxEntities {
		return false
	}
	w := &k.chunkFor(i)[(i%chunkBits)/64]
	bit := uint64(1) << uint(i%64)
	if w.Or(bit)&bit != 0 {
		return false
	}
	k.live.Add(1)
	return true
}

// Remove records that entity i no longer exists. It reports false if it did
// not exist, so two deleters never claim the same entity.
func (k *Keyspace) Remove(i int64) bool {
	if !k.Exists(i) {
		return false
	}
	w := &k.chunkFor(i)[(i%chunkBits)/64]
	bit := uint64(1) << uint(i%64)
	if w.And(^bit)&bit == 0 {
		return false
	}
	k.live.Add(-1)
	return true
}

// Pick draws an existing entity with the distribution over [0, Bound()). It
// re-draws up to pickTries times when the draw lands on a missing index;
// then it takes the nearest existing index at or after the last draw
// (wrapping around), so a keyspace hollowed out by deletes still yields an
// entity while one exists. It returns false only when none exists.
func (k *Keyspace) Pick(d keygen.Distribution, st *keygen.Stream) (int64, bool) {
	n := k.Bound()
	if n == 0 || k.live.Load() <= 0 {
		return 0, false
	}
	var i int64
	for t := 0; t < pickTries; t++ {
		if i = d.Pick(st, n); k.Exists(i) {
			return i, true
		}
	}
	if j, ok := k.firstLive(i, n); ok {
		return j, true
	}
	return k.firstLive(0, i)
}

// firstLive returns the lowest existing index in [lo, hi), skipping absent
// chunks and empty words.
func (k *Keyspace) firstLive(lo, hi int64) (int64, bool) {
	for i := max(lo, 0); i < hi; {
		c := k.chunks[i/chunkBits].Load()
		if c == nil {
			i = (i/chunkBits + 1) * chunkBits
			continue
		}
		if w := c[(i%chunkBits)/64].Load() >> uint(i%64); w != 0 {
			j := i + int64(bits.TrailingZeros64(w))
			return j, j < hi
		}
		i = (i/64 + 1) * 64
	}
	return 0, false
}
