package emulator

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// rangeRows is how many rows the model's first and last range partitions
// hold: a new PartitionKey among the table's greatest (or least) rangeRows
// rows lands in the last (first) range partition. Concurrent append-only
// inserts arrive slightly out of order; they still land there.
const rangeRows = 256

// extends reports whether a write creates a new PartitionKey in the
// table's last range partition (+1: beyond or among its greatest rangeRows
// rows, the append-only pattern) or its first (-1: prepend-only); 0 for an
// existing PartitionKey or one in the middle. Callers hold a read lock.
func (t *table) extends(pk string) int {
	if t.tree.Len() == 0 {
		return 0
	}
	exists := false
	t.ascend(pk, "", func(e *entity) bool {
		exists = e.pk == pk
		return false
	})
	if exists {
		return 0
	}
	return t.endOf(pk)
}

// endOf reports whether PartitionKey pk lies in the table's last range
// partition (+1: above every key but those of its greatest rangeRows rows)
// or its first (-1), else 0: where the model charges a query's visits to
// it, and where a new key lands. Callers hold a read lock.
func (t *table) endOf(pk string) int {
	head, tail := t.bounds()
	switch {
	case head == "" && tail == "":
		return 0
	case pk > tail:
		return +1
	case pk < head:
		return -1
	}
	return 0
}

// bounds returns the PartitionKeys that bound the table's first and last
// range partitions, refreshed when the table has grown or shrunk by a
// quarter of rangeRows since they were taken; both "" for an empty table.
// Callers hold a read lock.
func (t *table) bounds() (head, tail string) {
	n := t.tree.Len()
	if n == 0 {
		return "", ""
	}
	t.bmu.Lock()
	defer t.bmu.Unlock()
	if n < t.boundsAt-rangeRows/4 || n > t.boundsAt+rangeRows/4 || t.boundsAt == 0 {
		t.headTo, t.tailFrom = "", ""
		k := 0
		t.ascend("", "", func(e *entity) bool { t.headTo = e.pk; k++; return k < min(rangeRows, n/2+1) })
		k = 0
		t.descend(func(e *entity) bool { t.tailFrom = e.pk; k++; return k < min(rangeRows, n/2+1) })
		// The views' keys alias the slab: keep copies.
		t.headTo, t.tailFrom, t.boundsAt = strings.Clone(t.headTo), strings.Clone(t.tailFrom), n
	}
	return t.headTo, t.tailFrom
}

// store holds the account's tables. Table names are case-insensitive.
type store struct {
	mu     sync.RWMutex
	tables map[string]*table
	clock  func() time.Time
	lastTS atomic.Int64 // last timestamp handed out, in 100 ns units
	// sized makes new tables keep their partitions' sizes (table.sizes).
	sized bool
}

func newStore(clock func() time.Time) *store {
	return &store{tables: map[string]*table{}, clock: clock}
}

func (s *store) table(name string) *table {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tables[strings.ToLower(name)]
}

func (s *store) create(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := strings.ToLower(name)
	if _, ok := s.tables[k]; ok {
		return false
	}
	t := newTable(name)
	if s.sized {
		t.sizes = map[string]int64{}
	}
	s.tables[k] = t
	return true
}

func (s *store) drop(name string) bool {
	k := strings.ToLower(name)
	s.mu.Lock()
	t, ok := s.tables[k]
	delete(s.tables, k)
	s.mu.Unlock()
	if !ok {
		return false
	}
	// A request that found the table before it was dropped finds it empty.
	t.mu.Lock()
	t.clear()
	t.mu.Unlock()
	return true
}

// names returns the table names, sorted.
func (s *store) names() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t.name)
	}
	sort.Strings(out)
	return out
}

// offHeapBytes is the memory the tables hold outside the Go heap: their
// slabs and their key indexes' mapped slots.
func (s *store) offHeapBytes() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, t := range s.tables {
		t.mu.RLock()
		n += t.slab.mapped + t.idx.mappedBytes()
		t.mu.RUnlock()
	}
	return n
}

// timestamp returns a fresh write time, strictly later than the previous
// one, so every write gets a distinct ETag.
func (s *store) timestamp() time.Time {
	now := s.clock().UTC().UnixNano() / 100
	for {
		last := s.lastTS.Load()
		next := max(now, last+1)
		if s.lastTS.CompareAndSwap(last, next) {
			return edm.TicksTime(next)
		}
	}
}

// grow accounts delta bytes to partition pk of table t when the table keeps
// sizes, refusing a growth beyond the model's partition limit (Cosmos DB's
// 20 GB logical partition) with its answer. The caller holds t's write
// lock and applies the change when grow returns nil.
func (s *Server) grow(t *table, pk string, delta int) *apiError {
	if t.sizes == nil {
		return nil
	}
	n := t.sizes[pk] + int64(delta)
	if limit := s.model.PartitionBytes(); limit > 0 && delta > 0 && n > limit {
		d := s.model.PartitionFull()
		return &apiError{d.Status, d.Code, d.Message}
	}
	if n <= 0 {
		delete(t.sizes, pk)
	} else {
		t.sizes[pk] = n
	}
	return nil
}
