package model

import (
	"strings"
	"sync"
	"time"
)

// numShards is the number of partition shards (a power of two).
const numShards = 256

// idleAfter is how long a partition must have gone without entities
// before its state, once back to that of a new partition, is evicted. It
// bounds memory to the partitions used in the last few seconds; it changes
// no decision (evicted state is indistinguishable from new state).
const idleAfter = 5 * time.Second

// partKey identifies a partition: one PartitionKey of one table.
type partKey struct{ table, pk string }

// part is one partition's state: about 60 bytes. Guarded by its shard's
// mutex.
type part struct {
	b       bucket // the partition target
	m       meter  // entities admitted (and charged)
	hot     streak // refusals by the partition bucket
	offline int64  // offline until (moved by load balancing)
	server  int32  // the server it is placed on
}

// shard holds the partitions whose key hashes to it.
type shard struct {
	mu    sync.Mutex
	parts map[partKey]*part
	// placed remembers the server of every partition load balancing moved,
	// so that evicting the partition's state does not move it back.
	placed map[partKey]int32
	swept  int64 // when the shard was last swept for idle partitions
	_      [32]byte
}

// partHash is FNV-1a over table, a zero byte and the PartitionKey, mixed
// by MurmurHash3's 64-bit finalizer so that similar keys (device-0000001,
// device-0000002...) spread evenly. Its low bits pick the shard, its high
// bits the home server.
func partHash(table, pk string) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for i := 0; i < len(table); i++ {
		h = (h ^ uint64(table[i])) * prime
	}
	h *= prime // the zero byte
	for i := 0; i < len(pk); i++ {
		h = (h ^ uint64(pk[i])) * prime
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// homeServer is where a partition is placed until load balancing moves it.
func homeServer(h uint64, servers int) int32 {
	return int32((h >> 32) % uint64(servers))
}

// Range partitions of sequential keys (REST "Design a scalable
// partitioning strategy for Azure Table storage", "Range partitions": Azure
// "might group" entities with "sequential, unique PartitionKey values" into
// a range partition served from one partition server). The model groups
// the PartitionKeys that end in a number of at least sequentialDigits
// digits (a sequence, a Unix time, a compact date: {i:010}, {desc_seq},
// {unix}) and differ only in its last rangeDigits digits: a hundred
// consecutive values share a range partition, placed on one server by the
// hash of what they share. Every other PartitionKey is placed by its own
// hash, so scattered keys spread over the servers. Both figures are model
// assumptions: Azure does not say how large range partitions are.
const (
	sequentialDigits = 6
	rangeDigits      = 2
)

// rangeKey returns what places pk on a server: pk without its last
// rangeDigits digits when it ends in a number of sequentialDigits or more,
// else pk.
func rangeKey(pk string) string {
	n := 0
	for n < len(pk) && pk[len(pk)-1-n] >= '0' && pk[len(pk)-1-n] <= '9' {
		n++
	}
	if n < sequentialDigits {
		return pk
	}
	return pk[:len(pk)-rangeDigits]
}

// homeOf is the home server of table's partition pk: by the hash of its
// range partition (rangeKey).
func (m *Model) homeOf(table, pk string) int32 {
	return homeServer(partHash(table, rangeKey(pk)), len(m.servers))
}

func (m *Model) shardOf(h uint64) *shard { return &m.shards[h&(numShards-1)] }

// get returns the partition's state, creating it (a full bucket, on its
// home server or where it was moved) if needed. The caller holds sh.mu.
// From time to time it sweeps the shard for idle partitions first.
func (m *Model) get(sh *shard, key partKey, h uint64, now int64) *part {
	if p := sh.parts[key]; p != nil {
		return p
	}
	if now-sh.swept >= int64(idleAfter) {
		sh.sweep(now)
	}
	srv, moved := sh.placed[key]
	if !moved {
		srv = m.homeOf(key.table, key.pk)
	}
	// Own the keys: the caller's strings may point into a request buffer.
	// Partitions of a table share one copy of its name.
	key = partKey{m.tables.get(key.table).name, strings.Clone(key.pk)}
	p := &part{b: fullBucket(), hot: noStreak(), offline: never, server: srv}
	sh.parts[key] = p
	return p
}

// sweep evicts the partitions whose state is that of a new partition: full
// bucket, not offline, no running stretch over target, and no entities for
// idleAfter. The caller holds sh.mu.
func (sh *shard) sweep(now int64) {
	sh.swept = now
	for k, p := range sh.parts {
		if p.b.full(now) && p.offline <= now && !p.hot.active(now) && p.m.idleFor(now, idleAfter) {
			delete(sh.parts, k)
		}
	}
}

// place records that load balancing moved a partition. The caller holds
// sh.mu.
func (sh *shard) place(key partKey, p *part, server int32, until int64) {
	p.server, p.offline, p.hot = server, until, noStreak()
	if sh.placed == nil {
		sh.placed = map[partKey]int32{}
	}
	sh.placed[key] = server
}

// ServerOf returns the partition server a partition is placed on now: its
// home server (by the hash of its range partition, rangeKey) unless load
// balancing moved it. Safe for concurrent use.
func (m *Model) ServerOf(table, partition string) int {
	key, h := partKey{table, partition}, partHash(table, partition)
	sh := m.shardOf(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if p := sh.parts[key]; p != nil {
		return int(p.server)
	}
	if s, ok := sh.placed[key]; ok {
		return int(s)
	}
	return int(m.homeOf(table, partition))
}

// Place returns where a partition is served: its partition server under
// Azure (ServerOf), its physical partition under Cosmos DB. A query page
// ends where the next entity is served elsewhere (the partitioning guide,
// "Choose the PartitionKey value": "If a query crosses a server boundary,
// continuation tokens must be returned").
// Safe for concurrent use.
func (m *Model) Place(table, partition string) int {
	if m.cfg.Kind == Cosmos {
		return physicalOf(partition, m.tables.phys)
	}
	return m.ServerOf(table, partition)
}
