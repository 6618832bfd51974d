package store

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// Store holds the account's tables. Table names are case-insensitive. It
// is safe for concurrent use.
type Store struct {
	mu     sync.RWMutex
	tables map[string]*Table
	clock  func() time.Time
	lastTS atomic.Int64 // last timestamp handed out, in 100 ns units
	// sized makes new tables keep their partitions' sizes (table.sizes).
	sized bool
	// lastID is the id of the last table made (Table.ID), under mu.
	lastID uint64
}

// New returns a store of no table, whose write times come from clock.
// With sized, its tables keep their partitions' sizes (Table.Grow).
func New(clock func() time.Time, sized bool) *Store {
	return &Store{tables: map[string]*Table{}, clock: clock, sized: sized}
}

// Table returns the table of that name, nil when there is none.
func (s *Store) Table(name string) *Table {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tables[strings.ToLower(name)]
}

// Create makes an empty table and reports whether it did: false when a
// table of that name (in any case) exists.
func (s *Store) Create(name string) bool { return s.CreateThen(name, nil) }

// CreateThen is Create, calling then (unless nil) with the new table under
// the store's lock, so that what then records of it (a journal) is in the
// order of the creations and drops of tables of its name.
func (s *Store) CreateThen(name string, then func(*Table)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := strings.ToLower(name)
	if _, ok := s.tables[k]; ok {
		return false
	}
	s.lastID++
	s.tables[k] = s.newTable(s.lastID, name)
	if then != nil {
		then(s.tables[k])
	}
	return true
}

// newTable makes a table of the store, which keeps sizes when the store
// does.
func (s *Store) newTable(id uint64, name string) *Table {
	t := NewTable(name)
	t.id = id
	if s.sized {
		t.sizes = map[string]int64{}
	}
	return t
}

// Drop deletes a table and releases its memory, and reports whether there
// was one.
func (s *Store) Drop(name string) bool { return s.DropThen(name, nil) }

// DropThen is Drop, calling then (unless nil) with the table dropped under
// the store's lock (see CreateThen).
func (s *Store) DropThen(name string, then func(*Table)) bool {
	k := strings.ToLower(name)
	s.mu.Lock()
	t, ok := s.tables[k]
	delete(s.tables, k)
	if ok && then != nil {
		then(t)
	}
	s.mu.Unlock()
	if !ok {
		return false
	}
	// A request that found the table before it was dropped finds it empty.
	t.Lock()
	t.clear()
	t.Unlock()
	return true
}

// Names returns the table names, sorted.
func (s *Store) Names() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t.name)
	}
	sort.Strings(out)
	return out
}

// OffHeapBytes is the memory the tables hold outside the Go heap: their
// slabs and their key indexes' mapped slots.
func (s *Store) OffHeapBytes() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, t := range s.tables {
		t.RLock()
		n += t.slab.mapped + t.idx.mappedBytes()
		t.RUnlock()
	}
	return n
}

// Timestamp returns a fresh write time, strictly later than the previous
// one, so every write gets a distinct ETag.
func (s *Store) Timestamp() time.Time {
	now := s.clock().UTC().UnixNano() / 100
	for {
		last := s.lastTS.Load()
		next := max(now, last+1)
		if s.lastTS.CompareAndSwap(last, next) {
			return edm.TicksTime(next)
		}
	}
}
