package metrics

import (
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// HDR histogram range and precision of per-operation and total latency:
// 1 µs to 1 h, 3 significant digits. Its buckets are exactly those of a
// Compact with HDRBits, which is how recorders buffer latencies between
// ticks: merging a recorder's Compact into the HDR histogram gives the same
// histogram as recording every value into it directly.
const (
	hdrLowest = 1
	hdrDigits = 3
)

func newHDR() *hdrhistogram.Histogram { return hdrhistogram.New(hdrLowest, maxLatencyUS, hdrDigits) }

// opTotal is one operation's (or the run's) merged figures.
type opTotal struct {
	c      Counts
	status map[string]int64
	hist   *hdrhistogram.Histogram // created on first latency
}

func newOpTotal() opTotal { return opTotal{status: map[string]int64{}} }

// recordCompact adds a Compact of HDRBits resolution to the HDR histogram,
// bucket for bucket.
func (o *opTotal) recordCompact(c *Compact) {
	if c.total == 0 {
		return
	}
	if o.hist == nil {
		o.hist = newHDR()
	}
	for k, i := range c.idx {
		lo, _ := c.lower(i)
		_ = o.hist.RecordValues(lo, int64(c.cnt[k])) // lo <= maxLatencyUS: in range
	}
}

// merge adds one recorder's tick to the registry; r.mu is held.
func (r *Registry) merge(d *tickData) {
	for i := range d.ops {
		o := &d.ops[i]
		if o.c.IsZero() {
			continue
		}
		for _, t := range [2]*opTotal{&r.ops[i], &r.total} {
			t.c.Add(o.c)
			for id, n := range o.status {
				if n > 0 {
					t.status[d.outcomes.key(uint16(id))] += n
				}
			}
			t.recordCompact(o.lat)
		}
	}
	r.mergeQuestions(d)
	for _, i := range d.used {
		p := &d.slots[i]
		t := r.partition(p.key)
		t.c.Add(p.c)
		for _, ic := range p.status {
			t.status = addKey(t.status, d.outcomes.key(ic.id), ic.n)
		}
		t.lat.Merge(p.lat)
		for _, sc := range p.secs {
			r.addEntities(t, sc.sec, sc.n, sc.throttled)
			if t.c.Charged > 0 {
				t.addUnits(sc.sec, sc.cu, sc.throttled)
			}
		}
	}
	for _, s := range d.secs {
		t := r.secondTotal(s.sec)
		t.c.Add(s.c)
		if t.merge(s.lat) {
			r.reseal = append(r.reseal, s.sec)
		}
	}
}

// addEntities accounts n entities served by partition p in second sec, in
// which it was throttled or not: its peak window, its series, and the
// second's hottest partition.
func (r *Registry) addEntities(p *partTotal, sec int32, n int64, throttled bool) {
	count := p.win.add(sec, n, throttled)
	if n == 0 {
		return
	}
	if p.key != CrossPartition {
		r.secondTotal(sec).hot(p.key, count)
	}
	r.widen(sec)
	p.addSeries(sec/r.binWidth, n)
}

// widen doubles the series bin width until second sec fits in maxBins bins,
// re-binning every partition's series.
func (r *Registry) widen(sec int32) {
	for sec/r.binWidth >= maxBins {
		r.binWidth *= 2
		for _, p := range r.parts {
			p.halveSeries()
		}
	}
}
