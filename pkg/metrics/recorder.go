package metrics

import (
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Request is one HTTP request as the recorder sees it.
type Request struct {
	Op Op
	// Partition is the PartitionKey addressed, CrossPartition for a request
	// spanning partitions, or "" for a table-level request (counted in the
	// totals and per operation only).
	Partition string
	Outcome   outcome.Outcome
	// Entities is what the request served; counted only when Outcome.Class
	// is outcome.OK.
	Entities int
	Retry    bool      // a retry attempt
	Page     bool      // a query page
	At       time.Time // when the request completed
	// Start is when the request's operation was due to start; an
	// operation started before the measurement start is warm-up, all its
	// requests with it. Zero: judged by At alone.
	Start time.Time
	// Question is 1 + the index in Options.Questions of the question the
	// request is part of (Op Question), 0 for none.
	Question int
	// Charged is set when the answer carried a request charge
	// (x-ms-request-charge: Cosmos DB), Charge being it in request units;
	// it counts for the request's operation, partition and second whatever
	// its outcome.
	Charged bool
	Charge  float64
}

// Recorder gathers one worker's measurements between two ticks of its
// registry. It is meant to be used by one goroutine: its methods take a
// mutex that only the registry's Tick, Finish and Snapshot contend, so they
// are safe for concurrent use, but several goroutines sharing one recorder
// contend on it. Once both of a recorder's buffers have seen a partition
// (after a tick) and an outcome, recording them allocates nothing; a
// partition it has not touched for 10 to 18 ticks is forgotten, so its
// memory follows the partitions it touches, not all of the run's.
type Recorder struct {
	reg *Registry
	mu  sync.Mutex
	d   *tickData
	// spare is the buffer the next tick swaps in; only the registry touches
	// it, under the registry's mutex.
	spare *tickData
	// serving holds, by scheduled start (Unix ns), the entities the
	// requests of operations in flight have served, until Done credits
	// them to an answered operation (Counts.AnsweredEntities) or drops
	// them with a failed one. Operations sharing a recorder are in flight
	// at once in an open loop; their scheduled starts differ (the pacer's
	// schedule strictly increases), and a closed-loop worker has a
	// recorder of its own. The operation recorded last is held in
	// lastStart and lastServed (none when lastServed is 0), so that one
	// operation at a time, the common case, touches no map.
	serving               map[int64]int64
	lastStart, lastServed int64
	// The padding makes a recorder 64 bytes, a cache line of its own (the
	// allocator puts 64-byte objects on 64-byte boundaries): two recorders
	// sharing a line, as neighbours made one after the other did, made two
	// workers recording on two cores pass the line back and forth on every
	// mutex operation (BenchmarkRecordParallel2).
	_ [64 - 7*8]byte
}

// Request records one HTTP request. Requests of operations started before
// the measurement start (warm-up) are ignored, as are requests with an Op
// that is not an operation or completing more than MaxRunSeconds after the
// start (Summary.Ignored counts those).
func (r *Recorder) Request(q Request) {
	r.mu.Lock()
	sec, ok := r.reg.secondOf(q.At, q.Op)
	if !ok || r.reg.warmup(q.Start) {
		r.mu.Unlock()
		return
	}
	d := r.d
	if n := servedEntities(&q); n > 0 && !q.Start.IsZero() {
		r.holdServing(q.Start.UnixNano(), n)
	}
	id := d.outcomes.id(q.Outcome)
	o := &d.ops[q.Op]
	o.c.request(&q)
	o.addStatus(id)
	if qa := d.question(q.Question - 1); qa != nil {
		qa.c.request(&q)
		qa.addStatus(id)
	}
	if q.Partition != "" {
		p := d.part(q.Partition)
		p.c.request(&q)
		p.status = addID(p.status, id)
		if n, thr := servedEntities(&q), q.Outcome.Class == outcome.Throttled; n > 0 || thr || q.Charged {
			p.addEntities(sec, n, thr, centiUnits(&q))
		}
	}
	d.second(sec).c.request(&q)
	r.mu.Unlock()
}

// Done records a completed operation on partition ("" for none): its latency
// runs from scheduled, the intended start, to end, the end of its last
// request, so queueing and late starts count. ok is false when the operation
// ended unsuccessfully after all its attempts: it counts as failed, and its
// latency is recorded nowhere (the latency figures are the answered
// operations'). Operations scheduled before the measurement start are
// warm-up, ignored however late they end.
//
// An answered operation's entities (those its requests served, recorded
// with Request under the same scheduled start) count as its
// AnsweredEntities, for the operation and the second.
func (r *Recorder) Done(op Op, partition string, scheduled, end time.Time, ok bool) {
	r.mu.Lock()
	r.done(op, partition, scheduled, end, ok)
	r.mu.Unlock()
}

// done is Done with r.mu held; it returns the entities credited to the
// answered operation (0 when it failed or was not measured) and whether
// it was measured.
func (r *Recorder) done(op Op, partition string, scheduled, end time.Time, ok bool) (int64, bool) {
	us := latencyUS(scheduled, end)
	n := r.takeServing(scheduled)
	sec, in := r.reg.secondOf(end, op)
	if !in || r.reg.warmup(scheduled) {
		return 0, false
	}
	if !ok {
		n = 0
	}
	d := r.d
	o := &d.ops[op]
	o.c.done(ok, n)
	s := d.second(sec)
	s.c.done(ok, n)
	var p *partAcc
	if partition != "" {
		p = d.part(partition)
		p.c.done(ok, 0) // a partition's entities are what it served, answered or not
	}
	if ok {
		o.lat.Record(us)
		s.lat.Record(us)
		if p != nil {
			p.lat.Record(us)
		}
	}
	return n, true
}

// holdServing adds n entities served by the operation scheduled at start
// (Unix ns) until it ends; r.mu is held.
func (r *Recorder) holdServing(start, n int64) {
	if r.lastServed > 0 && r.lastStart == start {
		r.lastServed += n
		return
	}
	if r.lastServed > 0 {
		if r.serving == nil {
			r.serving = map[int64]int64{}
		}
		r.serving[r.lastStart] += r.lastServed
	}
	r.lastStart, r.lastServed = start, n
}

// takeServing returns and forgets the entities served so far by the
// operation scheduled at scheduled; r.mu is held.
func (r *Recorder) takeServing(scheduled time.Time) int64 {
	k := scheduled.UnixNano()
	var n int64
	if r.lastServed > 0 && r.lastStart == k {
		n, r.lastServed = r.lastServed, 0
	}
	if len(r.serving) > 0 {
		n += r.serving[k]
		delete(r.serving, k)
	}
	return n
}

// Dropped records an operation that was due at at (open loop) but could not
// start on time. Drops before the measurement start are ignored.
func (r *Recorder) Dropped(op Op, at time.Time) {
	r.mu.Lock()
	sec, ok := r.reg.secondOf(at, op)
	if !ok {
		r.mu.Unlock()
		return
	}
	r.d.ops[op].c.Dropped++
	r.d.second(sec).c.Dropped++
	r.mu.Unlock()
}

// take hands the gathered data to the registry and starts afresh with the
// spare buffer. Called by the registry with its mutex held.
func (r *Recorder) take() *tickData {
	r.mu.Lock()
	d := r.d
	r.d = r.spare
	r.mu.Unlock()
	r.spare = nil
	return d
}

// giveBack returns a merged and emptied buffer for the next take.
func (r *Recorder) giveBack(d *tickData) { r.spare = d }
