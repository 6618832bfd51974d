package store

import (
	"encoding/binary"
	"errors"
	"sort"
	"strings"
)

// What a journal of the store needs to record its changes and to build a
// store again from its records: a table's number (ID), the names its
// dictionary gained since it last asked (NewNames), an entity as the bytes
// of its record (AppendRecord), and the writes that rebuild a table from
// them (Restore, PutRecord, Delete). The store itself never writes
// anything down.

// ErrRecord is the error of a record that is not one AppendRecord wrote
// for a table of its dictionary.
var ErrRecord = errors.New("store: a malformed entity record")

// ID is the table's number: no other table of its store, dropped or not,
// had it. It tells a table apart from a later one of the same name.
func (t *Table) ID() uint64 { return t.id }

// NewNames returns the names the table's dictionary gained since the last
// call, and the id of the first: a journal writes them down before the
// entities that name them. Callers hold the write lock.
func (t *Table) NewNames() (first int, names []string) {
	all := *t.names.list.Load()
	first, t.told = t.told, len(all)
	return first, all[first:]
}

// Names returns the dictionary's names, by id.
func (n *Names) All() []string { return *n.list.Load() }

// Restore sets name as the dictionary's id, which must be its next one or
// one it holds under that name already; false otherwise.
func (n *Names) Restore(id int, name string) bool {
	n.mu.Lock()
	l := len(*n.list.Load())
	n.mu.Unlock()
	switch {
	case id < l:
		return n.name(uint32(id)) == name
	case id > l:
		return false
	}
	got, ok := n.id(name)
	return ok && int(got) == id
}

// AppendRecord appends the bytes of e's record (record.go), which
// PutRecord stores again in a table whose dictionary holds e's names
// under the same ids.
func AppendRecord(dst []byte, e *Entity) []byte {
	n := len(dst)
	dst = append(dst, make([]byte, recordLen(e))...)
	putRecord(dst[n:], e)
	return dst
}

// Tables returns the store's tables, sorted by name.
func (s *Store) Tables() []*Table {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Restore makes an empty table of that id and name, in place of any table
// of its name, as a journal rebuilds the store: the tables created later
// get greater ids.
func (s *Store) Restore(id uint64, name string) *Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.newTable(id, name)
	s.tables[strings.ToLower(name)] = t
	s.lastID = max(s.lastID, id)
	return t
}

// Discard drops t if it is still the table of its name, as a journal
// rebuilds the store.
func (s *Store) Discard(t *Table) {
	s.mu.Lock()
	k := strings.ToLower(t.name)
	if s.tables[k] == t {
		delete(s.tables, k)
	}
	s.mu.Unlock()
	t.Lock()
	t.clear()
	t.Unlock()
}

// Observe makes every write time handed out after later than ticks (a
// write time in 100 ns units, as Entity.Ticks), so a store rebuilt from a
// journal never issues an ETag it issued before.
func (s *Store) Observe(ticks int64) {
	for {
		last := s.lastTS.Load()
		if last >= ticks || s.lastTS.CompareAndSwap(last, ticks) {
			return
		}
	}
}

// PutRecord stores the entity whose record AppendRecord wrote, replacing
// the one with its keys, accounting its size when the table keeps sizes,
// and returns its write time; ErrRecord, storing nothing, for bytes that
// are not such a record or that name a property the dictionary does not
// hold. Callers hold the write lock.
func (t *Table) PutRecord(rec []byte) (int64, error) {
	e, ok := parseRecord(rec, t.names)
	if !ok {
		return 0, ErrRecord
	}
	if t.sizes != nil {
		t.Grow(e.pk, e.Bytes()-t.Get(e.pk, e.rk).Bytes(), 0)
	}
	t.Put(&e)
	return e.ts, nil
}

// Delete removes the entity with the keys, if any, as Remove does, and
// accounts its size when the table keeps sizes. Callers hold the write
// lock.
func (t *Table) Delete(pk, rk string) {
	if t.sizes != nil {
		t.Grow(pk, -t.Get(pk, rk).Bytes(), 0)
	}
	t.Remove(pk, rk)
}

// parseRecord reads a record's bytes into an entity that aliases them,
// checking every length and name id.
func parseRecord(b []byte, nm *Names) (Entity, bool) {
	var e Entity
	lp, n := binary.Uvarint(b)
	if n <= 0 {
		return e, false
	}
	b = b[n:]
	lr, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) < lp+lr+8 {
		return e, false
	}
	b = b[n:]
	e.pk, e.rk, b = string(b[:lp]), string(b[lp:lp+lr]), b[lp+lr:]
	e.ts, b = int64(binary.LittleEndian.Uint64(b)), b[8:]
	size, n := binary.Uvarint(b)
	if n <= 0 {
		return e, false
	}
	b = b[n:]
	lprops, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) != lprops {
		return e, false
	}
	e.size, e.props, e.names = int(size), b[n:], nm
	if len(e.props) == 0 {
		e.props = nil
	}
	return e, validProps(e.props, nm.len())
}
