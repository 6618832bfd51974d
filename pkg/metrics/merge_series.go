package metrics

import "time"

// seriesIndex is what one shard's summary knows, before merging, about its
// partitions' entities over time.
type seriesIndex struct {
	width    int // seconds per bin
	series   map[string][]int64
	entities map[string]int64
	// allOneSecond: 1 s bins, and every partition that served entities
	// (CrossPartition aside) has a series.
	allOneSecond bool
}

func newSeriesIndex(s *Summary) *seriesIndex {
	x := &seriesIndex{width: int(s.BinWidth / time.Second), series: make(map[string][]int64, len(s.Series)),
		entities: make(map[string]int64, len(s.Partitions))}
	for _, se := range s.Series {
		x.series[se.Partition] = se.Entities
	}
	x.allOneSecond = x.width == 1
	for _, p := range s.Partitions {
		x.entities[p.Key] = p.Entities
		if _, ok := x.series[p.Key]; !ok && p.Entities > 0 && p.Key != CrossPartition {
			x.allOneSecond = false
		}
	}
	return x
}

// perSecond returns key's entities per second (nil: none), false when the
// shard served entities for key but has no one-second series of them.
func (x *seriesIndex) perSecond(key string) ([]int64, bool) {
	se, ok := x.series[key]
	switch {
	case ok && x.width == 1:
		return se, true
	case !ok && x.entities[key] == 0:
		return nil, true
	}
	return nil, false
}

// coarse returns key's series in nbins bins of width seconds (a multiple of
// the shard's), false when the shard served entities for key but kept no
// series of them.
func (x *seriesIndex) coarse(key string, width, nbins int) ([]int64, bool) {
	se, ok := x.series[key]
	if !ok {
		return nil, x.entities[key] == 0
	}
	out := make([]int64, nbins)
	f := width / x.width
	for i, n := range se {
		if i/f < nbins {
			out[i/f] += n
		}
	}
	return out, true
}

// mergeHottest sets each merged second's hottest partition: recomputed from
// the one-second series when both shards have them for every partition,
// otherwise the hotter of the two shards' hottest (their sum when it is the
// same partition), a lower bound.
func (s *Summary) mergeHottest(o *Summary, a, b *seriesIndex) {
	if !a.allOneSecond || !b.allOneSecond {
		for i := range o.Intervals {
			p, q := &s.Intervals[i], &o.Intervals[i]
			switch {
			case q.Hottest == "":
			case p.Hottest == q.Hottest:
				p.HottestEntities += q.HottestEntities
			case q.HottestEntities > p.HottestEntities || (q.HottestEntities == p.HottestEntities && q.Hottest < p.Hottest):
				p.Hottest, p.HottestEntities = q.Hottest, q.HottestEntities
			}
		}
		return
	}
	for i := range s.Intervals {
		s.Intervals[i].Hottest, s.Intervals[i].HottestEntities = "", 0
	}
	seen := make(map[string]bool, len(a.series)+len(b.series))
	for _, x := range [2]*seriesIndex{a, b} {
		for key := range x.series {
			if seen[key] || key == CrossPartition {
				continue
			}
			seen[key] = true
			sa, sb := a.series[key], b.series[key]
			for i := range min(max(len(sa), len(sb)), len(s.Intervals)) {
				iv := &s.Intervals[i]
				n := binAt(sa, i) + binAt(sb, i)
				if n > iv.HottestEntities || (n == iv.HottestEntities && n > 0 && key < iv.Hottest) {
					iv.Hottest, iv.HottestEntities = key, n
				}
			}
		}
	}
}

// mergeSeries rebuilds s.Series from both shards' series once s.Partitions
// is merged and sorted.
func (s *Summary) mergeSeries(o *Summary, a, b *seriesIndex) {
	width := max(a.width, b.width)
	nsecs := len(s.Intervals)
	for (nsecs+width-1)/width > maxBins {
		width *= 2
	}
	nbins := (nsecs + width - 1) / width
	limit := seriesCount(len(s.Partitions), s.SeriesLimit)
	s.Series = nil
	for _, p := range s.Partitions {
		if len(s.Series) == limit {
			break
		}
		xa, okA := a.coarse(p.Key, width, nbins)
		xb, okB := b.coarse(p.Key, width, nbins)
		if !okA || !okB {
			continue
		}
		merged := make([]int64, nbins)
		for i := range merged {
			merged[i] = binAt(xa, i) + binAt(xb, i)
		}
		s.Series = append(s.Series, Series{Partition: p.Key, Entities: merged})
	}
	s.BinWidth = time.Duration(width) * time.Second
}
