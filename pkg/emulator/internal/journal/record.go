package journal

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// A frame's payload is records end to end, each a type byte and its
// fields: numbers as uvarints, strings and bytes as a uvarint length and
// the bytes. A table is named by its ID, never by its name, so that the
// records of a dropped table are never applied to a later one of its
// name.
const (
	recCreate  = 'C' // id, name: a table created
	recDrop    = 'D' // id: a table dropped
	recNames   = 'N' // id, first, count, names: the dictionary's names from id first
	recPut     = 'P' // id, record (store.AppendRecord): an entity stored, replacing any with its keys
	recRemove  = 'R' // id, pk, rk: an entity deleted
	recACL     = 'A' // id, count, (id, start, expiry, permissions)...: the table's stored access policies
	recService = 'S' // document: the service properties' XML, as Get Table Service Properties answers
	recEnd     = 'E' // the end of a snapshot
)

// errRecord is a record that does not read as one: a file of another
// program, or damaged under a valid checksum.
var errRecord = errors.New("journal: a malformed record")

func appendString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

func appendNames(dst []byte, id uint64, first int, names []string) []byte {
	if len(names) == 0 {
		return dst
	}
	dst = binary.AppendUvarint(append(dst, recNames), id)
	dst = binary.AppendUvarint(binary.AppendUvarint(dst, uint64(first)), uint64(len(names)))
	for _, n := range names {
		dst = appendString(dst, n)
	}
	return dst
}

func appendPut(dst []byte, id uint64, e *store.Entity) []byte {
	dst = binary.AppendUvarint(append(dst, recPut), id)
	at := len(dst)
	dst = store.AppendRecord(dst, e)
	rec := dst[at:]
	// The record's length goes before it: move it up by the uvarint's size.
	var l [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(l[:], uint64(len(rec)))
	dst = append(dst, l[:n]...)
	copy(dst[at+n:], dst[at:len(dst)-n])
	copy(dst[at:], l[:n])
	return dst
}

func appendPolicies(dst []byte, id uint64, ps []store.Policy) []byte {
	dst = binary.AppendUvarint(binary.AppendUvarint(append(dst, recACL), id), uint64(len(ps)))
	for _, p := range ps {
		dst = appendString(appendString(appendString(appendString(dst, p.ID), p.Start), p.Expiry), p.Perms)
	}
	return dst
}

// reader reads a payload's fields; the first field that does not read
// sets bad and reads as zero from then on.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || r.bad {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes() []byte {
	l := r.uvarint()
	if r.bad || l > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	b := r.b[:l]
	r.b = r.b[l:]
	return b
}

func (r *reader) string() string { return string(r.bytes()) }

// state is a store being rebuilt from records: its tables by ID, the
// service properties last recorded, the latest write time seen, and
// whether a snapshot's end was read.
type state struct {
	st      *store.Store
	tables  map[uint64]*store.Table
	service []byte
	maxTS   int64
	ended   bool
}

// apply applies a payload's records to the store.
func (s *state) apply(p []byte) error {
	r := reader{b: p}
	for len(r.b) > 0 && !r.bad {
		typ := r.b[0]
		r.b = r.b[1:]
		if err := s.applyOne(typ, &r); err != nil {
			return err
		}
	}
	if r.bad {
		return errRecord
	}
	return nil
}

// applyOne applies one record of the type, whose fields r reads.
func (s *state) applyOne(typ byte, r *reader) error {
	switch typ {
	case recService:
		s.service = append([]byte(nil), r.bytes()...)
		return nil
	case recEnd:
		s.ended = true
		return nil
	}
	id := r.uvarint()
	t := s.tables[id]
	switch typ {
	case recCreate:
		s.tables[id] = s.st.Restore(id, r.string())
	case recDrop:
		if t != nil {
			s.st.Discard(t)
			delete(s.tables, id)
		}
	case recNames:
		return s.names(t, r)
	case recPut:
		return s.put(t, r.bytes(), r.bad)
	case recRemove:
		pk, rk := r.string(), r.string()
		if t != nil && !r.bad {
			t.Lock()
			t.Delete(pk, rk)
			t.Unlock()
		}
	case recACL:
		ps := make([]store.Policy, r.uvarint())
		for i := range ps {
			ps[i] = store.Policy{ID: r.string(), Start: r.string(), Expiry: r.string(), Perms: r.string()}
		}
		if t != nil && !r.bad {
			t.SetPolicies(ps)
		}
	default:
		return fmt.Errorf("%w: type %q", errRecord, typ)
	}
	return nil
}

// names restores names of t's dictionary (nil t: a dropped table's).
func (s *state) names(t *store.Table, r *reader) error {
	first, n := r.uvarint(), r.uvarint()
	for i := uint64(0); i < n && !r.bad; i++ {
		name := r.string()
		if t != nil && !r.bad && !t.Names().Restore(int(first+i), name) {
			return fmt.Errorf("%w: name %d of table %s", errRecord, first+i, t.Name())
		}
	}
	return nil
}

// put stores an entity's record in t (nil t: a dropped table's).
func (s *state) put(t *store.Table, rec []byte, bad bool) error {
	if t == nil || bad {
		return nil
	}
	t.Lock()
	ts, err := t.PutRecord(rec)
	t.Unlock()
	if err != nil {
		return fmt.Errorf("%w: an entity of table %s", err, t.Name())
	}
	s.maxTS = max(s.maxTS, ts)
	return nil
}
