package jsontext

import (
	"sync"
	"sync/atomic"
)

// memberNames interns the names of object members: the bodies of a workload
// carry the same few names over and over, read without allocating once
// seen.
var memberNames internTable

// maxInterned bounds an internTable: past it, names are allocated each
// time (bodies whose names never repeat fill it once and for all).
const maxInterned = 1024

// internTable is a set of strings read without a lock: a map replaced,
// copied, whenever a string is added. Safe for concurrent use.
type internTable struct {
	m  atomic.Pointer[map[string]string]
	mu sync.Mutex // serialises additions
}

// get returns b as a string, the same one every time once interned.
func (t *internTable) get(b []byte) string {
	if m := t.m.Load(); m != nil {
		if s, ok := (*m)[string(b)]; ok {
			return s
		}
	}
	s := string(b)
	if t.mu.TryLock() { // when another is adding, this one is not kept
		old := t.m.Load()
		if old == nil || len(*old) < maxInterned {
			m := make(map[string]string, 1+len(ptrMap(old)))
			for k, v := range ptrMap(old) {
				m[k] = v
			}
			m[s] = s
			t.m.Store(&m)
		}
		t.mu.Unlock()
	}
	return s
}

// ptrMap is *m, or nil.
func ptrMap(m *map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	return *m
}
