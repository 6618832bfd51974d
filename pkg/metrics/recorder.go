package metrics

import (
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Request is one HTTP request as the recorder sees it.
type Request struct {
	Op        Op
	Partition string // the PartitionKey addressed, or CrossPartition
	Outcome   outcome.Outcome
	Entities  int // entities served; only counted for successful requests
	Retry     bool
	Page      bool
	At        time.Time // when the request completed
}

// opLatencyBits is the resolution of per-operation latency in recorders
// (0.4%); partitions use the default (1.6%).
const opLatencyBits = 7

// counters are the tallies shared by operations, partitions and seconds.
type counters struct {
	ops, requests, entities, throttled, errors, failed, dropped, retries, pages int64
}

func (c *counters) add(o counters) {
	c.ops += o.ops
	c.requests += o.requests
	c.entities += o.entities
	c.throttled += o.throttled
	c.errors += o.errors
	c.failed += o.failed
	c.dropped += o.dropped
	c.retries += o.retries
	c.pages += o.pages
}

func (c *counters) request(q *Request) {
	c.requests++
	if q.Retry {
		c.retries++
	}
	if q.Page {
		c.pages++
	}
	switch q.Outcome.Class {
	case outcome.OK:
		c.entities += int64(q.Entities)
	case outcome.Throttled:
		c.throttled++
		c.errors++
	default:
		c.errors++
	}
}

// opAcc is one operation's figures within one tick of one recorder.
type opAcc struct {
	counters
	status map[outcome.Outcome]int64
	lat    Compact
}

// partAcc is one partition's figures within one tick of one recorder.
type partAcc struct {
	key string
	counters
	status  map[outcome.Outcome]int64
	lat     Compact
	secs    []secCount // entities per second
	touched bool
	idle    int // ticks since last touched
}

type secCount struct {
	sec int32
	n   int64
}

// secAcc is one second's figures within one tick of one recorder.
type secAcc struct {
	sec int32
	counters
	lat Compact
}

// tickData is what a recorder gathered since the last tick.
type tickData struct {
	ops     [NumOps]opAcc
	parts   map[string]*partAcc
	touched []*partAcc
	secs    []*secAcc
}

func newTickData() *tickData {
	d := &tickData{parts: map[string]*partAcc{}}
	for i := range d.ops {
		d.ops[i].status = map[outcome.Outcome]int64{}
		d.ops[i].lat.bits = opLatencyBits
	}
	return d
}

func (d *tickData) part(key string) *partAcc {
	p := d.parts[key]
	if p == nil {
		p = &partAcc{key: key, status: map[outcome.Outcome]int64{}}
		d.parts[key] = p
	}
	if !p.touched {
		p.touched = true
		d.touched = append(d.touched, p)
	}
	p.idle = 0
	return p
}

func (d *tickData) second(sec int32) *secAcc {
	for i := len(d.secs) - 1; i >= 0; i-- {
		if d.secs[i].sec == sec {
			return d.secs[i]
		}
	}
	s := &secAcc{sec: sec}
	d.secs = append(d.secs, s)
	return s
}

// Recorder gathers one worker's measurements. Its methods are called by that
// worker only; the registry's Tick takes them over under the recorder's
// mutex, which is otherwise uncontended.
type Recorder struct {
	reg *Registry
	mu  sync.Mutex
	d   *tickData
}

// Request records one HTTP request. Requests completing before the
// measurement start (warm-up) are ignored.
func (r *Recorder) Request(q Request) {
	sec, ok := r.reg.second(q.At)
	if !ok {
		return
	}
	r.mu.Lock()
	d := r.d
	d.ops[q.Op].request(&q)
	d.ops[q.Op].status[q.Outcome]++
	p := d.part(q.Partition)
	p.request(&q)
	p.status[q.Outcome]++
	if q.Outcome.Class == outcome.OK && q.Entities > 0 {
		p.addEntities(sec, int64(q.Entities))
	}
	d.second(sec).request(&q)
	r.mu.Unlock()
}

func (p *partAcc) addEntities(sec int32, n int64) {
	for i := len(p.secs) - 1; i >= 0; i-- {
		if p.secs[i].sec == sec {
			p.secs[i].n += n
			return
		}
	}
	p.secs = append(p.secs, secCount{sec, n})
}

// Done records a completed operation: its latency runs from scheduled (the
// intended start) to end, so queueing and late starts count.
func (r *Recorder) Done(op Op, partition string, scheduled, end time.Time, ok bool) {
	sec, in := r.reg.second(end)
	if !in {
		return
	}
	us := end.Sub(scheduled).Microseconds()
	r.mu.Lock()
	d := r.d
	o := &d.ops[op]
	o.ops++
	o.lat.Record(us)
	if !ok {
		o.failed++
	}
	if partition != "" {
		p := d.part(partition)
		p.ops++
		p.lat.Record(us)
		if !ok {
			p.failed++
		}
	}
	s := d.second(sec)
	s.ops++
	s.lat.Record(us)
	if !ok {
		s.failed++
	}
	r.mu.Unlock()
}

// Dropped records an operation that was due but could not start.
func (r *Recorder) Dropped(op Op, at time.Time) {
	sec, ok := r.reg.second(at)
	if !ok {
		return
	}
	r.mu.Lock()
	r.d.ops[op].dropped++
	r.d.second(sec).dropped++
	r.mu.Unlock()
}

// take hands the gathered data to the registry and starts afresh with spare.
func (r *Recorder) take(spare *tickData) *tickData {
	r.mu.Lock()
	d := r.d
	r.d = spare
	r.mu.Unlock()
	return d
}
