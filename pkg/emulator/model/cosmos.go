package model

import (
	"fmt"
	"math/bits"
	"sync"
	"time"
)

// The Cosmos DB Table API model (Kind Cosmos). Each table has
// CosmosConfig.physical() physical partitions, each a bucket of RU at
// RU/physical per second; each PartitionKey (a logical partition) a bucket
// of LogicalRU per second, in the same shards and part state as Azure's
// partitions (its meter counting RU). A request is admitted when both
// buckets hold its units (rucost.go) and refused otherwise with 429 and the
// wait until they will; a query page is admitted unless its first
// partition's buckets are in debt and charged afterwards (ChargePage).

// physical is one physical partition of a table: its share of the table's
// RU/s. Guarded by mu, taken after a shard's mutex.
type physical struct {
	mu     sync.Mutex
	b      bucket
	served meter // RU admitted and charged
}

// physicalOf places a logical partition on one of n physical partitions:
// Cosmos DB hashes the partition key value and gives each physical
// partition an even range of the hash space (Cosmos DB "Partitioning":
// "Azure Cosmos DB uses hash-based partitioning to spread logical
// partitions across physical partitions").
func physicalOf(pk string, n int) int {
	if n <= 1 {
		return 0
	}
	hi, _ := bits.Mul64(partHash("", pk), uint64(n))
	return int(hi)
}

// wait returns how long until b allows n tokens at now.
func (b *bucket) wait(l limit, now int64, n float64) time.Duration {
	return time.Duration(max(max(b.tat, now)-l.headroom(n)-now, 0))
}

// admitCosmos decides a request under Cosmos DB: its units must be in its
// logical partition's bucket and in its physical partition's; a query
// page (no units) passes unless either owes more than queryAhead. A request spanning
// partitions (no Partition) always passes: its pages are charged where
// they read.
func (m *Model) admitCosmos(r Request, now int64) Decision {
	if r.Partition == "" {
		return allow
	}
	cost := units(r)
	key, h := partKey{r.Table, r.Partition}, partHash(r.Table, r.Partition)
	sh := m.shardOf(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	p := m.get(sh, key, h, now)
	ahead := aheadOf(r)
	if !p.b.allows(m.partLimit, now, cost, ahead) {
		return m.refusals.tooMany(byLogical, p.b.wait(m.partLimit, now, cost))
	}
	ph := m.physicalFor(r.Table, r.Partition)
	ph.mu.Lock()
	if !ph.b.allows(m.serverLimit, now, cost, ahead) {
		wait := ph.b.wait(m.serverLimit, now, cost)
		ph.mu.Unlock()
		return m.refusals.tooMany(byPhysical, wait)
	}
	load := ph.served.rate(now) / m.physicalRU()
	ph.b.take(m.serverLimit, now, cost)
	ph.served.add(now, cost)
	ph.mu.Unlock()
	p.b.take(m.partLimit, now, cost)
	p.m.add(now, cost)
	return Decision{Allow: true, Load: load, Charge: cost}
}

// physicalFor returns the physical partition serving table's partition pk.
func (m *Model) physicalFor(table, pk string) *physical {
	t := m.tables.get(table)
	return &t.phys[physicalOf(pk, len(t.phys))]
}

// physicalRU is each physical partition's share of a table's RU/s.
func (m *Model) physicalRU() float64 {
	return m.cfg.Cosmos.PartitionShare()
}

// chargeCosmos bills a query page: queryRU to the partition it started
// in, and each visit's units (pageUnits) to its logical and physical
// partition, possibly into debt. It returns the page's request units.
func (m *Model) chargeCosmos(table string, visits []Visit, now int64) float64 {
	total := 0.0
	for i, v := range visits {
		ru := pageUnits(v)
		if i == 0 {
			ru += queryRU
		}
		if ru <= 0 {
			continue
		}
		total += ru
		key, h := partKey{table, v.Partition}, partHash(table, v.Partition)
		sh := m.shardOf(h)
		sh.mu.Lock()
		p := m.get(sh, key, h, now)
		p.b.take(m.partLimit, now, ru)
		p.m.add(now, ru)
		ph := m.physicalFor(table, v.Partition)
		ph.mu.Lock()
		ph.b.take(m.serverLimit, now, ru)
		ph.served.add(now, ru)
		ph.mu.Unlock()
		sh.mu.Unlock()
	}
	return total
}

// ChargesUnits reports whether the model charges request units (Cosmos
// DB's, as x-ms-request-charge): enabled with Kind Cosmos.
func (m *Model) ChargesUnits() bool { return m.cfg.ChargesUnits() }

// ChargesUnits reports whether a model of c charges request units.
func (c Config) ChargesUnits() bool { return c.Enabled && c.Kind == Cosmos }

// PartitionBytes returns the most one partition may hold, in bytes, while
// the model is active: Cosmos DB's logical partition limit
// (CosmosConfig.LogicalBytes); 0 (no limit) under Azure, off or paused.
func (m *Model) PartitionBytes() int64 {
	if m.cfg.Kind != Cosmos || !m.Active() {
		return 0
	}
	return m.cfg.Cosmos.LogicalBytes
}

// PartitionFull is the answer to a write that would grow a logical
// partition beyond PartitionBytes: Cosmos DB's 403 Forbidden (substatus
// 1014), "Partition key reached maximum size".
func (m *Model) PartitionFull() Decision {
	return Decision{Status: 403, Code: CodeFull,
		Message: fmt.Sprintf("Message: {\"Errors\":[\"Partition key reached maximum size of %s\"]}", formatBytes(m.cfg.Cosmos.LogicalBytes))}
}
