package store

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/tablestress/tablestress/internal/keyorder"
)

// keyOrder makes a table's B-tree items' prefixes (item.prefix): 64 bits
// of an entity's keys that order two entries without reading their
// records whenever they differ, so that a search down the tree reads a
// record (a cache miss each, in a large table) only where two entries'
// keys agree on those bits.
//
// The bytes every key of a table begins with order nothing, and tables
// often share long ones: PartitionKeys "dev-000" to "dev-199", RowKeys of
// inverted ticks whose first ten digits are the same for days. So the
// prefix is taken after them: every key the tree holds begins with the
// PartitionKey prefix pk and the RowKey prefix rk (the longest the keys
// had in common when the tree was last built), and an entry's prefix is
// the first 8 bytes, zero-padded, big-endian, under keyorder.Weight, of
//
//	PartitionKey[len(pk):] 0x00 RowKey[len(rk):]
//
// whose order is the keys' order (keyorder: Azure's, by UTF-16 code units,
// the lexicographic order of the bytes' weights): no key holds a 0x00
// (the REST service's checkKey refuses it), whose weight is the least, so
// the separator puts a PartitionKey before every longer one it begins, and
// a truncated, zero-padded string never sorts after a greater one.
// For any keys a and b: summary(a) < summary(b) implies a < b, and a < b
// implies summary(a) <= summary(b); entries whose summaries tie are
// ordered by their keys (slab.less).
//
// A key without those prefixes (a query's probe; a key stored since the
// tree was built) sorts before or after every key that has them at the
// first byte where it differs, and its summary is clamped to say so: 0 or
// all ones for a PartitionKey, zeros or ones after the separator for a
// RowKey. Such keys order correctly, only more slowly. Stored ones are
// counted (clamped), and when they are over a quarter of the tree it is
// built again with the prefixes all its keys share (Table.reorder): each
// build follows at least a quarter as many inserts as it moves. A build
// holds the table's write lock, so trees of over reorderMax entries are
// not built again: their new keys are ordered as clamped ones.
//
// Callers hold the table's lock, the write lock to change it.
type keyOrder struct {
	pk, rk string // the prefixes of every key in the tree
	set    bool   // pk and rk are set: the table has held a key since it was built empty
	// sharePK and shareRK are how much of pk and rk every key stored
	// since the tree was built begins with.
	sharePK, shareRK int
	clamped          int // keys stored since the tree was built without pk and rk
}

// summary is the B-tree prefix of the keys (pk, rk).
func (o *keyOrder) summary(pk, rk string) uint64 {
	if !strings.HasPrefix(pk, o.pk) {
		if keyorder.Less(pk, o.pk) {
			return 0
		}
		return math.MaxUint64
	}
	var b [8]byte
	rest := pk[len(o.pk):]
	n := copy(b[:], rest)
	if z := strings.IndexByte(rest[:n], 0); z >= 0 {
		// A 0x00 in a PartitionKey (a probe's; no stored key has one):
		// after every RowKey of the PartitionKey before it, before every
		// longer PartitionKey.
		return weigh(b) | onesAfter(z+1)
	}
	if n++; n < 8 { // b[n-1] is the separator
		switch {
		case strings.HasPrefix(rk, o.rk):
			copy(b[n:], rk[len(o.rk):])
		case keyorder.Less(o.rk, rk):
			return weigh(b) | onesAfter(n)
		}
	}
	return weigh(b)
}

// weigh is the big-endian number of b's bytes under keyorder.Weight,
// which keeps every byte below 0x80 as it is.
func weigh(b [8]byte) uint64 {
	x := binary.BigEndian.Uint64(b[:])
	if x&0x8080808080808080 == 0 {
		return x
	}
	for i, c := range b {
		b[i] = keyorder.Weight(c)
	}
	return binary.BigEndian.Uint64(b[:])
}

// onesAfter is a summary's bytes from the n-th on (0-based) all 0xff.
func onesAfter(n int) uint64 { return math.MaxUint64 >> (8 * n) }

// add records that the keys (pk, rk) are going into the tree and returns
// their summary: the first keys of an empty tree become its prefixes.
func (o *keyOrder) add(pk, rk string) uint64 {
	if !o.set {
		o.pk, o.rk = strings.Clone(pk), strings.Clone(rk)
		o.sharePK, o.shareRK = len(pk), len(rk)
		o.set = true
		return o.summary(pk, rk)
	}
	o.sharePK = commonPrefixLen(pk, o.pk[:o.sharePK])
	o.shareRK = commonPrefixLen(rk, o.rk[:o.shareRK])
	if !strings.HasPrefix(pk, o.pk) || !strings.HasPrefix(rk, o.rk) {
		o.clamped++
	}
	return o.summary(pk, rk)
}

// reorderMax is the most entries a tree is built again with: about 50 ms
// of a write lock held on the 2-core machine the manual's figures come
// from (go test -bench TableReorder ./pkg/emulator/internal/store).
const reorderMax = 1 << 17

// stale reports whether the tree, of n entries, is to be built again:
// over a quarter of them were clamped, and it is small enough.
func (o *keyOrder) stale(n int) bool { return o.clamped > 0 && 4*o.clamped > n && n <= reorderMax }

// narrow makes the prefixes those every stored key shares, for a tree
// about to be built again.
func (o *keyOrder) narrow() {
	o.pk, o.rk = o.pk[:o.sharePK], o.rk[:o.shareRK]
	o.clamped = 0
}

// reset forgets the prefixes, for an empty tree.
func (o *keyOrder) reset() { *o = keyOrder{} }

// commonPrefixLen is the length of the longest common prefix of a and b.
func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
