package model

import (
	"math"
	"sync/atomic"
	"time"
)

// Request is one Table request as the partition model sees it.
type Request struct {
	Table string
	// Op is the kind of request (for its cost under Cosmos DB and its
	// service time).
	Op Op
	// Partition is the PartitionKey the request addresses; "" when it spans
	// partitions (table scan, PartitionKey range), which only the account
	// target limits up front (its entities are charged with Charge).
	Partition string
	// Entities is the entities written, or read by a point read (1); 0 for
	// queries, which are charged afterwards with ChargePage. Negative counts
	// as 0.
	Entities int
	// Bytes is the size of the entities written or read (a transaction's
	// all together: its multipart body), for Cosmos DB's request units;
	// 0 when not known. A write's Bytes are its body, which Azure's model
	// takes from the account's ingress (bandwidth.go). Negative counts
	// as 0.
	Bytes int
	// Props is the properties written (a transaction's all together), for
	// Cosmos DB's indexing charge.
	Props int
	// Write is true for inserts, updates, deletes and transactions. The
	// model charges reads and writes alike; Write is informational.
	Write bool
	// Extends is +1 when the request creates a PartitionKey greater than
	// every existing one in the table (append-only), -1 when it creates one
	// less than every existing one (prepend-only), 0 otherwise. Such an
	// insert is served by the table's end range partition instead of the
	// partition's server.
	Extends int
}

// Decision is the model's verdict on a request.
type Decision struct {
	Allow   bool
	Status  int    // 503 or 500 when !Allow (429 under Cosmos DB)
	Code    string // "ServerBusy" or "OperationTimedOut" ("TooManyRequests")
	Message string // the service's message text
	// RetryAfter is Cosmos DB's hint on a 429 (x-ms-retry-after-ms): when
	// the partition that refused will have the request's units.
	RetryAfter time.Duration
	// Load is the utilisation (0 idle, 1 at its target) of the busiest of
	// what judged an admitted request, for its queueing time (Latency).
	Load float64
	// Charge is the request units an admitted request was charged up front
	// under Cosmos DB (rucost.go); 0 otherwise, and for a refusal (Cosmos
	// DB charges nothing for a 429).
	Charge float64
}

// Visit is what one page of a query did in one partition: the entities it
// visited there (matching its filter or not), those it returned and their
// size. End says whether the partition lies in the table's last (+1) or
// first (-1) range partition (Request.Extends).
type Visit struct {
	Partition         string
	Visited, Returned int
	Bytes             int
	End               int
}

// Azure's throttling answers (AZURE.md, "Throttling").
const (
	CodeBusy    = "ServerBusy"
	CodeTimeout = "OperationTimedOut"
	// MsgBusy answers a partition, server or range over its target, or offline.
	MsgBusy = "The server is currently unable to receive requests. Please retry your request."
	// MsgAccount answers a request over the account target.
	MsgAccount = "Operations per second is over the account limit."
	// MsgIngress and MsgEgress answer a request while the account's
	// ingress or egress is over its target (REST "Common REST API error
	// codes", ServerBusy).
	MsgIngress = "Ingress is over the account limit."
	MsgEgress  = "Egress is over the account limit."
	// MsgTimeout goes with 500 OperationTimedOut.
	MsgTimeout = "Operation could not be completed within the specified time."

	// Cosmos DB's answers (issues of its SDKs quote them; the error
	// reference: "Diagnose and troubleshoot Azure Cosmos DB request rate
	// too large (429) exceptions", and 403 substatus 1014 for a full
	// logical partition).
	CodeTooMany = "TooManyRequests"
	MsgTooMany  = "Message: {\"Errors\":[\"Request rate is large. More Request Units may be needed, so no changes were made. Please retry this request later.\"]}"
	CodeFull    = "Forbidden"
)

var allow = Decision{Allow: true}

// reason is why a request was refused.
type reason int

const (
	byAccount reason = iota
	byPartition
	byServer
	byRange
	byOffline
	byLogical  // Cosmos DB: a logical partition's RU/s
	byPhysical // Cosmos DB: a physical partition's share of the RU/s
	byIngress  // the account's ingress (bandwidth.go)
	byEgress   // the account's egress
	numReasons
)

var reasonNames = [numReasons]string{"account", "partition", "server", "range", "offline", "logical", "physical", "ingress", "egress"}

// reasonMessages are the messages of the refusals that have one of their
// own; the others are MsgBusy.
var reasonMessages = map[reason]string{byAccount: MsgAccount, byIngress: MsgIngress, byEgress: MsgEgress}

// refusals decides the answer of each refusal and counts them; safe for
// concurrent use.
type refusals struct {
	// timeoutPPM is the timeout share in parts per million.
	timeoutPPM int64
	throttled  atomic.Int64 // throttling refusals so far: k of the k-th
	timeouts   atomic.Int64
	by         [numReasons]atomic.Int64
}

func newRefusals(share float64) *refusals {
	return &refusals{timeoutPPM: int64(math.Round(share * 1e6))}
}

// throttle answers a request refused for being over a target. The k-th
// such refusal is 500 OperationTimedOut exactly when
// floor(k·s) > floor((k-1)·s), s the timeout share rounded to millionths;
// 503 ServerBusy otherwise. Of the first k refusals, floor(k·s) are
// timeouts.
func (r *refusals) throttle(why reason) Decision {
	r.by[why].Add(1)
	k := r.throttled.Add(1)
	if k*r.timeoutPPM/1e6 > (k-1)*r.timeoutPPM/1e6 {
		r.timeouts.Add(1)
		return Decision{Status: 500, Code: CodeTimeout, Message: MsgTimeout}
	}
	msg, ok := reasonMessages[why]
	if !ok {
		msg = MsgBusy
	}
	return Decision{Status: 503, Code: CodeBusy, Message: msg}
}

// tooMany answers a request Cosmos DB refuses for being over the RU/s of
// its logical or physical partition: 429 with the wait before its units
// are there.
func (r *refusals) tooMany(why reason, wait time.Duration) Decision {
	r.by[why].Add(1)
	r.throttled.Add(1)
	return Decision{Status: 429, Code: CodeTooMany, Message: MsgTooMany, RetryAfter: wait}
}

// offline answers a request to something load balancing is moving: always
// 503 ServerBusy, as the partitioning guide describes ("Load balancing":
// "the timeout and Server Busy errors. The errors are returned when the
// system is load balancing").
func (r *refusals) offline() Decision {
	r.by[byOffline].Add(1)
	return Decision{Status: 503, Code: CodeBusy, Message: MsgBusy}
}

// hotGap is how far apart refusals may be and still belong to one stretch
// over target: demand over a target shows as refusals at least every
// second.
const hotGap = int64(time.Second)

// streak tracks a stretch of time over target: refusals no more than
// hotGap apart. Not safe for concurrent use; its owner locks.
type streak struct{ since, last int64 }

func noStreak() streak { return streak{since: never, last: never} }

// refused records a refusal at now and reports whether the stretch over
// target has lasted d.
func (s *streak) refused(now int64, d time.Duration) bool {
	if !s.active(now) {
		s.since = now
	}
	s.last = now
	return now-s.since >= int64(d)
}

// active reports whether a stretch over target is running at now.
func (s *streak) active(now int64) bool { return s.last != never && now-s.last <= hotGap }

// length returns how long the running stretch has lasted (0 if none).
func (s *streak) length(now int64) time.Duration {
	if !s.active(now) {
		return 0
	}
	return time.Duration(now - s.since)
}
