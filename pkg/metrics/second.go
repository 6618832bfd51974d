package metrics

// secTotal is one second's merged figures.
//
// Memory: a second's latency histogram is most of what a long run grows by
// (about a kilobyte a second at 1,000 operations/s, with its slices' spare
// capacity). Once a second is old enough that no more data is expected for
// it, the registry seals it: the histogram is kept in its binary form
// (appendBinary, two or three bytes per used bucket) and the Compact is
// dropped. Data arriving for a sealed second unseals it; it is sealed again
// at the next tick. Sealing never changes a figure: the binary form decodes
// to the same histogram.
type secTotal struct {
	c        Counts
	lat      *Compact // nil before the second's first latency and while sealed
	packed   []byte   // lat's binary form while sealed; nil otherwise
	hottest  string
	hottestN int64
}

// hot offers partition key's count of entities so far in this second. Counts
// only grow, so the running maximum over every offer is the maximum over
// the partitions' final counts.
func (s *secTotal) hot(key string, n int64) {
	if n > s.hottestN || (n == s.hottestN && n > 0 && key < s.hottest) {
		s.hottest, s.hottestN = key, n
	}
}

// sealed reports whether the histogram is in its binary form.
func (s *secTotal) sealed() bool { return s.packed != nil }

// seal moves the histogram into its binary form. A second without latencies
// has nothing to seal.
func (s *secTotal) seal() {
	if s.sealed() || s.lat == nil || s.lat.Count() == 0 {
		return
	}
	buf := s.lat.appendBinary(make([]byte, 0, 8+3*len(s.lat.idx)))
	s.packed = append(make([]byte, 0, len(buf)), buf...) // exact size: it lives for the run
	s.lat = nil
}

// merge adds h to the second's histogram, unsealing it; it reports whether
// the second was sealed.
func (s *secTotal) merge(h *Compact) (wasSealed bool) {
	if h.Count() == 0 {
		return false
	}
	wasSealed = s.sealed()
	if wasSealed {
		s.lat, s.packed = s.view(), nil
	}
	if s.lat == nil {
		s.lat = NewCompact(DefaultCompactBits)
	}
	s.lat.Merge(h)
	return wasSealed
}

// view returns the histogram without unsealing: the second's own Compact,
// a decoded copy while sealed, or an empty one; never to be modified.
func (s *secTotal) view() *Compact {
	switch {
	case s.sealed():
		c, err := decodeBinary(s.packed)
		if err != nil { // only seal writes packed, and its form always decodes
			panic("metrics: sealed second does not decode: " + err.Error())
		}
		return c
	case s.lat != nil:
		return s.lat
	}
	return NewCompact(DefaultCompactBits)
}

// interval returns the second's figures; withHist attaches a copy of its
// latency histogram.
func (s *secTotal) interval(sec int, withHist bool) Interval {
	iv := Interval{Second: sec, Counts: s.c, Hottest: s.hottest, HottestEntities: s.hottestN}
	h := s.view()
	iv.setQuantiles(h)
	if withHist && h.Count() > 0 {
		if h == s.lat {
			h = h.Clone()
		}
		iv.Latency = h
	}
	return iv
}

// secondsPerChunk is how many seconds a chunk of a secondTable holds.
const secondsPerChunk = 256

// secondTable holds a run's seconds in fixed chunks, so that growing it
// neither copies the seconds nor leaves up to half of a doubled slice
// unused, as one growing slice would.
type secondTable struct {
	chunks []*[secondsPerChunk]secTotal
	n      int
}

// len is the number of seconds held.
func (t *secondTable) len() int { return t.n }

// at returns second i (i < len).
func (t *secondTable) at(i int) *secTotal { return &t.chunks[i/secondsPerChunk][i%secondsPerChunk] }

// grow makes the table hold at least n seconds.
func (t *secondTable) grow(n int) {
	for len(t.chunks)*secondsPerChunk < n {
		t.chunks = append(t.chunks, new([secondsPerChunk]secTotal))
	}
	t.n = max(t.n, n)
}
