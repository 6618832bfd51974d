package store

import (
	"strings"
	"sync"
	"sync/atomic"
)

// maxNames is how many property names a table's dictionary holds; the
// names of a table with more distinct ones than that are stored in each
// entity instead (see codec.go), so a stream of ever new names cannot
// grow the dictionary without bound.
const maxNames = 1 << 16

// Names is a table's dictionary of property names: a stored entity holds
// a small id for each property name rather than the name, which most
// tables repeat in every row. Ids are assigned once and never change or
// get reused. It is safe for concurrent use; reading a name takes no lock.
type Names struct {
	ids  sync.Map // name → uint32 id
	mu   sync.Mutex
	list atomic.Pointer[[]string] // id → name
}

func NewNames() *Names {
	n := &Names{}
	n.list.Store(new([]string))
	return n
}

// id returns name's id, assigning the next one to a new name; false when
// the dictionary is full.
func (n *Names) id(name string) (uint32, bool) {
	if id, ok := n.ids.Load(name); ok {
		return id.(uint32), true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if id, ok := n.ids.Load(name); ok {
		return id.(uint32), true
	}
	list := *n.list.Load()
	if len(list) >= maxNames {
		return 0, false
	}
	id := uint32(len(list))
	// Appending may write past the length readers of the previous slice
	// know, never into it.
	list = append(list, strings.Clone(name))
	n.list.Store(&list)
	n.ids.Store(list[id], id)
	return id, true
}

// name returns the name of an id that id returned.
func (n *Names) name(id uint32) string { return (*n.list.Load())[id] }

// len is how many names the dictionary holds.
func (n *Names) len() int { return len(*n.list.Load()) }
