package emulator

import (
	"sync"
	"sync/atomic"
)

// probeBit marks a B-tree item that is not a record's ref but a probe: the
// keys a search looks for, which are in no slab. A search takes a probe
// slot (acquireProbe), puts its keys there, searches with the slot's ref
// and gives the slot back (releaseProbe). The B-tree compares items on the
// goroutine that searches, so a slot's keys are read only by the goroutine
// that holds it; only the list of slots is shared.
const probeBit = 1 << 63

// probeKey is one probe slot.
type probeKey struct{ pk, rk string }

// probes are the probe slots of the process: as many as searches ever
// ran at once.
var probes struct {
	mu    sync.Mutex
	free  []uint64
	slots atomic.Pointer[[]*probeKey] // grown by copying, never changed in place
}

// acquireProbe returns a B-tree item that orders as the keys (pk, rk).
// The caller gives it back with releaseProbe when its search is done.
func acquireProbe(pk, rk string) uint64 {
	probes.mu.Lock()
	var i uint64
	if n := len(probes.free); n > 0 {
		i, probes.free = probes.free[n-1], probes.free[:n-1]
	} else {
		var slots []*probeKey
		if old := probes.slots.Load(); old != nil {
			slots = append(slots, *old...)
		}
		i = uint64(len(slots))
		slots = append(slots, &probeKey{})
		probes.slots.Store(&slots)
	}
	probes.mu.Unlock()
	k := probeAt(i)
	k.pk, k.rk = pk, rk
	return probeBit | i
}

// releaseProbe gives back a probe acquireProbe returned.
func releaseProbe(ref uint64) {
	i := ref &^ probeBit
	k := probeAt(i)
	k.pk, k.rk = "", "" // keep no key alive
	probes.mu.Lock()
	probes.free = append(probes.free, i)
	probes.mu.Unlock()
}

func probeAt(i uint64) *probeKey { return (*probes.slots.Load())[i] }
