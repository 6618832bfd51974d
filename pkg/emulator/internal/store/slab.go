package store

// Chunk sizes: a table's first chunk is small, each next one twice the
// last up to chunkMax; a record over chunkMax/4 gets a chunk of its own.
const (
	chunkMin = 64 << 10
	chunkMax = 1 << 20
)

// slab holds a table's records (record.go) in large chunks of memory,
// outside the Go heap where the system allows (mapChunk), packed end to
// end without per-record headers or padding. A record is named by a ref:
// its chunk's id in the high 32 bits, its offset in the low 32, a value
// without pointers, so the table's B-tree of refs is nothing for the
// garbage collector to scan.
//
// Records are immutable: a write appends a new record and frees the old
// one, whose bytes stay dead in their chunk until compaction (Table.compact)
// moves the chunk's live records elsewhere and releases it. A chunk whose
// records are all dead is released at once. Released memory is unmapped:
// a record's bytes may be read only under the lock of the table that
// holds it, and whatever outlives the lock is copied out first
// (see Entity). A slab is guarded by its table's write lock.
type slab struct {
	byID   []*chunk // by chunk id; nil for ids free for reuse
	freeID []uint32
	active *chunk // where new records go
	next   int    // the size of the next chunk
	mapped int    // bytes of every chunk
	live   int    // bytes of live records
}

// chunk is one piece of memory of a slab.
type chunk struct {
	id   uint32
	mem  []byte
	used int  // records occupy mem[:used]
	live int  // bytes of live records
	heap bool // mem is from the Go heap, not mapChunk
}

// at returns a pointer to the record ref names.
func (s *slab) at(ref uint64) *byte { return &s.byID[ref>>32].mem[uint32(ref)] }

// alloc returns the ref and bytes of a new live record of n bytes.
func (s *slab) alloc(n int) (uint64, []byte) {
	c := s.active
	if n > chunkMax/4 {
		c = s.add(n) // a chunk of its own, never active
	} else if c == nil || c.used+n > len(c.mem) {
		s.next = min(max(s.next*2, chunkMin), chunkMax)
		for s.next < n {
			s.next *= 2
		}
		c = s.add(s.next)
		s.active = c
	}
	ref := uint64(c.id)<<32 | uint64(c.used)
	b := c.mem[c.used : c.used+n : c.used+n]
	c.used += n
	c.live += n
	s.live += n
	return ref, b
}

// add maps a chunk of n bytes.
func (s *slab) add(n int) *chunk {
	c := &chunk{mem: mapChunk(n)}
	if c.mem == nil {
		c.mem, c.heap = make([]byte, n), true
	}
	s.mapped += len(c.mem)
	if k := len(s.freeID); k > 0 {
		c.id, s.freeID = s.freeID[k-1], s.freeID[:k-1]
		s.byID[c.id] = c
	} else {
		c.id = uint32(len(s.byID))
		s.byID = append(s.byID, c)
	}
	return c
}

// ZeroFreed makes free zero a dead record's keys, time and properties
// (not the lengths compaction walks the chunk by), so that a view kept
// past its table's lock reads zeros rather than the old entity; tests set
// it.
var ZeroFreed = false

// free marks the n-byte record ref dead, releasing its chunk when that
// held the last live record (and takes no more).
func (s *slab) free(ref uint64, n int) {
	c := s.byID[ref>>32]
	if ZeroFreed {
		scrub(s.at(ref))
	}
	c.live -= n
	s.live -= n
	if c.live == 0 && c != s.active {
		s.release(c)
	}
}

// release unmaps a chunk and forgets it.
func (s *slab) release(c *chunk) {
	s.byID[c.id] = nil
	s.freeID = append(s.freeID, c.id)
	s.mapped -= len(c.mem)
	s.live -= c.live
	if c == s.active {
		s.active = nil
	}
	if !c.heap {
		unmapChunk(c.mem)
	}
	c.mem = nil
}

// releaseAll releases every chunk.
func (s *slab) releaseAll() {
	for _, c := range s.byID {
		if c != nil {
			s.release(c)
		}
	}
	s.byID, s.freeID = nil, nil
}

// sparse returns the chunk worth compacting, nil when none is: the
// inactive chunk with dead records and the fewest live bytes, once the
// slab's dead bytes are over a third of it and over two full chunks.
// Moving that chunk's records costs at most twice the dead bytes it
// frees.
func (s *slab) sparse() *chunk {
	dead := s.mapped - s.live
	if dead < 2*chunkMax || 3*dead < s.mapped {
		return nil
	}
	var best *chunk
	for _, c := range s.byID {
		if c != nil && c != s.active && c.live < c.used && (best == nil || c.live < best.live) {
			best = c
		}
	}
	return best
}
