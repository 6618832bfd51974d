package model

import (
	"math"
	"time"
)

// Latency is the service-time model: each request is answered after
//
//	base + Entity·(entities read, written or visited) + KiB·(KiB moved)
//	     + base·ρ/(1−ρ),   ρ = min(Queue·load, 0.95)
//
// where base is Read (point reads, query pages) or Write (single writes,
// entity group transactions), KiB moved counts the request's and the
// answer's bodies, and load is how busy, at admission, what judged the
// request was: its partition, its server or end range, its physical
// partition (the busiest of them, its rate over the last second as a share
// of its target). The last term is the mean wait of an M/M/1 queue at
// utilisation ρ: a partition nearing its target slows down before it
// refuses (the partitioning guide, "Table partitions": throughput "is
// throttled down when the node becomes hot"). A refused request is answered after its base alone.
//
// Azure publishes no latency figure for Table storage ("Fast, but no upper
// bounds on latency": learn.microsoft.com/azure/cosmos-db/table-support),
// so the Azure defaults are model assumptions, each explained on its
// field; the Cosmos DB defaults sit under that page's documented bounds.
type Latency struct {
	// On turns the service time on; off, requests are answered as fast as
	// this machine computes them (--model azure,latency=off).
	On bool

	// Read is the base of a point read and of a query page. Azure: 5 ms, a
	// model assumption: single-digit milliseconds within a region, the
	// order of the Cosmos DB Table API's documented "<10-ms latency reads
	// ... at the 99th percentile" (table-support), which Microsoft offers
	// as the faster service. Cosmos DB: 3 ms, a model assumption for the
	// median under that documented 10 ms p99 ("single-digit millisecond
	// latency for reads and writes").
	Read time.Duration

	// Write is the base of an insert, update, delete or entity group
	// transaction. Azure: 10 ms, a model assumption: a write is
	// acknowledged once committed to three replicas (Azure Storage
	// redundancy: LRS "copies your data synchronously three times"), so it
	// takes longer than a read; 10 ms is within the Cosmos DB Table API's
	// documented "<15-ms latency writes at the 99th percentile". Cosmos DB:
	// 6 ms, a model assumption for the median under that bound.
	Write time.Duration

	// Entity is the time per entity a request reads, writes or a query page
	// visits (whether it matches the filter or not: the partitioning
	// guide's selectivity "dictates how many rows must be iterated"): 50
	// µs, a model
	// assumption chosen so that a page's five seconds of execution (REST
	// "Query Timeout and Pagination": a query "may execute for a maximum
	// of five seconds") visit 100,000 entities.
	Entity time.Duration

	// KiB is the time per KiB of request and answer body: 20 µs, about
	// 50 MiB/s for one request, a model assumption.
	KiB time.Duration

	// Queue is the utilisation of a partition or server running at its
	// target: 0.5, a model assumption (a target is set well below
	// saturation: at its target an M/M/1 queue waits ρ/(1−ρ) = 1 service
	// time, so a request takes twice its base; at half its target a third
	// of a base more; twice over it (debt) three more; ρ is capped at 0.95,
	// 19 service times). 0 turns queueing off. Cosmos DB: 0, since it serves
	// its provisioned throughput within its latency SLA and refuses the
	// excess with 429 instead of slowing down ("Request units": throughput
	// is reserved).
	Queue float64
}

// The latency defaults, each documented on its Latency field.
const (
	azureRead, azureWrite   = 5 * time.Millisecond, 10 * time.Millisecond
	cosmosRead, cosmosWrite = 3 * time.Millisecond, 6 * time.Millisecond
	defaultEntityTime       = 50 * time.Microsecond
	defaultKiBTime          = 20 * time.Microsecond
	defaultQueue            = 0.5
	// maxRho caps the utilisation of the queueing term (19 service times).
	maxRho = 0.95
	// queryExecution is how long one query page may execute before the
	// service answers it with a continuation. Source: REST "Query Timeout
	// and Pagination" ("may execute for a maximum of five seconds").
	queryExecution = 5 * time.Second
)

// AzureLatency returns Azure Table Storage's service-time defaults.
func AzureLatency() Latency {
	return Latency{On: true, Read: azureRead, Write: azureWrite, Entity: defaultEntityTime, KiB: defaultKiBTime, Queue: defaultQueue}
}

// CosmosLatency returns the Cosmos DB Table API's service-time defaults.
func CosmosLatency() Latency {
	return Latency{On: true, Read: cosmosRead, Write: cosmosWrite, Entity: defaultEntityTime, KiB: defaultKiBTime}
}

// normalized clamps every field into range: no negative time, a queue
// utilisation from 0 to 1.
func (l Latency) normalized() Latency {
	for _, d := range []*time.Duration{&l.Read, &l.Write, &l.Entity, &l.KiB} {
		*d = min(max(*d, 0), maxDuration)
	}
	if !(l.Queue >= 0) {
		l.Queue = 0
	}
	l.Queue = min(l.Queue, 1)
	return l
}

// Op is the kind of a request, for its service time and its cost.
type Op uint8

// The kinds of request.
const (
	OpRead   Op = iota // a point read
	OpQuery            // one page of a query
	OpWrite            // an insert, update, merge or upsert of one entity
	OpDelete           // a delete of one entity
	OpBatch            // an entity group transaction
)

// writes reports whether the op changes entities.
func (o Op) writes() bool { return o >= OpWrite }

// Work is what one request did, for its service time.
type Work struct {
	Op Op
	// Entities is the entities the request read or wrote (a point read 1, a
	// transaction its operations); Visited the entities a query page
	// visited.
	Entities, Visited int
	// Bytes is the request's and the answer's bodies.
	Bytes int
	// Load is the utilisation its decision reported (Decision.Load).
	Load float64
	// Refused is set when the model refused the request.
	Refused bool
	// Charge is the request units the request was charged (Cosmos DB:
	// Decision.Charge, and what ChargePage billed a query page).
	Charge float64
}

// ServiceTime returns how long a request that did w takes to answer: 0
// when the model is off, paused or has no service time; see Latency for
// the formula.
func (m *Model) ServiceTime(w Work) time.Duration {
	l := &m.cfg.Latency
	if !l.On || !m.Active() {
		return 0
	}
	base := l.Read
	if w.Op.writes() {
		base = l.Write
	}
	if w.Refused {
		return base
	}
	t := float64(base) + float64(l.Entity)*float64(max(w.Entities, 0)+max(w.Visited, 0)) +
		float64(l.KiB)*float64(max(w.Bytes, 0))/1024 + float64(base)*queueing(w.Load, l.Queue)
	return time.Duration(math.Round(min(t, float64(maxDuration))))
}

// queueing is the M/M/1 mean wait in units of the service time, ρ/(1−ρ),
// at utilisation ρ = min(u·load, maxRho).
func queueing(load, u float64) float64 {
	rho := min(u*load, maxRho)
	if !(rho > 0) {
		return 0
	}
	return rho / (1 - rho)
}

// PageVisits is how many entities one query page may visit before the
// service ends it with a continuation: the five seconds of execution
// Azure allows a page (queryExecution) at Latency.Entity each, whether the
// service time is on or not (100,000 at the defaults).
func (m *Model) PageVisits() int {
	e := m.cfg.Latency.Entity
	if e <= 0 {
		e = defaultEntityTime
	}
	return int(min(int64(queryExecution/e), math.MaxInt32))
}
