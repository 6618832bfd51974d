package metrics

import (
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// counters are the tallies shared by operations, partitions and seconds.
type counters struct {
	ops, requests, entities, throttled, errors, failed, dropped, retries, pages int64
}

func (c *counters) add(o *counters) {
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

// request counts one HTTP request by the counting rules.
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
		c.entities += servedEntities(q)
	case outcome.Throttled:
		c.throttled++
	default:
		c.errors++
	}
}

// done counts one completed operation.
func (c *counters) done(ok bool) {
	c.ops++
	if !ok {
		c.failed++
	}
}

// servedEntities is what a request served: its entities when it succeeded.
func servedEntities(q *Request) int64 {
	if q.Outcome.Class != outcome.OK || q.Entities <= 0 {
		return 0
	}
	return int64(q.Entities)
}

// maxLatencyUS is the largest latency recorded (1 h); longer ones are
// recorded as 1 h, shorter than 0 (clock steps) as 0.
const maxLatencyUS = int64(time.Hour / time.Microsecond)

func latencyUS(scheduled, end time.Time) int64 {
	return min(max(end.Sub(scheduled).Microseconds(), 0), maxLatencyUS)
}

// maxOutcomes bounds the distinct outcomes one recorder tells apart within a
// tick; further ones are counted under OtherStatus.
const maxOutcomes = 255

// OtherStatus is the status key of requests whose outcome could not be told
// apart: more than 255 distinct outcomes in one second of one worker.
const OtherStatus = "other"

// outcomeTable interns the outcomes a recorder has seen, so that the hot
// path counts statuses by a small index instead of by string.
type outcomeTable struct {
	list []outcome.Outcome
	keys []string
	last uint16
}

// id returns o's index, interning it (and computing its key) on first sight.
func (t *outcomeTable) id(o outcome.Outcome) uint16 {
	if int(t.last) < len(t.list) && t.list[t.last] == o {
		return t.last
	}
	for i := range t.list {
		if t.list[i] == o {
			t.last = uint16(i)
			return t.last
		}
	}
	if len(t.list) == maxOutcomes {
		return maxOutcomes
	}
	t.list = append(t.list, o)
	t.keys = append(t.keys, o.Key())
	t.last = uint16(len(t.list) - 1)
	return t.last
}

// key returns the status key of index id.
func (t *outcomeTable) key(id uint16) string {
	if int(id) < len(t.keys) {
		return t.keys[id]
	}
	return OtherStatus
}

// idCount is a status index and its count.
type idCount struct {
	id uint16
	n  int64
}

// addID counts one more of id in a short list.
func addID(list []idCount, id uint16) []idCount {
	for k := range list {
		if list[k].id == id {
			list[k].n++
			return list
		}
	}
	return append(list, idCount{id, 1})
}

// keyCount is a status key and its count: a partition's few statuses are
// kept in a short list rather than a map.
type keyCount struct {
	key string
	n   int64
}

func addKey(list []keyCount, key string, n int64) []keyCount {
	for k := range list {
		if list[k].key == key {
			list[k].n += n
			return list
		}
	}
	return append(list, keyCount{key, n})
}

func statusMap(list []keyCount) map[string]int64 {
	m := make(map[string]int64, len(list))
	for _, kc := range list {
		m[kc.key] += kc.n
	}
	return m
}

func addMap(dst, src map[string]int64) {
	for k, v := range src {
		dst[k] += v
	}
}
