package store

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// probeBit marks a B-tree item that is not a record's ref but a probe: the
// keys a search looks for, which are in no slab. A search takes a probe
// slot (acquireProbe), puts its keys there, searches with the slot's ref
// and gives the slot back (releaseProbe). The B-tree compares items on the
// goroutine that searches, so a slot's keys are read only by the goroutine
// that holds it; only the lists of slots are shared.
const probeBit = 1 << 63

// probeShards spreads the slots over independent lists, so searches on
// many cores do not queue for one lock.
const probeShards = 64

// probeKey is one probe slot.
type probeKey struct{ pk, rk string }

// probeShard is one list of probe slots: as many as searches ever ran at
// once through it.
type probeShard struct {
	mu    sync.Mutex
	free  []uint32
	slots atomic.Pointer[[]*probeKey] // grown by copying, never changed in place
	_     [24]byte                    // a cache line each
}

var probes [probeShards]probeShard

// acquireProbe returns a B-tree item that orders as the keys (pk, rk),
// whose summary (keyOrder.summary) in the tree searched is prefix. The
// caller gives it back with releaseProbe when its search is done.
func acquireProbe(pk, rk string, prefix uint64) item {
	sh := rand.Uint32() % probeShards
	s := &probes[sh]
	s.mu.Lock()
	var i uint32
	if n := len(s.free); n > 0 {
		i, s.free = s.free[n-1], s.free[:n-1]
	} else {
		var slots []*probeKey
		if old := s.slots.Load(); old != nil {
			slots = append(slots, *old...)
		}
		i = uint32(len(slots))
		slots = append(slots, &probeKey{})
		s.slots.Store(&slots)
	}
	s.mu.Unlock()
	ref := probeBit | uint64(sh)<<32 | uint64(i)
	k := probeAt(ref)
	k.pk, k.rk = pk, rk
	return item{prefix, ref}
}

// releaseProbe gives back a probe acquireProbe returned.
func releaseProbe(it item) {
	ref := it.ref
	k := probeAt(ref)
	k.pk, k.rk = "", "" // keep no key alive
	s := &probes[(ref>>32)%probeShards]
	s.mu.Lock()
	s.free = append(s.free, uint32(ref))
	s.mu.Unlock()
}

// probeAt returns the slot of a probe ref.
func probeAt(ref uint64) *probeKey {
	return (*probes[(ref>>32)%probeShards].slots.Load())[uint32(ref)]
}
