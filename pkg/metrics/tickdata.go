package metrics

// tickData is what one recorder gathered since the last tick. A recorder
// owns two and the registry's tick swaps them: one is filled by the worker
// while the other is merged and emptied. Emptying keeps every slice's
// capacity and the partition slots, so a steady worker allocates nothing.
type tickData struct {
	gen      uint32 // resets so far: the age of partition slots
	outcomes outcomeTable
	ops      [NumOps]opAcc
	qs       []qAcc           // by question index (Options.Questions)
	parts    map[string]int32 // partition key -> index in slots
	slots    []partAcc
	last     int32     // the slot part returned last, tried first
	used     []int32   // slots touched since the last reset
	free     []int32   // evicted slots, for reuse
	secs     []*secAcc // seconds touched since the last reset
	spare    []*secAcc // emptied seconds, for reuse
}

// opAcc is one operation's figures within one tick.
type opAcc struct {
	c      Counts
	status []int64  // by outcome index
	lat    *Compact // HDRBits: maps 1:1 onto the registry's HDR histograms
}

func (o *opAcc) addStatus(id uint16) {
	if int(id) >= len(o.status) {
		o.status = append(o.status, make([]int64, int(id)+1-len(o.status))...)
	}
	o.status[id]++
}

// partAcc is one partition's figures within one tick.
type partAcc struct {
	key    string
	c      Counts
	status []idCount
	secs   []secCount // entities by second of completion
	lat    *Compact
	seen   uint32 // the reset generation it was last touched in
	inUse  bool   // on the used list
}

// secCount is a second, the entities served in it, whether a request was
// throttled in it, and the request units charged in it (hundredths).
type secCount struct {
	sec       int32
	n         int64
	throttled bool
	cu        int64
}

func (p *partAcc) addEntities(sec int32, n int64, throttled bool, cu int64) {
	for i := len(p.secs) - 1; i >= 0; i-- {
		if p.secs[i].sec == sec {
			p.secs[i].n += n
			p.secs[i].throttled = p.secs[i].throttled || throttled
			p.secs[i].cu += cu
			return
		}
	}
	p.secs = append(p.secs, secCount{sec, n, throttled, cu})
}

// secAcc is one second's figures within one tick.
type secAcc struct {
	sec int32
	c   Counts
	lat *Compact
}

// Eviction of partition slots: every evictEvery resets, slots untouched for
// more than evictAfter resets are freed, and the slot table is rebuilt when
// it is mostly free, so a recorder's memory follows the partitions it
// touched recently, not every partition of the run.
const (
	evictEvery = 4
	evictAfter = 4
	shrinkMin  = 256
)

func newTickData() *tickData {
	d := &tickData{parts: map[string]int32{}}
	for i := range d.ops {
		d.ops[i].lat = NewCompact(HDRBits)
	}
	return d
}

// part returns partition key's slot, marking it used in this tick. The
// slot it returned last is tried before the map: an operation's request
// and its completion are recorded one after the other, under one key. A
// slot holds its key while it is in use, so a slot whose key is key is
// key's, whatever evictions and rebuilds happened since; a free slot's key
// is "", so the empty key goes through the map.
func (d *tickData) part(key string) *partAcc {
	i := d.last
	if int(i) >= len(d.slots) || d.slots[i].key != key || key == "" {
		var ok bool
		if i, ok = d.parts[key]; !ok {
			i = d.newSlot(key)
		}
		d.last = i
	}
	p := &d.slots[i]
	p.seen = d.gen
	if !p.inUse {
		p.inUse = true
		d.used = append(d.used, i)
	}
	return p
}

func (d *tickData) newSlot(key string) int32 {
	var i int32
	if n := len(d.free); n > 0 {
		i, d.free = d.free[n-1], d.free[:n-1]
	} else {
		d.slots = append(d.slots, partAcc{lat: NewCompact(DefaultCompactBits)})
		i = int32(len(d.slots) - 1)
	}
	d.slots[i].key = key
	d.parts[key] = i
	return i
}

// second returns second sec's accumulator.
func (d *tickData) second(sec int32) *secAcc {
	for i := len(d.secs) - 1; i >= 0; i-- {
		if d.secs[i].sec == sec {
			return d.secs[i]
		}
	}
	var s *secAcc
	if n := len(d.spare); n > 0 {
		s, d.spare = d.spare[n-1], d.spare[:n-1]
	} else {
		s = &secAcc{lat: NewCompact(DefaultCompactBits)}
	}
	s.sec = sec
	d.secs = append(d.secs, s)
	return s
}

// reset empties d for reuse and now and then evicts idle partitions.
func (d *tickData) reset() {
	for i := range d.ops {
		o := &d.ops[i]
		o.c = Counts{}
		clear(o.status)
		o.lat.Reset()
	}
	d.resetQuestions()
	for _, i := range d.used {
		p := &d.slots[i]
		p.c = Counts{}
		p.status = p.status[:0]
		p.secs = p.secs[:0]
		p.lat.Reset()
		p.inUse = false
	}
	d.used = d.used[:0]
	for _, s := range d.secs {
		s.c = Counts{}
		s.lat.Reset()
		d.spare = append(d.spare, s)
	}
	clear(d.secs)
	d.secs = d.secs[:0]
	if len(d.outcomes.list) > maxOutcomes/4 { // forget rare outcomes now and then
		d.outcomes = outcomeTable{}
	}
	d.gen++
	if d.gen%evictEvery == 0 {
		d.evict()
	}
}

// evict frees the slots of partitions idle for more than evictAfter resets.
func (d *tickData) evict() {
	for key, i := range d.parts {
		if p := &d.slots[i]; d.gen-p.seen > evictAfter {
			delete(d.parts, key)
			p.key = ""
			d.free = append(d.free, i)
		}
	}
	if len(d.free) < shrinkMin || 4*len(d.free) < 3*len(d.slots) {
		return
	}
	slots := make([]partAcc, 0, len(d.parts))
	parts := make(map[string]int32, len(d.parts))
	for key, i := range d.parts {
		parts[key] = int32(len(slots))
		slots = append(slots, d.slots[i])
	}
	d.slots, d.parts, d.free = slots, parts, nil
}
