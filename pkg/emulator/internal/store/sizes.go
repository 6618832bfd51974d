package store

// KeepsSizes reports whether the table keeps its partitions' sizes (a
// store made sized), which a write then changes by the difference
// between the entity it stores and the one it replaces.
func (t *Table) KeepsSizes() bool { return t.sizes != nil }

// Grow accounts delta bytes (Entity.Bytes) to partition pk when the table
// keeps sizes, and reports whether it did: false, changing nothing, for a
// growth beyond limit bytes (limit 0: none). The caller holds the write
// lock and applies the change when Grow returns true.
func (t *Table) Grow(pk string, delta int, limit int64) bool {
	if t.sizes == nil {
		return true
	}
	n := t.sizes[pk] + int64(delta)
	if limit > 0 && delta > 0 && n > limit {
		return false
	}
	if n <= 0 {
		delete(t.sizes, pk)
	} else {
		t.sizes[pk] = n
	}
	return true
}
