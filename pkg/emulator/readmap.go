package emulator

import (
	"strings"
	"sync"
	"sync/atomic"
)

// readMap maps strings to values created on first use, for maps read on
// every request and added to rarely: a lookup of a key already there is a
// plain map read, without a lock or an atomic write, so requests on every
// CPU read it at once without a cache line moving between them. New keys
// go into a locked map first, merged into the read map once the locked
// lookups since the last merge reach an eighth of its size (each merge
// copies the read map: amortized, a key is copied a bounded number of
// times however many are added). Safe for concurrent use; the zero
// readMap is empty.
type readMap[V any] struct {
	read   atomic.Pointer[map[string]*V]
	mu     sync.Mutex
	dirty  map[string]*V // keys not yet in read
	misses int           // lookups under mu since the last merge
}

// get returns the value of k, created by create (under a lock) when k is
// new.
func (m *readMap[V]) get(k string, create func() *V) *V {
	read := m.read.Load()
	if read != nil {
		if v, ok := (*read)[k]; ok {
			return v
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var r map[string]*V
	if read = m.read.Load(); read != nil {
		r = *read
	}
	if v, ok := r[k]; ok {
		return v
	}
	v, ok := m.dirty[k]
	if !ok {
		v = create()
		if m.dirty == nil {
			m.dirty = map[string]*V{}
		}
		m.dirty[strings.Clone(k)] = v // k may be part of a request's URL
	}
	if m.misses++; m.misses >= len(r)/8+8 {
		merged := make(map[string]*V, len(r)+len(m.dirty))
		for k, v := range r {
			merged[k] = v
		}
		for k, v := range m.dirty {
			merged[k] = v
		}
		m.read.Store(&merged)
		m.dirty, m.misses = nil, 0
	}
	return v
}

// each calls fn for every key and value, in no order, the keys added
// meanwhile or not.
func (m *readMap[V]) each(fn func(k string, v *V)) {
	m.mu.Lock()
	var r map[string]*V
	if read := m.read.Load(); read != nil {
		r = *read
	}
	dirty := make(map[string]*V, len(m.dirty))
	for k, v := range m.dirty {
		dirty[k] = v
	}
	m.mu.Unlock()
	for k, v := range r {
		fn(k, v)
	}
	for k, v := range dirty {
		fn(k, v)
	}
}
