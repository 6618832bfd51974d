package store

import (
	"slices"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// Entity is one row: its keys, its properties in compact form (codec.go)
// with the dictionary their names are in, and its write time. A stored
// row is a record in its table's slab (record.go); an entity read from
// the table is a view of that record, valid under the table's lock: what
// outlives the lock is copied out first (keys, a rendered answer). An
// entity built by a write (NewEntity) is on the heap until the table
// stores a copy. Entities never change: a write replaces them.
type Entity struct {
	pk, rk string
	props  []byte
	names  *Names
	ts     int64 // write time, in 100 ns ticks since the Unix epoch
	size   int   // length of the properties' JSON fragment (see bytes)
}

// NewEntity makes a row of props (sorted by name), naming them by nm's
// ids (nil: by name).
func NewEntity(pk, rk string, props []Prop, ts time.Time, nm *Names) *Entity {
	keys := pk + rk
	e := new(Entity)
	FillEntity(e, keys[:len(pk)], keys[len(pk):], props, ts, nm, make([]byte, 0, compactCap(props)))
	return e
}

// FillEntity makes *e the entity NewEntity makes, with its keys as they
// are and its properties encoded into buf (grown if it must be), which the
// entity then aliases: for a write that copies the entity into its table
// (Table.Insert, Table.Put) and forgets it, nothing is allocated. It
// returns the properties' encoding, buf or the buffer it grew into, for
// the caller to keep.
func FillEntity(e *Entity, pk, rk string, props []Prop, ts time.Time, nm *Names, buf []byte) []byte {
	*e = Entity{pk: pk, rk: rk, props: encodeProps(slices.Grow(buf[:0], compactCap(props)), props, nm), names: nm,
		ts: ts.UnixNano() / 100, size: fragmentLen(props)}
	return e.props
}

// SetTime sets the entity's write time (its Timestamp and ETag).
func (e *Entity) SetTime(ts time.Time) { e.ts = ts.UnixNano() / 100 }

// Time is the entity's write time (its Timestamp).
func (e *Entity) Time() time.Time { return edm.TicksTime(e.ts) }

// AppendFragment appends the entity's properties as AppendProp writes each
// of them, commas between: the minimal-metadata JSON members.
func (e *Entity) AppendFragment(dst []byte) []byte { return appendFragment(dst, e.props, e.names) }

// Annotated reports whether the entity's fragment holds a type annotation.
func (e *Entity) Annotated() bool {
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

// Keys returns copies of the entity's keys, which outlive the view they
// came from.
func (e *Entity) Keys() (pk, rk string) {
	k := e.pk + e.rk
	return k[:len(e.pk)], k[len(e.pk):]
}

// PK is the entity's PartitionKey (in a view: valid under the lock).
func (e *Entity) PK() string { return e.pk }

// RK is the entity's RowKey (in a view: valid under the lock).
func (e *Entity) RK() string { return e.rk }

// Ticks is the entity's write time, in 100 ns ticks since the Unix epoch.
func (e *Entity) Ticks() int64 { return e.ts }

// HasProperties reports whether the entity has properties besides its
// keys and Timestamp.
func (e *Entity) HasProperties() bool { return len(e.props) > 0 }

// Properties returns the entity's properties as the request parsing had
// them, read from the stored fragment's members (types as the fragment keeps them). They are
// the entity's own copies.
func (e *Entity) Properties() []Prop { return decodeProps(e.props, e.names) }

// ETag is the entity's ETag, derived from its timestamp as Azure does.
func (e *Entity) ETag() string { return string(edm.AppendETag(nil, e.ts)) }

// Bytes is the entity's stored size: its keys and the JSON of its
// properties (as the service answers with them, not as it holds them);
// 0 for none.
func (e *Entity) Bytes() int {
	if e == nil {
		return 0
	}
	return len(e.pk) + len(e.rk) + e.size
}
