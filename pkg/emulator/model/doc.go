// Package model is the embedded Table service's model of Azure Table
// Storage's documented partition scalability behaviour, and of the Cosmos
// DB Table API's request units (cosmos.go). The HTTP layer asks it about
// every request (Admit), tells it afterwards what each query page visited
// (ChargePage), asks where each partition is served (Place, for page
// boundaries) and how long the request takes (ServiceTime). It has no HTTP,
// reads no clock of its own (the caller injects one) and makes every
// decision deterministically from the sequence of calls and clock readings.
//
// # What it models
//
//   - Partition target (the partitioning guide, REST "Design a scalable
//     partitioning strategy for Azure Table storage", "Table partitions";
//     Azure Storage scalability targets): every (table, PartitionKey) has a token bucket
//     refilled at the partition target (azure.PartitionEntitiesPerSec,
//     entities/s). A write costs the entities it writes (an
//     entity group transaction its operation count), a point read 1. A query
//     page costs nothing up front and is admitted unless the buckets of the
//     partition it starts in owe more than a second (queryAhead);
//     ChargePage bills it afterwards for
//     every entity it visited, matched or not (selectivity), possibly into
//     debt, in each partition it visited and that partition's server or end
//     range.
//   - Service time (latency.go): each request takes a base per operation,
//     a time per entity and per KiB, and a queueing term growing as what
//     judged it nears its target, so latency rises before refusals.
//   - Account target (azure.AccountRequestsPerSec): requests/s, a
//     transaction counting once, a query page once,
//     refused with "Operations per second is over the account limit."
//   - Account bandwidth (bandwidth.go; azure.AccountIngressGbps,
//     azure.AccountEgressGbps: Azure Storage "Scalability and performance
//     targets for standard storage accounts"): bytes/s of request bodies
//     received (taken up front) and of answers' bodies sent (billed after
//     the answer is written, ChargeEgress), each a bucket like the
//     account's requests, refused with "Ingress is over the account
//     limit." or "Egress is over the account limit." (REST "Common REST
//     API error codes").
//   - Range partitions (the partitioning guide, "Range partitions"): an
//     insert creating a
//     PartitionKey above every existing one (append-only) is served by the
//     table's last range partition, one below every existing one
//     (prepend-only) by its first. Each end has its own bucket, so such key
//     schemes are capped near the partition target however many keys they
//     create.
//   - Partition servers (the partitioning guide, "Load balancing"):
//     partitions are placed on
//     a fixed number of servers by hash, each with its own entities/s target
//     (a model assumption: Azure publishes none); sequential PartitionKeys
//     share a range partition, and its server, per hundred values (rangeKey).
//     A query page ends where the next entity lives on another server.
//   - Load balancing: a partition, server or range end over its target
//     continuously for BalanceDelay is balanced. A partition or a server's
//     hottest partitions move to the least-loaded server; an end range splits.
//     What moved is offline for MoveOffline, answering 503 ServerBusy. A moved
//     partition keeps its target, and an end range is hot
//     again after a split because new keys keep landing at the end.
//
// # Token buckets
//
// A bucket of rate r tokens/s and capacity B is kept in GCRA form: one
// instant tat ("theoretical arrival time"), when the bucket will be full
// again. The tokens available at time t are B - r·max(0, tat-t). Taking n
// tokens sets tat = max(tat, t) + n/r. A request of n entities is admitted
// when min(n, B) tokens are available, so a transaction larger than the
// capacity passes from a full bucket and leaves it in debt: the long-run rate
// stays r. The capacity is r·Burst (0.1 s) but at least 100 tokens (one full
// transaction), so a client counting one-second intervals sees at most
// r + B = 1.1·r in its busiest second and r in steady state.
//
// # Refusals
//
// Throttling refusals are 503 ServerBusy, except a TimeoutShare of them
// (10% by default) answered 500 OperationTimedOut, as Azure does both. The
// k-th refusal (counted across the model) is a timeout exactly when
// floor(k·s) > floor((k-1)·s) for share s (in millionths): exact over any
// run, independent of the clock. Requests to something offline after a move always get 503
// ServerBusy.
//
// # Concurrency and memory
//
// Every method of Model is safe for concurrent use. The account bucket is a
// single atomic word updated by compare-and-swap. Partition state lives in
// 256 shards, each a map under its own mutex; a request holds one shard lock
// and then one server or one range lock, never two of a kind, and load
// balancing across servers runs after those locks are released. A tracked
// partition costs about 140 bytes with a 16-byte PartitionKey, map entry
// included (BenchmarkPartitionMemory); the state of a partition idle for
// idleAfter, with a full bucket and no recent refusal, is indistinguishable
// from new state and is evicted (a moved partition's server is remembered
// separately), so memory follows the partitions of the last few seconds,
// not all a run ever touched.
package model
