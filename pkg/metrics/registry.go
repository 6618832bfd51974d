package metrics

import (
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
)

// Options configure a Registry.
type Options struct {
	// Start is when measurement starts: anything completing earlier is
	// warm-up, excluded from every figure. Zero means nothing is measured
	// until SetStart.
	Start time.Time
	// End, when set, is when measurement ends: anything completing at or
	// after it counts in the last second before it, so that the measured
	// window's seconds are all there is (no drain seconds after it: what
	// completes after the end was sent, and served, before it). SetEnd
	// moves it when a run stops early.
	End time.Time
	// PartitionTarget is the entities/s a partition's peak is judged against
	// (default azure.PartitionEntitiesPerSec, Azure's partition target).
	PartitionTarget float64
	// Questions names the application's questions a run asks, by the
	// index Request.Question and Recorder.QuestionDone take.
	Questions []string
	// PartitionUnits, when set, is the request units per second a charged
	// partition's peak is judged against instead (a Cosmos DB physical
	// partition's share of the provisioned throughput); a partition whose
	// answers carried no charge is still judged by PartitionTarget.
	PartitionUnits float64
	// SeriesPartitions is how many of the busiest partitions keep their
	// entity series in the Summary (default 50; negative: every partition,
	// which lets Summary.Merge recompute every peak exactly).
	SeriesPartitions int
}

// DefaultSeriesPartitions is the default of Options.SeriesPartitions.
const DefaultSeriesPartitions = 50

// MaxRunSeconds bounds the measured run (30 days): data completing later
// after the start is ignored and counted in Summary.Ignored.
const MaxRunSeconds = 30 * 24 * 3600

// notStarted is the start of a registry whose start is not set yet.
const notStarted = math.MaxInt64

// Registry merges the recorders of one run: once a second Tick takes over
// every recorder's buffer and merges it into per-operation HDR histograms,
// per-partition figures and per-second intervals; Finish merges what is
// left and returns the Summary.
//
// Concurrency: every Registry method is safe for concurrent use. Tick,
// Finish, Snapshot and SetStart are serialised by the registry's mutex,
// which recorders never take; Live reads the last tick's figures without
// waiting for a tick in progress.
//
// Memory: per partition touched, its counters, statuses, a Compact latency
// histogram, an 8-second peak window and at most 240 series bins: about
// 760 bytes for a partition served 10 requests over 100 s
// (BenchmarkPartitionMemory). Per second of the run, its totals and its
// latency histogram, sealed in binary form once the second is sealAfter
// seconds old: about 550 bytes a second at 1,000 operations/s with latencies
// spread over 0.5 to 20 ms (BenchmarkSecondMemory), 2 MiB an hour. Per
// operation that ran, one HDR histogram (184 KiB).
type Registry struct {
	opts    Options
	start   atomic.Int64 // unix nanoseconds, or notStarted
	end     atomic.Int64 // unix nanoseconds, or notStarted for no end
	ignored atomic.Int64
	live    atomic.Pointer[Live]

	mu       sync.Mutex
	recs     []*Recorder
	total    opTotal
	ops      [NumOps]opTotal
	qs       []qTotal // by question index
	parts    map[string]*partTotal
	secs     secondTable // by second of the run
	sealedTo int32       // seconds below it are sealed, but for reseal
	reseal   []int32     // sealed seconds that late data unsealed
	binWidth int32       // seconds per series bin
}

// sealAfter is how many seconds behind the tick's second a second is
// sealed (secTotal): the peak window's span, beyond which data is late.
const sealAfter = peakWindowSeconds

// NewRegistry returns an empty registry.
func NewRegistry(o Options) *Registry {
	if !(o.PartitionTarget > 0) {
		o.PartitionTarget = azure.PartitionEntitiesPerSec
	}
	if o.SeriesPartitions == 0 {
		o.SeriesPartitions = DefaultSeriesPartitions
	}
	r := &Registry{opts: o}
	r.start.Store(notStarted)
	if !o.Start.IsZero() {
		r.start.Store(o.Start.UnixNano())
	}
	r.end.Store(notStarted)
	if !o.End.IsZero() {
		r.end.Store(o.End.UnixNano())
	}
	r.clear()
	return r
}

// clear forgets every merged figure.
func (r *Registry) clear() {
	r.total = newOpTotal()
	for i := range r.ops {
		r.ops[i] = newOpTotal()
	}
	r.qs = nil
	r.parts = map[string]*partTotal{}
	r.secs = secondTable{}
	r.sealedTo, r.reseal = 0, nil
	r.binWidth = 1
	r.live.Store(nil)
}

// SetStart sets the measurement start to t and discards everything recorded
// so far as warm-up. Call it when the warm-up ends, with t no earlier than
// the completion of anything already recorded (typically t = now): recording
// is ordered against it, so each request is either discarded or compared
// with t.
func (r *Registry) SetStart(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rec := range r.recs {
		rec.mu.Lock()
	}
	r.start.Store(t.UnixNano())
	for _, rec := range r.recs {
		rec.d.reset()
	}
	r.clear()
	for _, rec := range r.recs {
		rec.mu.Unlock()
	}
}

// SetEnd sets the end of the measured window (see Options.End), typically
// when a run stops before its planned end. Records already buffered with a
// later time are folded into the window's last second by Finish.
func (r *Registry) SetEnd(t time.Time) { r.end.Store(t.UnixNano()) }

// Start returns the measurement start (zero if not set).
func (r *Registry) Start() time.Time {
	ns := r.start.Load()
	if ns == notStarted {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// secondOf returns the second of the run t falls in, and whether a record of
// op completing at t is measured.
func (r *Registry) secondOf(t time.Time, op Op) (int32, bool) {
	if op >= NumOps {
		r.ignored.Add(1)
		return 0, false
	}
	sec, ok := r.second(t)
	if ok && sec > MaxRunSeconds {
		r.ignored.Add(1)
		return 0, false
	}
	return sec, ok
}

// warmup reports whether an operation started at t (zero: unknown) is
// warm-up: started before the measurement start.
func (r *Registry) warmup(t time.Time) bool {
	return !t.IsZero() && t.UnixNano() < r.start.Load()
}

// second returns the second of the run t falls in: floor((t - start) / 1s),
// with t at or after the end counted just before the end; false before the
// start.
func (r *Registry) second(t time.Time) (int32, bool) {
	start := r.start.Load()
	if start == notStarted {
		return 0, false
	}
	ns := t.UnixNano()
	if end := r.end.Load(); end != notStarted && ns >= end {
		ns = end - 1
	}
	d := ns - start
	if d < 0 {
		return 0, false
	}
	return int32(min(d/int64(time.Second), MaxRunSeconds+1)), true
}

// NewRecorder returns a recorder for one worker.
func (r *Registry) NewRecorder() *Recorder {
	rec := &Recorder{reg: r, d: newTickData(), spare: newTickData()}
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	r.mu.Unlock()
	return rec
}

// Tick merges every recorder's buffered data and returns the interval just
// closed: the second before the one now falls in (a zero Interval before
// the start's first second has passed). It is called once a second by one
// goroutine. Requests of that second still buffered by a worker arrive with
// a later tick and are counted then; the returned interval is for live
// display, the Summary has the final figures.
func (r *Registry) Tick(now time.Time) Interval {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collect()
	cur, ok := r.second(now)
	if !ok || cur == 0 {
		return Interval{}
	}
	cur = min(cur, MaxRunSeconds)
	r.widen(cur)
	iv := r.secondTotal(cur-1).interval(int(cur-1), false)
	lv := liveFrom(iv)
	r.live.Store(&lv)
	r.seal(cur - sealAfter)
	return iv
}

// seal seals every second before upTo, and those late data unsealed; r.mu
// is held.
func (r *Registry) seal(upTo int32) {
	for _, sec := range r.reseal {
		r.secs.at(int(sec)).seal()
	}
	r.reseal = r.reseal[:0]
	for ; r.sealedTo < min(upTo, int32(r.secs.len())); r.sealedTo++ {
		r.secs.at(int(r.sealedTo)).seal()
	}
}

// Live returns the figures of the last tick's interval (zero before the
// first).
func (r *Registry) Live() Live {
	if lv := r.live.Load(); lv != nil {
		return *lv
	}
	return Live{}
}

// collect takes over every recorder's buffer and merges it; r.mu is held.
func (r *Registry) collect() {
	for _, rec := range r.recs {
		d := rec.take()
		r.merge(d)
		d.reset()
		rec.giveBack(d)
	}
}

// partition returns key's totals, creating them.
func (r *Registry) partition(key string) *partTotal {
	p := r.parts[key]
	if p == nil {
		key = strings.Clone(key) // never retain a caller's larger buffer
		p = &partTotal{key: key, lat: Compact{bits: DefaultCompactBits}}
		r.parts[key] = p
	}
	return p
}

// secondTotal returns second sec's totals, creating every second up to it.
func (r *Registry) secondTotal(sec int32) *secTotal {
	r.secs.grow(int(sec) + 1)
	return r.secs.at(int(sec))
}

// Recorders returns how many recorders the registry merges at each tick.
func (r *Registry) Recorders() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.recs)
}
