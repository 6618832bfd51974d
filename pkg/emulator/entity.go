package emulator

import (
	"strings"
	"time"
	"unsafe"
)

// entity is one row: its keys, its properties in compact form (codec.go)
// with the dictionary their names are in, and its write time. A stored
// row is a record in its table's slab (record.go); an entity read from
// the table is a view of that record, valid under the table's lock, and
// detach copies it for use after. An entity built by a write (newEntity)
// is on the heap until the table stores a copy. Entities never change: a
// write replaces them.
type entity struct {
	pk, rk string
	props  []byte
	names  *names
	ts     int64 // write time, in 100 ns ticks since the Unix epoch
	size   int   // length of the properties' JSON fragment (see bytes)
}

// newEntity makes a row of props (sorted by name), naming them by nm's
// ids (nil: by name).
func newEntity(pk, rk string, props []prop, ts time.Time, nm *names) *entity {
	keys := pk + rk
	return &entity{pk: keys[:len(pk)], rk: keys[len(pk):], props: encodeProps(make([]byte, 0, compactCap(props)), props, nm), names: nm,
		ts: ts.UnixNano() / 100, size: fragmentLen(props)}
}

// detach returns a copy of e that owns its memory, for use after the
// table's lock is released; nil for nil.
func (e *entity) detach() *entity {
	if e == nil {
		return nil
	}
	c := *e
	// One allocation for the keys and the properties; nothing writes it.
	b := make([]byte, 0, len(e.pk)+len(e.rk)+len(e.props))
	b = append(append(append(b, e.pk...), e.rk...), e.props...)
	c.pk, c.rk = stringAt(unsafe.SliceData(b), 0, len(e.pk)), stringAt(unsafe.SliceData(b), len(e.pk), len(e.rk))
	c.props = b[len(e.pk)+len(e.rk):]
	return &c
}

// time is the entity's write time (its Timestamp).
func (e *entity) time() time.Time { return time.Unix(0, e.ts*100).UTC() }

// appendFragment appends the entity's properties as fragment(props)
// writes them: the minimal-metadata JSON members.
func (e *entity) appendFragment(dst []byte) []byte { return appendFragment(dst, e.props, e.names) }

// annotated reports whether the entity's fragment holds a type annotation.
func (e *entity) annotated() bool {
	r := propReader{b: e.props, nm: e.names}
	for {
		_, tag, val, ok := r.next()
		if !ok {
			return false
		}
		if typeOf(tag, val) != "" {
			return true
		}
	}
}

// properties returns the entity's properties as parseBody returned the
// stored fragment's members (types as the fragment keeps them). They are
// the entity's own copies.
func (e *entity) properties() []prop { return decodeProps(e.props, e.names) }

// etag is the entity's ETag, derived from its timestamp as Azure does.
func (e *entity) etag() string {
	return `W/"datetime'` + strings.ReplaceAll(e.time().Format(timeLayout), ":", "%3A") + `'"`
}

// keys returns an entity of e's keys alone that owns its memory.
func (e *entity) keys() *entity {
	k := e.pk + e.rk
	return &entity{pk: k[:len(e.pk)], rk: k[len(e.pk):]}
}
