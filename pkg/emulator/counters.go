package emulator

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// stats are the counters behind Stats, built for many requests counting
// at once: a request finds its table's and its partition's counters
// without a lock (only the first request of a table or partition takes
// one, to add it) and counts with atomic additions. A snapshot taken while requests are
// counted may see one request's outcome without its entities; once they
// are answered, the counts are exact.
type stats struct {
	// tables is replaced, copied, when a table is added (under mu).
	tables atomic.Pointer[map[string]*tableCounters]
	mu     sync.Mutex
}

// tableCounters are one table's counters.
type tableCounters struct {
	parts sync.Map // partition name → *partCounters

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

func newStats() *stats {
	s := &stats{}
	s.tables.Store(&map[string]*tableCounters{})
	return s
}

// of returns a table's counters, creating them.
func (s *stats) of(table string) *tableCounters {
	if t := (*s.tables.Load())[table]; t != nil {
		return t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.tables.Load()
	if t := old[table]; t != nil {
		return t
	}
	t := &tableCounters{visited: map[string]int64{}}
	m := make(map[string]*tableCounters, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	m[table] = t
	s.tables.Store(&m)
	return t
}

// part returns a partition's counters, creating them.
func (t *tableCounters) part(name string) *partCounters {
	if p, ok := t.parts.Load(name); ok {
		return p.(*partCounters)
	}
	p, _ := t.parts.LoadOrStore(name, &partCounters{})
	return p.(*partCounters)
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
	tables := *s.tables.Load()
	out := make(map[string]*TableStats, len(tables))
	for name, t := range tables {
		ct := &TableStats{Partitions: map[string]*PartitionStats{}}
		t.parts.Range(func(k, p any) bool {
			ct.Partitions[k.(string)] = p.(*partCounters).snapshot()
			return true
		})
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
	s.tables.Store(&map[string]*tableCounters{})
	s.mu.Unlock()
}
