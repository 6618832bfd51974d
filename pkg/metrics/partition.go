package metrics

import "math"

// partTotal is one partition's merged figures.
type partTotal struct {
	key    string
	c      Counts
	status []keyCount
	lat    Compact
	win    peakWindow
	series []binCount // entities per series bin, by ascending bin
	// units is the peak window of the request units charged per second,
	// in hundredths, once the partition was charged.
	units *peakWindow
}

// addUnits counts cu hundredths of a request unit charged in second sec.
func (p *partTotal) addUnits(sec int32, cu int64, throttled bool) {
	if p.units == nil {
		p.units = &peakWindow{}
	}
	p.units.add(sec, cu, throttled)
}

// peakWindowSeconds is how far behind a partition's newest second entities
// may arrive and still count exactly towards its peak.
const peakWindowSeconds = 8

// peakWindow finds a partition's peak entities per second exactly while
// keeping only its last peakWindowSeconds seconds, and the most entities it
// served in a second in which it was also throttled (hotPeak), which says
// whether throttling came at the partition's target (see OverTarget).
//
// Entities are bucketed by the second of their request's completion. The
// window holds the counts of the partition's newest second and the seconds
// just before it; a second leaving the window is final and folded into
// peak. Workers hand their data over a tick or two late, and recorders
// running ahead only move the window by the seconds they saw, so counts
// arriving up to peakWindowSeconds behind the partition's newest second are
// still exact. Anything later (a worker stalled for that long between a
// request's completion and its recording) can only raise the peak by its own
// count: the peak becomes a lower bound and late is set.
type peakWindow struct {
	has     bool
	late    bool
	newest  int32
	peak    int64
	hotPeak int64
	ring    [peakWindowSeconds]uint32
	thr     [peakWindowSeconds]bool // the second saw a throttled request
}

// add counts n entities (n >= 0) in second sec, throttled when a request of
// the partition was throttled in it, and returns the second's count so far
// (a lower bound when the second had left the window).
func (w *peakWindow) add(sec int32, n int64, throttled bool) int64 {
	switch {
	case !w.has:
		w.has, w.newest = true, sec
	case sec > w.newest:
		for s := w.newest + 1; s <= sec && s <= w.newest+peakWindowSeconds; s++ {
			w.fold(s % peakWindowSeconds)
		}
		w.newest = sec
	case sec <= w.newest-peakWindowSeconds:
		w.late = true
		w.peak = max(w.peak, n)
		if throttled {
			w.hotPeak = max(w.hotPeak, n)
		}
		return n
	}
	k := sec % peakWindowSeconds
	w.ring[k] = uint32(min(int64(w.ring[k])+n, math.MaxUint32))
	w.thr[k] = w.thr[k] || throttled
	return int64(w.ring[k])
}

// fold makes slot k's second final and empties the slot.
func (w *peakWindow) fold(k int32) {
	w.peak = max(w.peak, int64(w.ring[k]))
	if w.thr[k] {
		w.hotPeak = max(w.hotPeak, int64(w.ring[k]))
	}
	w.ring[k], w.thr[k] = 0, false
}

// max returns the peak over every second so far.
func (w *peakWindow) max() int64 {
	m := w.peak
	for _, n := range w.ring {
		m = max(m, int64(n))
	}
	return m
}

// hotMax returns the most entities served in a second with throttling.
func (w *peakWindow) hotMax() int64 {
	m := w.hotPeak
	for k, n := range w.ring {
		if w.thr[k] {
			m = max(m, int64(n))
		}
	}
	return m
}

// maxBins bounds each partition's series; the bin width (a power of two
// seconds) doubles whenever the run outgrows it: 1 s bins up to 4 minutes.
const maxBins = 240

// binCount is a series bin and its entities.
type binCount struct {
	bin int32
	n   int64
}

// addSeries adds n entities to bin, keeping the list sorted (data arrives
// in order but for a few late seconds, so the search starts at the end).
func (p *partTotal) addSeries(bin int32, n int64) {
	k := len(p.series)
	for k > 0 && p.series[k-1].bin > bin {
		k--
	}
	if k > 0 && p.series[k-1].bin == bin {
		p.series[k-1].n += n
		return
	}
	p.series = append(p.series, binCount{})
	copy(p.series[k+1:], p.series[k:])
	p.series[k] = binCount{bin, n}
}

// halveSeries merges pairs of bins after the bin width doubled.
func (p *partTotal) halveSeries() {
	out := p.series[:0]
	for _, bc := range p.series {
		bc.bin /= 2
		if n := len(out); n > 0 && out[n-1].bin == bc.bin {
			out[n-1].n += bc.n
			continue
		}
		out = append(out, bc)
	}
	p.series = out
}

// dense returns the series as nbins counts, bins past the last folded into
// it (see Registry.SetEnd).
func (p *partTotal) dense(nbins int) []int64 {
	out := make([]int64, nbins)
	if nbins == 0 {
		return out
	}
	for _, bc := range p.series {
		out[min(int(bc.bin), nbins-1)] += bc.n
	}
	return out
}

// stats returns the partition's figures for the Summary.
func (p *partTotal) stats() PartitionStats {
	ps := PartitionStats{Key: p.key, Counts: p.c, Status: statusMap(p.status), Peak: p.win.max(), ThrottledPeak: p.win.hotMax(),
		PeakExact: !p.win.late, Latency: p.lat.Clone()}
	if p.units != nil {
		ps.PeakUnits, ps.ThrottledPeakUnits = float64(p.units.max())/100, float64(p.units.hotMax())/100
		ps.PeakExact = ps.PeakExact && !p.units.late
	}
	return ps
}
