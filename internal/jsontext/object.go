package jsontext

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Member is one name and value of a JSON object, the value as its raw
// JSON: a slice of the scanned input.
type Member struct {
	Name string
	Raw  []byte
	key  uint64 // nameKey(Name): orders most pairs of names without reading them
}

// Object is what encoding/json makes of a JSON object decoded into a
// map[string]json.RawMessage, without the map and the reflection: the
// members sorted by name, each name once (the last of duplicates, as the
// map keeps), the values slices of the input.
type Object struct {
	Members []Member
	list    *[]Member // Members' array, from objPool
}

// ScanObject reads a JSON text as json.Unmarshal into a
// map[string]json.RawMessage would: false where that fails (not JSON, or
// JSON that is not an object), an empty object for null (which leaves the
// map nil). Names are decoded as encoding/json decodes strings; names of
// plain ASCII are interned (the bodies of a workload repeat a few names).
//
// The object's list comes from a pool: Release it once its members are
// no longer used.
func ScanObject(b []byte) (Object, bool) {
	sc := scanner{b: b}
	sc.space()
	if sc.i < len(b) && b[sc.i] == 'n' {
		if !sc.literal("null") {
			return Object{}, false
		}
		sc.space()
		return Object{}, sc.i == len(b)
	}
	if sc.i >= len(b) || b[sc.i] != '{' {
		return Object{}, false // not JSON, or JSON that is not an object
	}
	o := Object{list: objPool.Get().(*[]Member)}
	members := (*o.list)[:0]
	ok := sc.object(1, &members)
	*o.list = members
	sc.space()
	if !ok || sc.i != len(b) {
		o.Release()
		return Object{}, false
	}
	sortMembers(members)
	out := members[:0]
	for k, m := range members {
		if k+1 < len(members) && members[k+1].Name == m.Name {
			continue // a later duplicate replaces it
		}
		out = append(out, m)
	}
	o.Members = out
	return o, true
}

// objPool recycles the member lists of ScanObject, 16 members to begin
// with: an entity's properties, annotations and keys, mostly.
var objPool = sync.Pool{New: func() any { l := make([]Member, 0, 16); return &l }}

// Release returns o's list to the pool; o is not used after. The values
// read from it stay valid: they are slices of the input, not of the list.
func (o Object) Release() {
	if o.list == nil || cap(*o.list) > 1024 {
		return
	}
	clear((*o.list)[:cap(*o.list)]) // no reference to an input outlives its use
	*o.list = (*o.list)[:0]
	objPool.Put(o.list)
}

// Get returns the value of the member named a+b.
func (o Object) Get(a, b string) ([]byte, bool) {
	k, found := slices.BinarySearchFunc(o.Members, a, func(m Member, _ string) int { return compareConcat(m.Name, a, b) })
	if !found {
		return nil, false
	}
	return o.Members[k].Raw, true
}

// After is Get(o.Members[k].Name, suffix) for a suffix not empty, found by
// looking on from k: the members named name+anything follow name in
// order, so the one named name+suffix is among them, usually the first.
func (o Object) After(k int, suffix string) ([]byte, bool) {
	name := o.Members[k].Name
	for _, m := range o.Members[k+1:] {
		if !strings.HasPrefix(m.Name, name) {
			break
		}
		switch c := compareConcat(m.Name, name, suffix); {
		case c == 0:
			return m.Raw, true
		case c > 0:
			return nil, false
		}
	}
	return nil, false
}

// compareConcat compares s with a+b without building a+b.
func compareConcat(s, a, b string) int {
	n := min(len(s), len(a))
	if c := strings.Compare(s[:n], a[:n]); c != 0 || len(s) < len(a) {
		if c == 0 {
			return -1
		}
		return c
	}
	return strings.Compare(s[len(a):], b)
}

// nameKey is the first 8 bytes of name, big-endian, zero-padded: for any
// names a and b, nameKey(a) < nameKey(b) implies a < b, and a < b implies
// nameKey(a) <= nameKey(b).
func nameKey(name string) uint64 {
	if len(name) >= 8 {
		return binary.BigEndian.Uint64(unsafe.Slice(unsafe.StringData(name), 8))
	}
	var p uint64
	for i := range 8 {
		p <<= 8
		if i < len(name) {
			p |= uint64(name[i])
		}
	}
	return p
}

// sortMembers sorts members by name, stably (duplicates keep their order).
// An entity's few members are sorted by insertion, comparing the names'
// first 8 bytes as one number; many, by slices.SortStableFunc.
func sortMembers(members []Member) {
	if len(members) > 24 {
		slices.SortStableFunc(members, func(a, b Member) int { return strings.Compare(a.Name, b.Name) })
		return
	}
	for i := 1; i < len(members); i++ {
		m := members[i]
		j := i
		for ; j > 0 && memberLess(&m, &members[j-1]); j-- {
			members[j] = members[j-1]
		}
		members[j] = m
	}
}

// memberLess orders members by name.
func memberLess(a, b *Member) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.Name < b.Name
}
