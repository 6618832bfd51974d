package metrics

import (
	"math"
	"time"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Counts are the tallies kept for the run, each operation, each partition
// and each second, by the package's counting rules. Every report figure of
// that kind is a Counts; Add is the one way they combine.
type Counts struct {
	Ops      int64 `json:"ops"`
	Requests int64 `json:"requests"`
	Entities int64 `json:"entities"`
	// AnsweredEntities are the entities of the operations answered
	// (completed without failing): what Entities counts of their
	// requests, credited when the operation completes. The requests that
	// succeeded within an operation that then failed (a scan's first
	// pages, a question's first partition) count in Entities, as the
	// partitions served them, but not here. Kept for the run, each
	// operation, question and second; never for a partition.
	AnsweredEntities int64 `json:"answered_entities,omitempty"`
	Throttled        int64 `json:"throttled"`
	Errors           int64 `json:"errors"`
	Failed           int64 `json:"failed"`
	Dropped          int64 `json:"dropped"`
	Retries          int64 `json:"retries"`
	Pages            int64 `json:"pages"`
	// Charged counts the requests whose answer carried a request charge
	// (x-ms-request-charge), and RequestUnits adds those charges: the
	// request units the target billed, refusals included (Cosmos DB
	// charges nothing for a 429). Both stay zero, and out of JSON, for a
	// target that sends no charge.
	Charged      int64   `json:"charged_requests,omitempty"`
	RequestUnits float64 `json:"request_units,omitempty"`
}

// Add adds o's tallies to c.
func (c *Counts) Add(o Counts) {
	c.Ops += o.Ops
	c.Requests += o.Requests
	c.Entities += o.Entities
	c.AnsweredEntities += o.AnsweredEntities
	c.Throttled += o.Throttled
	c.Errors += o.Errors
	c.Failed += o.Failed
	c.Dropped += o.Dropped
	c.Retries += o.Retries
	c.Pages += o.Pages
	c.Charged += o.Charged
	c.RequestUnits += o.RequestUnits
}

// Offered is the operations the run set out to do: those that ran (ops)
// and those it could not start (dropped). A share of operations is of
// these, so it never exceeds 100%.
func (c Counts) Offered() int64 { return c.Ops + c.Dropped }

// Answered is the operations that ran and did not fail: those whose
// latency the latency figures hold.
func (c Counts) Answered() int64 { return c.Ops - c.Failed }

// IsZero reports whether nothing was counted.
func (c Counts) IsZero() bool { return c == Counts{} }

// request counts one HTTP request by the counting rules.
func (c *Counts) request(q *Request) {
	c.Requests++
	if q.Retry {
		c.Retries++
	}
	if q.Page {
		c.Pages++
	}
	if q.Charged {
		c.Charged++
		c.RequestUnits += q.Charge
	}
	switch q.Outcome.Class {
	case outcome.OK:
		c.Entities += servedEntities(q)
	case outcome.Throttled:
		c.Throttled++
	default:
		c.Errors++
	}
}

// done counts one completed operation, answered (ok) with entities
// served by its requests, or failed.
func (c *Counts) done(ok bool, entities int64) {
	c.Ops++
	if !ok {
		c.Failed++
		return
	}
	c.AnsweredEntities += entities
}

// centiUnits is a request's charge in hundredths of a request unit (Cosmos
// DB states charges to the hundredth), the unit of a partition's
// per-second request units.
func centiUnits(q *Request) int64 {
	if !q.Charged || !(q.Charge > 0) {
		return 0
	}
	return int64(math.Round(min(q.Charge, 1e9) * 100))
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
