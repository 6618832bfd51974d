package emulator

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// counters are the counts behind Stats, built for many requests counting
// at once: a request finds its table's and its partition's counters in
// readMaps, without a lock (only the first requests of a table or
// partition take one), and counts with atomic additions. A snapshot taken
// while requests are counted may see one request's outcome without its
// entities; once they are answered, the counts are exact.
type counters struct {
	tables atomic.Pointer[readMap[tableCounters]] // replaced by reset
}

// tableCounters are one table's counters.
type tableCounters struct {
	parts readMap[partCounters]

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

func newCounters() *counters {
	s := &counters{}
	s.tables.Store(&readMap[tableCounters]{})
	return s
}

func newTableCounters() *tableCounters { return &tableCounters{visited: map[string]int64{}} }

func newPartCounters() *partCounters { return &partCounters{} }

// of returns a table's counters, creating them.
func (s *counters) of(table string) *tableCounters {
	return s.tables.Load().get(table, newTableCounters)
}

// part returns a partition's counters, creating them.
func (t *tableCounters) part(name string) *partCounters { return t.parts.get(name, newPartCounters) }

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

func (s *counters) record(table, part, key string, entities int, discarded bool) {
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
func (s *counters) visits(table string, vs []model.Visit) {
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
func (s *counters) snapshot() map[string]*TableStats {
	out := map[string]*TableStats{}
	s.tables.Load().each(func(name string, t *tableCounters) {
		ct := &TableStats{Partitions: map[string]*PartitionStats{}}
		t.parts.each(func(k string, p *partCounters) { ct.Partitions[k] = p.snapshot() })
		t.vmu.Lock()
		ct.Visited = maps.Clone(t.visited)
		t.vmu.Unlock()
		out[name] = ct
	})
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

func (s *counters) reset() { s.tables.Store(&readMap[tableCounters]{}) }
