package store

import (
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// keyIndex is a table's hash index of its records by their keys
// (PartitionKey, RowKey), so that a point lookup reads one slot and the
// record it names instead of a record at every step down the B-tree (a
// cache miss each, the larger part of a point read's cost in a large
// table). The B-tree stays the table's order, for queries; the index only
// finds.
//
// It is open addressing with linear probing over a power-of-two array of
// uint64 slots, without pointers (nothing for the collector to scan): a
// slot is empty (0), a tombstone (tombSlot), or a record: occupied bit,
// 21-bit tag (the top bits of the keys' hash) and the record's ref packed
// in 42 bits (packRef). The home slot of a hash is its top bits, so the tag
// alone places a slot in an array of up to 2^21 slots; larger arrays are
// rebuilt from the records' keys. The array is rebuilt, to at least twice
// the live records, when occupied slots and tombstones pass three quarters
// of it: it is a quarter to three quarters full, 11 to 32 bytes per record. Arrays of mappedSlots or more are mapped
// outside the Go heap, as the slab's chunks are (mapChunk), and unmapped
// when replaced, dropped or collected: the collector neither counts the
// index of ten million rows nor keeps a replaced one around until its
// next cycle. An index that meets a ref it cannot pack
// (more than 2^22 chunks) turns itself off, and the table finds through
// the B-tree. Callers hold the table's lock: the write lock to change it.
type keyIndex struct {
	slots  []uint64
	mapped bool // slots is from mapChunk
	shift  uint // 64 - log2(len(slots))
	live   int  // slots holding a record
	used   int  // slots holding a record or a tombstone
	off    bool // a ref did not fit: the index is not used
}

const (
	occupiedBit = 1 << 63
	tombSlot    = 1
	tagBits     = 21
	tagShift    = 64 - tagBits // a hash's tag is h >> tagShift
	refBits     = 42
	offBits     = 20 // a record's offset in its chunk: chunks are at most chunkMax, 1 MiB
	minSlots    = 8
	mappedSlots = 8 << 10 // 64 KiB
)

// rehashAlways makes rebuild read every record's keys, as it does for
// arrays larger than a tag addresses; tests set it.
var rehashAlways = false

// hashSeeds key the index's hashes, one per key.
var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// keyHash is the hash of a pair of keys.
func keyHash(pk, rk string) uint64 {
	return maphash.String(hashSeeds[0], rk) ^ maphash.String(hashSeeds[1], pk)*0x9e3779b97f4a7c15
}

// packRef packs a ref (chunk id << 32 | offset) into refBits, reporting
// whether it fits.
func packRef(ref uint64) (uint64, bool) {
	id, off := ref>>32, ref&(1<<32-1)
	if id >= 1<<(refBits-offBits) || off >= 1<<offBits {
		return 0, false
	}
	return id<<offBits | off, true
}

// slotRef is the ref a record's slot holds.
func slotRef(slot uint64) uint64 {
	p := slot & (1<<refBits - 1)
	return p>>offBits<<32 | p&(1<<offBits-1)
}

// usable reports whether lookups may go through the index.
func (x *keyIndex) usable() bool { return !x.off }

// find returns the ref of the record with the keys and its slot's index,
// or ok false.
func (x *keyIndex) find(s *slab, pk, rk string) (ref uint64, i int, ok bool) {
	if len(x.slots) == 0 {
		return 0, 0, false
	}
	h := keyHash(pk, rk)
	tag := h >> tagShift
	mask := len(x.slots) - 1
	for i = int(h >> x.shift); ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return 0, 0, false
		}
		if v&occupiedBit != 0 && (v>>refBits)&(1<<tagBits-1) == tag {
			ref = slotRef(v)
			if p, r := keysAt(s.at(ref)); p == pk && r == rk {
				return ref, i, true
			}
		}
	}
}

// add indexes a record whose keys are not in the index.
func (x *keyIndex) add(s *slab, pk, rk string, ref uint64) {
	if x.off {
		return
	}
	packed, fits := packRef(ref)
	if !fits {
		x.turnOff()
		return
	}
	if (x.used+1)*4 > len(x.slots)*3 {
		x.rebuild(s, x.live+1)
	}
	x.place(keyHash(pk, rk), packed, true)
	x.live++
}

// place writes the slot of a record whose keys hash to h at the first
// free slot from h's home; reuse lets it take a tombstone's. Of h, only
// the bits that address the array and the tag's are read.
func (x *keyIndex) place(h, packed uint64, reuse bool) {
	mask := len(x.slots) - 1
	for i := int(h >> x.shift); ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 || reuse && v == tombSlot {
			if v == 0 {
				x.used++
			}
			x.slots[i] = occupiedBit | (h>>tagShift)<<refBits | packed
			return
		}
	}
}

// set makes slot i, which find returned, name ref instead.
func (x *keyIndex) set(i int, ref uint64) {
	packed, fits := packRef(ref)
	if !fits {
		x.turnOff()
		return
	}
	x.slots[i] = x.slots[i]&^(1<<refBits-1) | packed
}

// removeAt forgets the record of slot i, which find returned.
func (x *keyIndex) removeAt(i int) {
	x.slots[i] = tombSlot
	x.live--
}

// rebuild moves the records to an array of at least twice n slots,
// dropping tombstones. Where the array has more slots than a tag
// addresses, it reads each record's keys for its hash.
func (x *keyIndex) rebuild(s *slab, n int) {
	size := max(minSlots, 1<<bits.Len(uint(2*n-1)))
	old, oldMapped := x.slots, x.mapped
	x.slots, x.mapped = allocSlots(size)
	defer freeSlots(old, oldMapped)
	x.shift = uint(64 - bits.TrailingZeros(uint(size)))
	x.used = 0
	for _, v := range old {
		if v&occupiedBit == 0 {
			continue
		}
		h := (v >> refBits) & (1<<tagBits - 1) << tagShift
		if 64-x.shift > tagBits || rehashAlways {
			pk, rk := keysAt(s.at(slotRef(v)))
			h = keyHash(pk, rk)
		}
		x.place(h, v&(1<<refBits-1), false)
	}
}

// allocSlots returns n zeroed slots, mapped outside the Go heap when n is
// mappedSlots or more and the system allows.
func allocSlots(n int) ([]uint64, bool) {
	if n >= mappedSlots {
		if b := mapChunk(8 * n); b != nil {
			return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), true
		}
	}
	return make([]uint64, n), false
}

// freeSlots gives back slots allocSlots returned, if it mapped them.
func freeSlots(slots []uint64, mapped bool) {
	if mapped {
		unmapChunk(unsafe.Slice((*byte)(unsafe.Pointer(&slots[0])), 8*len(slots)))
	}
}

// mappedBytes is the memory the index holds outside the Go heap.
func (x *keyIndex) mappedBytes() int {
	if !x.mapped {
		return 0
	}
	return 8 * len(x.slots)
}

// turnOff stops using the index and frees it.
func (x *keyIndex) turnOff() {
	x.release()
	x.off = true
}

// release frees the index's slots, leaving it empty and on (a cleared
// table's index is used again).
func (x *keyIndex) release() {
	freeSlots(x.slots, x.mapped)
	*x = keyIndex{}
}
