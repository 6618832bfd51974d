package model

import (
	"sync/atomic"
	"time"
)

// Model applies a Config to requests. Every method is safe for concurrent
// use (see the package documentation for the locking).
type Model struct {
	cfg   Config
	now   func() time.Time
	epoch time.Time
	// paused suspends the model (SetPaused), e.g. while a test table is
	// seeded: setup is not what a run measures.
	paused atomic.Bool

	// The buckets' shapes. Under Cosmos DB partLimit is a logical
	// partition's RU/s and serverLimit a physical partition's.
	partLimit, accountLimit, rangeLimit, serverLimit limit
	// ingressLimit and egressLimit are the account's bandwidth, in bytes
	// (bandwidth.go).
	ingressLimit, egressLimit limit

	account         atomicBucket
	ingress, egress atomicBucket
	shards          [numShards]shard
	servers         []server
	tables          tableSet
	refusals        *refusals
	moves           atomic.Int64
	log             moveLog
}

// New returns a model of cfg reading the clock now (time.Now when nil).
// Unusable values in cfg (zero or negative targets, Servers out of 1..4096)
// are replaced by Default's.
func New(cfg Config, now func() time.Time) *Model {
	if now == nil {
		now = time.Now
	}
	cfg = cfg.normalized()
	m := &Model{
		cfg:          cfg,
		now:          now,
		epoch:        now(),
		partLimit:    newLimit(cfg.PartitionTarget, cfg.Burst),
		accountLimit: newLimit(cfg.AccountTarget, cfg.Burst),
		rangeLimit:   newLimit(cfg.RangeTarget, cfg.Burst),
		serverLimit:  newLimit(cfg.ServerTarget, cfg.Burst),
		servers:      make([]server, cfg.Servers),
		refusals:     newRefusals(cfg.TimeoutShare),
	}
	if cfg.Kind == Cosmos {
		// The partition bucket holds a logical partition's RU, the server
		// bucket a physical partition's share of its table's RU.
		m.partLimit = newLimit(cfg.Cosmos.LogicalRU, cfg.Burst)
		m.serverLimit = newLimit(m.physicalRU(), cfg.Burst)
		m.tables.phys = cfg.Cosmos.physical()
		m.refusals = newRefusals(0)
	}
	m.ingressLimit, m.egressLimit = bandwidthLimits(cfg)
	m.account.tat.Store(never)
	m.ingress.tat.Store(never)
	m.egress.tat.Store(never)
	for i := range m.shards {
		m.shards[i].parts = map[partKey]*part{}
	}
	for i := range m.servers {
		m.servers[i].b, m.servers[i].hot = fullBucket(), noStreak()
	}
	return m
}

// Config returns the model's configuration (after New's corrections).
func (m *Model) Config() Config { return m.cfg }

// Active reports whether requests are being judged: enabled and not paused.
func (m *Model) Active() bool { return m.cfg.Enabled && !m.paused.Load() }

// Waits reports whether the model holds answers for a service time: its
// latency is on and it is active.
func (m *Model) Waits() bool { return m.cfg.Latency.On && m.Active() }

// SetPaused suspends (true) or resumes (false) the model: while paused,
// Admit allows everything and Charge does nothing.
func (m *Model) SetPaused(p bool) { m.paused.Store(p) }

// clock returns the model's time: ns since its epoch.
func (m *Model) clock() int64 { return int64(m.now().Sub(m.epoch)) }

// at converts model time back to a time.Time.
func (m *Model) at(ns int64) time.Time { return m.epoch.Add(time.Duration(ns)) }

// Admit decides whether a request is served, and charges it if so. Under
// Cosmos DB it is admitCosmos. Under Azure, checks run in order: the
// account target (every request), the account's egress and ingress
// (every request, bandwidth.go), then for a request addressing one
// partition: offline after a move, the partition target, and either the
// table's end range (Extends ≠ 0) or the partition's server. A refused
// request takes no partition, range or server tokens; one the account's
// checks passed does count toward the account's requests and ingress (it
// reached the service). An admitted decision's Load
// is the utilisation of the busiest of partition and server (or range)
// before the request.
func (m *Model) Admit(r Request) Decision {
	if !m.Active() {
		return allow
	}
	now := m.clock()
	if m.cfg.Kind == Cosmos {
		return m.admitCosmos(r, now)
	}
	if !m.account.take(m.accountLimit, now, 1) {
		return m.refusals.throttle(byAccount)
	}
	if d, ok := m.admitBandwidth(r, now); !ok {
		return d
	}
	if r.Partition == "" {
		return allow
	}
	n := float64(max(r.Entities, 0))
	key, h := partKey{r.Table, r.Partition}, partHash(r.Table, r.Partition)
	sh := m.shardOf(h)
	sh.mu.Lock()
	p := m.get(sh, key, h, now)
	if now < p.offline {
		sh.mu.Unlock()
		return m.refusals.offline()
	}
	ahead := aheadOf(r)
	if !p.b.allows(m.partLimit, now, n, ahead) {
		if p.hot.refused(now, m.cfg.BalanceDelay) {
			// A partition cannot be split: it moves to the least-loaded
			// server, offline meanwhile, and keeps its target there.
			m.moveLocked(sh, key, p, m.leastLoaded(p.server, nil, now), now, "partition")
		}
		sh.mu.Unlock()
		return m.refusals.throttle(byPartition)
	}
	var d Decision
	balance := int32(-1)
	if r.Extends != 0 {
		d = m.admitEnd(r.Table, endOf(r.Extends), n, ahead, now)
	} else {
		d, balance = m.admitServer(p, key, h, n, ahead, now)
	}
	if d.Allow {
		d.Load = max(d.Load, p.m.rate(now)/m.cfg.PartitionTarget)
		p.b.take(m.partLimit, now, n)
		p.m.add(now, n)
	}
	sh.mu.Unlock()
	if balance >= 0 {
		m.rebalance(balance, now)
	}
	return d
}

// endOf maps Extends (or Visit.End) to the end range it names.
func endOf(extends int) int {
	if extends < 0 {
		return firstEnd
	}
	return lastEnd
}

// admitServer decides the request at the partition's server and takes the
// tokens if it passes. It returns the server to rebalance (after the
// caller releases its lock) when the server has been over its target for
// BalanceDelay, else -1. The caller holds the partition's shard lock.
func (m *Model) admitServer(p *part, key partKey, h uint64, n float64, ahead, now int64) (Decision, int32) {
	s := &m.servers[p.server]
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offered.add(now, n)
	if !s.b.allows(m.serverLimit, now, n, ahead) {
		if s.hot.refused(now, m.cfg.BalanceDelay) && !s.balancing {
			s.balancing = true
			return m.refusals.throttle(byServer), p.server
		}
		return m.refusals.throttle(byServer), -1
	}
	load := s.served.rate(now) / m.cfg.ServerTarget
	s.b.take(m.serverLimit, now, n)
	s.served.add(now, n)
	s.note(key, h, p.m.rate(now)+n, now)
	return Decision{Allow: true, Load: load}, -1
}

// ChargePage bills what one page of a query visited, after the fact, to
// each partition it visited and to that partition's server, or its end
// range when it lies in one (Visit.End); under Cosmos DB, the page's
// request units to each logical and physical partition (chargeCosmos).
// Their buckets may go into debt, refusing later requests until they
// refill: a query is charged for every entity it iterated, whether its
// filter matched it or not (the partitioning guide, "Determine queries":
// selectivity "dictates how many rows must be iterated"). It does nothing when the model is off or paused. It
// returns the request units the page was charged under Cosmos DB (0
// otherwise).
func (m *Model) ChargePage(table string, visits []Visit) float64 {
	if !m.Active() || len(visits) == 0 {
		return 0
	}
	now := m.clock()
	if m.cfg.Kind == Cosmos {
		return m.chargeCosmos(table, visits, now)
	}
	for _, v := range visits {
		if v.Visited > 0 {
			m.charge(table, v, now)
		}
	}
	return 0
}

// charge bills one visit of an Azure partition.
func (m *Model) charge(table string, v Visit, now int64) {
	n := float64(v.Visited)
	key, h := partKey{table, v.Partition}, partHash(table, v.Partition)
	sh := m.shardOf(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	p := m.get(sh, key, h, now)
	p.b.take(m.partLimit, now, n)
	p.m.add(now, n)
	if v.End != 0 {
		t := m.tables.get(table)
		t.mu.Lock()
		e := &t.ends[endOf(v.End)]
		e.b.take(m.rangeLimit, now, n)
		e.served.add(now, n)
		t.mu.Unlock()
		return
	}
	s := &m.servers[p.server]
	s.mu.Lock()
	s.b.take(m.serverLimit, now, n)
	s.served.add(now, n)
	s.offered.add(now, n)
	s.note(key, h, p.m.rate(now), now)
	s.mu.Unlock()
}
