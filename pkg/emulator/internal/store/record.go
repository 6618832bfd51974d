package store

import (
	"encoding/binary"
	"unsafe"

	"github.com/tablestress/tablestress/internal/keyorder"
)

// A stored entity is one record in its table's slab (slab.go):
//
//	uvarint len(pk) | uvarint len(rk) | pk | rk | ts: 8 bytes, little-endian
//	| uvarint size | uvarint len(props) | props
//
// where ts is the write time in 100 ns ticks, size the length of the
// properties' JSON fragment (Entity.Bytes) and props their compact form
// (codec.go). The table's B-tree holds each record's ref (slab.go) and
// orders the records by their keys. One record, no pointers, about 20
// bytes besides the keys and the data.

// recordLen is the length of e's record.
func recordLen(e *Entity) int {
	return uvarintLen(len(e.pk)) + uvarintLen(len(e.rk)) + len(e.pk) + len(e.rk) + 8 +
		uvarintLen(e.size) + uvarintLen(len(e.props)) + len(e.props)
}

func uvarintLen(n int) int {
	l := 1
	for ; n >= 0x80; n >>= 7 {
		l++
	}
	return l
}

// putRecord writes e's record into b, recordLen(e) bytes.
func putRecord(b []byte, e *Entity) {
	w := binary.AppendUvarint(b[:0], uint64(len(e.pk)))
	w = binary.AppendUvarint(w, uint64(len(e.rk)))
	w = append(w, e.pk...)
	w = append(w, e.rk...)
	w = binary.LittleEndian.AppendUint64(w, uint64(e.ts))
	w = binary.AppendUvarint(w, uint64(e.size))
	w = binary.AppendUvarint(w, uint64(len(e.props)))
	w = append(w, e.props...)
	if len(w) != len(b) || &w[0] != &b[0] {
		panic("store: a record of the wrong length")
	}
}

// at returns a pointer i bytes after p, within p's record.
func at(p *byte, i int) *byte { return (*byte)(unsafe.Add(unsafe.Pointer(p), i)) }

// uvarintAt reads the uvarint at p[i:] and returns it and the index after.
func uvarintAt(p *byte, i int) (int, int) {
	x, s := 0, 0
	for {
		b := *at(p, i)
		i++
		if b < 0x80 {
			return x | int(b)<<s, i
		}
		x |= int(b&0x7f) << s
		s += 7
	}
}

// stringAt aliases n bytes of p's record from index i as a string.
func stringAt(p *byte, i, n int) string {
	if n == 0 {
		return ""
	}
	return unsafe.String(at(p, i), n)
}

// keysAt returns the keys of the record at p, aliasing it.
func keysAt(p *byte) (pk, rk string) {
	lp, i := uvarintAt(p, 0)
	lr, i := uvarintAt(p, i)
	return stringAt(p, i, lp), stringAt(p, i+lp, lr)
}

// item is a B-tree entry: 64 bits of a record's keys (keyOrder.summary)
// and the record's ref, or a probe (probe.go). No pointers, so the tree is
// nothing for the collector to scan; the prefix orders most pairs of
// entries without reading their records, whose memory a search would
// otherwise touch at every step.
type item struct {
	prefix uint64
	ref    uint64
}

// keysOf returns the keys of the record or probe (probe.go) a B-tree
// item names, aliasing it.
func (s *slab) keysOf(ref uint64) (pk, rk string) {
	if ref&probeBit != 0 {
		k := probeAt(ref)
		return k.pk, k.rk
	}
	return keysAt(s.at(ref))
}

// less orders B-tree items by their keys (PartitionKey, RowKey) in
// Azure's order (keyorder), by their prefixes where those differ.
func (s *slab) less(a, b item) bool {
	if a.prefix != b.prefix {
		return a.prefix < b.prefix
	}
	apk, ark := s.keysOf(a.ref)
	bpk, brk := s.keysOf(b.ref)
	if apk != bpk {
		return keyorder.Less(apk, bpk)
	}
	return keyorder.Less(ark, brk)
}

// load makes e a view of the record at p, whose names are nm's, and
// returns the record's length. The view aliases the record: it is valid
// while the table's lock is held (see Entity).
func (e *Entity) load(p *byte, nm *Names) int {
	lp, i := uvarintAt(p, 0)
	lr, i := uvarintAt(p, i)
	e.pk, e.rk = stringAt(p, i, lp), stringAt(p, i+lp, lr)
	i += lp + lr
	e.ts = int64(binary.LittleEndian.Uint64(unsafe.Slice(at(p, i), 8)))
	e.size, i = uvarintAt(p, i+8)
	n, i := uvarintAt(p, i)
	e.props = nil
	if n > 0 {
		e.props = unsafe.Slice(at(p, i), n)
	}
	e.names = nm
	return i + n
}

// recordLenAt is the length of the record at p.
func recordLenAt(p *byte) int {
	var e Entity
	return e.load(p, nil)
}

// scrub zeroes the record at p but for its lengths.
func scrub(p *byte) {
	lp, i := uvarintAt(p, 0)
	lr, i := uvarintAt(p, i)
	clear(unsafe.Slice(at(p, i), lp+lr+8))
	_, i = uvarintAt(p, i+lp+lr+8)
	n, i := uvarintAt(p, i)
	if n > 0 {
		clear(unsafe.Slice(at(p, i), n))
	}
}
