package model

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"
)

// The ends of a table's key range.
const (
	firstEnd = 0 // prepend-only inserts: new keys below all others
	lastEnd  = 1 // append-only inserts: new keys above all others
)

var endNames = [2]string{"first", "last"}

// rangeEnd is the first or last range partition of a table: one bucket at
// RangeTarget for every insert that creates a new key at that end, however
// many distinct PartitionKeys they create (the partitioning guide, "Range
// partitions").
type rangeEnd struct {
	b       bucket
	served  meter
	hot     streak
	offline int64 // offline until (splitting)
	splits  int64
}

// tableRanges holds a table's two end ranges, guarded by mu (taken after a
// shard's mutex, never together with a server's), its name, which every
// partition of the table shares, and under Cosmos DB its physical
// partitions (each under its own mutex, taken after a shard's).
type tableRanges struct {
	name string // read-only
	mu   sync.Mutex
	ends [2]rangeEnd
	phys []physical
}

func newTableRanges(name string, phys int) *tableRanges {
	t := &tableRanges{name: name, phys: make([]physical, phys)}
	for i := range t.ends {
		t.ends[i] = rangeEnd{b: fullBucket(), hot: noStreak(), offline: never}
	}
	for i := range t.phys {
		t.phys[i].b = fullBucket()
	}
	return t
}

// tableSet maps table names to their end ranges. Readers load the map
// without a lock; a new table copies it (tables are few and rarely made).
// One small entry per table the model ever saw is kept.
type tableSet struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]*tableRanges]
	// phys is how many physical partitions a new table gets (Cosmos DB;
	// 0 under Azure). Read-only after New.
	phys int
}

func (s *tableSet) get(table string) *tableRanges {
	if m := s.m.Load(); m != nil {
		if t := (*m)[table]; t != nil {
			return t
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := map[string]*tableRanges{}
	if m := s.m.Load(); m != nil {
		if t := (*m)[table]; t != nil {
			return t
		}
		old = *m
	}
	next := maps.Clone(old)
	t := newTableRanges(strings.Clone(table), s.phys)
	next[t.name] = t
	s.m.Store(&next)
	return t
}

// each calls f for every table's ranges, in no particular order.
func (s *tableSet) each(f func(table string, t *tableRanges)) {
	if m := s.m.Load(); m != nil {
		for name, t := range *m {
			f(name, t)
		}
	}
}

// admitEnd decides an insert of n entities that creates a new PartitionKey
// at one end of the table (or a query page starting in that end range, n =
// 0), and takes the tokens if it passes. An end range
// over its target for BalanceDelay splits: it is offline for MoveOffline,
// and since new keys keep landing at the end, it is as hot afterwards.
// The caller holds the partition's shard lock.
func (m *Model) admitEnd(table string, end int, n float64, ahead, now int64) Decision {
	t := m.tables.get(table)
	t.mu.Lock()
	defer t.mu.Unlock()
	e := &t.ends[end]
	if now < e.offline {
		return m.refusals.offline()
	}
	if !e.b.allows(m.rangeLimit, now, n, ahead) {
		if e.hot.refused(now, m.cfg.BalanceDelay) {
			until := now + int64(m.cfg.MoveOffline)
			e.offline, e.hot = until, noStreak()
			e.splits++
			m.moves.Add(1)
			m.log.add(Move{At: m.at(now), Kind: "range", Table: table, End: endNames[end], From: -1, To: -1, OfflineUntil: m.at(until)})
		}
		return m.refusals.throttle(byRange)
	}
	load := e.served.rate(now) / m.cfg.RangeTarget
	e.b.take(m.rangeLimit, now, n)
	e.served.add(now, n)
	return Decision{Allow: true, Load: load}
}
