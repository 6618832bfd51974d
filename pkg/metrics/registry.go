package metrics

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Options configure a Registry.
type Options struct {
	// Start is when measurement starts; anything completing earlier is
	// warm-up and excluded. SetStart can move it.
	Start time.Time
	// PartitionTarget is the entities/s a partition's peak is judged against
	// (default 2,000, Azure's partition scalability target).
	PartitionTarget float64
	// SeriesPartitions is how many of the busiest partitions keep their
	// per-bin series in the Summary (default 50).
	SeriesPartitions int
}

// HDR histogram range and precision of per-operation latency: 1 µs to 1 h,
// 3 significant digits.
const (
	hdrMin    = 1
	hdrMax    = int64(time.Hour / time.Microsecond)
	hdrDigits = 3
	// maxBins bounds each partition's heatmap series; the bin width doubles
	// whenever a run outgrows it.
	maxBins = 240
	// lateSeconds is how many seconds after its end a second is sealed:
	// requests completing just before a tick may be taken over by the next.
	lateSeconds = 2
	// evictTicks: a recorder forgets partitions it has not seen for this long.
	evictTicks = 10
)

// Registry merges the recorders of one run. NewRecorder, Tick and Finish may
// be called from any goroutine; Tick and Finish are serialised.
type Registry struct {
	opts  Options
	start atomic.Int64 // unix nanoseconds of the measurement start

	mu     sync.Mutex
	recs   []*Recorder
	spares map[*Recorder]*tickData
	ticks  int

	ops       [NumOps]opTotal
	total     opTotal
	parts     map[string]*partTotal
	seconds   map[int32]*secTotal
	sealed    int32 // seconds below this are final
	intervals []Interval
	binWidth  int32 // seconds per series bin
	live      Live
}

type opTotal struct {
	counters
	status map[string]int64
	hist   *hdrhistogram.Histogram
}

type partTotal struct {
	key string
	counters
	status map[string]int64
	lat    Compact
	peak   int64
	series []int64
	// lastSec and lastN are the partition's most recent sealed second and
	// its entities, so data arriving after the seal still counts exactly.
	lastSec int32
	lastN   int64
}

type secTotal struct {
	counters
	lat   Compact
	parts map[*partTotal]int64
}

// NewRegistry returns an empty registry.
func NewRegistry(o Options) *Registry {
	if o.PartitionTarget <= 0 {
		o.PartitionTarget = 2000
	}
	if o.SeriesPartitions <= 0 {
		o.SeriesPartitions = 50
	}
	r := &Registry{opts: o, spares: map[*Recorder]*tickData{}, parts: map[string]*partTotal{}, seconds: map[int32]*secTotal{}, binWidth: 1}
	r.start.Store(o.Start.UnixNano())
	for i := range r.ops {
		r.ops[i] = newOpTotal()
	}
	r.total = newOpTotal()
	return r
}

func newOpTotal() opTotal {
	return opTotal{status: map[string]int64{}, hist: hdrhistogram.New(hdrMin, hdrMax, hdrDigits)}
}

// SetStart moves the measurement start (the end of the warm-up).
func (r *Registry) SetStart(t time.Time) { r.start.Store(t.UnixNano()) }

// Start returns the measurement start.
func (r *Registry) Start() time.Time { return time.Unix(0, r.start.Load()) }

// second returns the second of the measured run t falls in.
func (r *Registry) second(t time.Time) (int32, bool) {
	d := t.UnixNano() - r.start.Load()
	if d < 0 {
		return 0, false
	}
	return int32(d / int64(time.Second)), true
}

// NewRecorder returns a recorder for one worker.
func (r *Registry) NewRecorder() *Recorder {
	rec := &Recorder{reg: r, d: newTickData()}
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	r.spares[rec] = newTickData()
	r.mu.Unlock()
	return rec
}

// Tick merges every recorder's data, seals the seconds that can no longer
// receive data, and returns the most recent second's interval (possibly
// still missing a few late requests: it is for live display). It is called
// once a second by one goroutine.
func (r *Registry) Tick(now time.Time) Interval {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collect()
	cur, ok := r.second(now)
	if !ok {
		return Interval{}
	}
	r.sealThrough(cur - lateSeconds)
	iv := r.peek(cur - 1)
	r.live = liveFrom(iv)
	return iv
}

// collect takes over every recorder's data and merges it.
func (r *Registry) collect() {
	r.ticks++
	for _, rec := range r.recs {
		d := rec.take(r.spares[rec])
		r.merge(d)
		r.reset(d, r.ticks%evictTicks == 0)
		r.spares[rec] = d
	}
}

func (r *Registry) merge(d *tickData) {
	for i := range d.ops {
		o := &d.ops[i]
		if o.requests == 0 && o.ops == 0 && o.dropped == 0 {
			continue
		}
		for _, t := range []*opTotal{&r.ops[i], &r.total} {
			t.add(o.counters)
			for oc, n := range o.status {
				t.status[oc.Key()] += n
			}
			o.lat.Each(func(v int64, n uint32) { _ = t.hist.RecordValues(max(v, hdrMin), int64(n)) })
		}
	}
	for _, p := range d.touched {
		t := r.parts[p.key]
		if t == nil {
			t = &partTotal{key: p.key, status: map[string]int64{}}
			r.parts[p.key] = t
		}
		t.add(p.counters)
		for oc, n := range p.status {
			t.status[oc.Key()] += n
		}
		t.lat.Merge(&p.lat)
		for _, sc := range p.secs {
			if sc.sec < r.sealed {
				r.late(t, sc.sec, sc.n)
				continue
			}
			s := r.secondTotal(sc.sec)
			s.parts[t] += sc.n
		}
	}
	for _, s := range d.secs {
		t := r.secondTotal(s.sec)
		t.add(s.counters)
		t.lat.Merge(&s.lat)
		if s.sec < r.sealed { // late data for a sealed second: recompute its interval
			hot, hotN := r.intervals[s.sec].Hottest, r.intervals[s.sec].HottestEntities
			iv := intervalOf(int(s.sec), t)
			iv.Hottest, iv.HottestEntities = hot, hotN
			r.intervals[s.sec] = iv
		}
	}
}

// late accounts entities of partition p that arrived after second sec was
// sealed: exact when sec is p's most recent sealed second (the only case the
// lateSeconds margin lets through in practice), a lower bound otherwise.
func (r *Registry) late(p *partTotal, sec int32, n int64) {
	if sec == p.lastSec && p.lastN > 0 {
		p.lastN += n
		p.peak = max(p.peak, p.lastN)
	} else {
		p.peak = max(p.peak, n)
	}
	r.addSeries(p, sec, n)
}

// secondTotal returns second sec's totals; seconds are kept for the whole
// run (they are small), their partition maps only until sealed.
func (r *Registry) secondTotal(sec int32) *secTotal {
	s := r.seconds[sec]
	if s == nil {
		s = &secTotal{parts: map[*partTotal]int64{}}
		r.seconds[sec] = s
	}
	return s
}

// reset empties d for reuse, forgetting idle partitions now and then.
func (r *Registry) reset(d *tickData, evict bool) {
	for i := range d.ops {
		o := &d.ops[i]
		o.counters = counters{}
		clear(o.status)
		o.lat.Reset()
	}
	for _, p := range d.touched {
		p.counters = counters{}
		clear(p.status)
		p.lat.Reset()
		p.secs = p.secs[:0]
		p.touched = false
	}
	d.touched = d.touched[:0]
	if evict {
		for k, p := range d.parts {
			if p.idle++; p.idle > 1 {
				delete(d.parts, k)
			}
		}
	}
	d.secs = d.secs[:0]
}

// sealThrough finalises every open second <= last, in order.
func (r *Registry) sealThrough(last int32) {
	if last < r.sealed {
		return
	}
	var open []int32
	for s := range r.seconds {
		if s >= r.sealed && s <= last {
			open = append(open, s)
		}
	}
	sort.Slice(open, func(i, j int) bool { return open[i] < open[j] })
	for _, s := range open {
		r.seal(s)
	}
	for s := r.sealed; s <= last; s++ {
		if int(s) >= len(r.intervals) {
			r.intervals = append(r.intervals, Interval{Second: int(s)})
		}
	}
	r.sealed = last + 1
}

func (r *Registry) seal(sec int32) {
	s := r.seconds[sec]
	for int(sec) >= len(r.intervals) {
		r.intervals = append(r.intervals, Interval{Second: len(r.intervals)})
	}
	iv := intervalOf(int(sec), s)
	for p, n := range s.parts {
		p.peak = max(p.peak, n)
		p.lastSec, p.lastN = sec, n
		r.addSeries(p, sec, n)
	}
	s.parts = nil
	r.intervals[sec] = iv
}

// peek returns second sec as known now, sealed or not.
func (r *Registry) peek(sec int32) Interval {
	if sec < 0 {
		return Interval{}
	}
	if s, ok := r.seconds[sec]; ok && sec >= r.sealed {
		return intervalOf(int(sec), s)
	}
	if int(sec) < len(r.intervals) {
		return r.intervals[sec]
	}
	return Interval{Second: int(sec)}
}

// addSeries adds n entities at second sec to p's heatmap series, doubling
// every partition's bin width when the run outgrows maxBins bins.
func (r *Registry) addSeries(p *partTotal, sec int32, n int64) {
	for sec/r.binWidth >= maxBins {
		r.binWidth *= 2
		for _, q := range r.parts {
			for i := range q.series {
				if i%2 == 0 {
					q.series[i/2] = q.series[i]
				} else {
					q.series[i/2] += q.series[i]
				}
			}
			q.series = q.series[:(len(q.series)+1)/2]
		}
	}
	bin := int(sec / r.binWidth)
	for len(p.series) <= bin {
		p.series = append(p.series, 0)
	}
	p.series[bin] += n
}

// Live returns the figures of the last tick.
func (r *Registry) Live() Live {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live
}
