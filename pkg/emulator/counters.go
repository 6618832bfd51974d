package emulator

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// stats are the counters behind Stats, built for many requests counting
// at once: a request finds its table's and its partition's counters under
// read locks (shared, so requests never wait for each other there; only
// the first request of a table or partition takes a write lock to add it)
// and counts with atomic additions. A snapshot taken while requests are
// counted may see one request's outcome without its entities; once they
// are answered, the counts are exact.
type stats struct {
	mu     sync.RWMutex
	tables map[string]*tableCounters
}

// tableCounters are one table's counters.
type tableCounters struct {
	mu    sync.RWMutex
	parts map[string]*partCounters

	vmu     sync.Mutex // for visited, counted per query page
	visited map[string]int64
}

// partCounters are one partition's counters (see PartitionStats).
type partCounters struct {
	entities, dropped, discarded atomic.Int64
	// keys are the outcome keys counted so far, in the order they first
	// came: a list copied on write, as a partition sees a handful.
	keys  atomic.Pointer[[]*keyCount]
	keyMu sync.Mutex // serialises adding a key
}

// keyCount counts the answers of one outcome key.
type keyCount struct {
	key string
	n   atomic.Int64
}

func newStats() *stats { return &stats{tables: map[string]*tableCounters{}} }

// of returns a table's counters, creating them.
func (s *stats) of(table string) *tableCounters {
	s.mu.RLock()
	t := s.tables[table]
	s.mu.RUnlock()
	if t != nil {
		return t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t = s.tables[table]; t == nil {
		t = &tableCounters{parts: map[string]*partCounters{}, visited: map[string]int64{}}
		s.tables[table] = t
	}
	return t
}

// part returns a partition's counters, creating them.
func (t *tableCounters) part(name string) *partCounters {
	t.mu.RLock()
	p := t.parts[name]
	t.mu.RUnlock()
	if p != nil {
		return p
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p = t.parts[name]; p == nil {
		p = &partCounters{}
		t.parts[name] = p
	}
	return p
}

// count returns the counter of an outcome key, adding it.
func (p *partCounters) count(key string) *atomic.Int64 {
	if ks := p.keys.Load(); ks != nil {
		for _, k := range *ks {
			if k.key == key {
				return &k.n
			}
		}
	}
	p.keyMu.Lock()
	defer p.keyMu.Unlock()
	var old []*keyCount
	if ks := p.keys.Load(); ks != nil {
		old = *ks
	}
	for _, k := range old { // added while this request waited
		if k.key == key {
			return &k.n
		}
	}
	k := &keyCount{key: key}
	ks := append(old[:len(old):len(old)], k)
	p.keys.Store(&ks)
	return &k.n
}

func (s *stats) record(table, part, key string, entities int, discarded bool) {
	p := s.of(table).part(part)
	p.count(key).Add(1)
	if entities != 0 {
		p.entities.Add(int64(entities))
	}
	if key == dropKey {
		p.dropped.Add(1)
	}
	if discarded {
		p.discarded.Add(1)
	}
}

// visits counts the entities a query page visited, partition by
// partition.
func (s *stats) visits(table string, vs []model.Visit) {
	if len(vs) == 0 {
		return
	}
	t := s.of(table)
	t.vmu.Lock()
	defer t.vmu.Unlock()
	for _, v := range vs {
		if v.Visited > 0 {
			t.visited[v.Partition] += int64(v.Visited)
		}
	}
}

// snapshot copies the counters.
func (s *stats) snapshot() map[string]*TableStats {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]*TableStats, len(s.tables))
	for name, t := range s.tables {
		t.mu.RLock()
		ct := &TableStats{Partitions: make(map[string]*PartitionStats, len(t.parts))}
		for k, p := range t.parts {
			ct.Partitions[k] = p.snapshot()
		}
		t.mu.RUnlock()
		t.vmu.Lock()
		ct.Visited = maps.Clone(t.visited)
		t.vmu.Unlock()
		out[name] = ct
	}
	return out
}

// snapshot copies a partition's counters.
func (p *partCounters) snapshot() *PartitionStats {
	ps := &PartitionStats{Requests: map[string]int64{}, Entities: p.entities.Load(),
		Dropped: p.dropped.Load(), Discarded: p.discarded.Load()}
	if ks := p.keys.Load(); ks != nil {
		for _, k := range *ks {
			ps.Requests[k.key] = k.n.Load()
		}
	}
	return ps
}

func (s *stats) reset() {
	s.mu.Lock()
	s.tables = map[string]*tableCounters{}
	s.mu.Unlock()
}
