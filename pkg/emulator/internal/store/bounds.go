package store

import (
	"strings"

	"github.com/tablestress/tablestress/internal/keyorder"
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
func (t *Table) Extends(pk string) int {
	if t.tree.Len() == 0 {
		return 0
	}
	end := t.EndOf(pk)
	if end == 0 { // in the middle, whether or not it exists: no seek
		return 0
	}
	exists := false
	t.Ascend(pk, "", func(e *Entity) bool {
		exists = e.pk == pk
		return false
	})
	if exists {
		return 0
	}
	return end
}

// endOf reports whether PartitionKey pk lies in the table's last range
// partition (+1: above every key but those of its greatest rangeRows rows)
// or its first (-1), else 0: where the model charges a query's visits to
// it, and where a new key lands. Callers hold a read lock.
func (t *Table) EndOf(pk string) int {
	head, tail := t.bounds()
	switch {
	case head == "" && tail == "":
		return 0
	case keyorder.Less(tail, pk):
		return +1
	case keyorder.Less(pk, head):
		return -1
	}
	return 0
}

// bounds returns the PartitionKeys that bound the table's first and last
// range partitions, refreshed when the table has grown or shrunk by a
// quarter of rangeRows since they were taken; both "" for an empty table.
// Callers hold a read lock.
func (t *Table) bounds() (head, tail string) {
	n := t.tree.Len()
	if n == 0 {
		return "", ""
	}
	t.bmu.Lock()
	defer t.bmu.Unlock()
	if n < t.boundsAt-rangeRows/4 || n > t.boundsAt+rangeRows/4 || t.boundsAt == 0 {
		t.headTo, t.tailFrom = "", ""
		k := 0
		t.Ascend("", "", func(e *Entity) bool { t.headTo = e.pk; k++; return k < min(rangeRows, n/2+1) })
		k = 0
		t.descend(func(e *Entity) bool { t.tailFrom = e.pk; k++; return k < min(rangeRows, n/2+1) })
		// The views' keys alias the slab: keep copies.
		t.headTo, t.tailFrom, t.boundsAt = strings.Clone(t.headTo), strings.Clone(t.tailFrom), n
	}
	return t.headTo, t.tailFrom
}
