package model

import (
	"hash/fnv"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Request is one Table request as the partition model sees it.
type Request struct {
	Table     string
	Partition string // the PartitionKey addressed; "" when the request spans partitions
	Entities  int    // entities written, or read by a point read (1); 0 for queries (charged afterwards)
	Write     bool
	// Extends is +1 when the request creates a PartitionKey greater than
	// every existing one in the table (append-only), -1 when less than every
	// existing one (prepend-only), 0 otherwise.
	Extends int
}

// Decision is the model's verdict on a request.
type Decision struct {
	Allow   bool
	Status  int    // 503 or 500 when refused
	Code    string // ServerBusy or OperationTimedOut
	Message string
}

// Azure's throttling messages.
const (
	MsgBusy    = "The server is currently unable to receive requests. Please retry your request."
	MsgAccount = "Operations per second is over the account limit."
	MsgTimeout = "Operation could not be completed within the specified time."
)

var allow = Decision{Allow: true}

const shards = 64

// Model applies a Config to requests. All methods are safe for concurrent
// use: partition state is sharded by key, each shard with its own lock;
// the account, range ends and servers have their own.
type Model struct {
	cfg Config
	now func() time.Time
	// paused suspends the model (SetPaused), e.g. while a test table is
	// seeded: setup is not what a run measures.
	paused atomic.Bool

	accountMu sync.Mutex
	account   bucket

	shards   [shards]shard
	servers  []server
	tablesMu sync.Mutex
	tables   map[string]*tableState

	refusals atomic.Int64
	moves    atomic.Int64
	admits   atomic.Int64

	// pending are moves decided by server load balancing, applied when the
	// moved partition is next seen (its shard lock cannot be taken while
	// the server's is held).
	pendingMu sync.Mutex
	pending   map[partKey]pendingMove
	npending  atomic.Int64
}

type pendingMove struct {
	server int
	until  time.Time
}

type shard struct {
	mu    sync.Mutex
	parts map[partKey]*part
}

type partKey struct{ table, pk string }

type part struct {
	b            bucket
	h            hot
	server       int
	offlineUntil time.Time
	load         float64 // entities/s, exponentially decayed over about a second
	loadAt       time.Time
}

type server struct {
	mu       sync.Mutex
	b        bucket
	h        hot
	load     float64
	loadAt   time.Time
	cand     *part // the hottest partition seen recently
	candKey  partKey
	candLoad float64
}

type tableState struct {
	mu         sync.Mutex
	ends       [2]bucket // 0: first range (prepend-only), 1: last range (append-only)
	endHot     [2]hot
	endOffline [2]time.Time
}

// New returns a model; now is its clock.
func New(cfg Config, now func() time.Time) *Model {
	if now == nil {
		now = time.Now
	}
	if cfg.Servers < 1 {
		cfg.Servers = 1
	}
	t := now()
	m := &Model{cfg: cfg, now: now, account: newBucket(cfg.AccountTarget, cfg.Burst, t), tables: map[string]*tableState{}, pending: map[partKey]pendingMove{}}
	for i := range m.shards {
		m.shards[i].parts = map[partKey]*part{}
	}
	m.servers = make([]server, cfg.Servers)
	for i := range m.servers {
		m.servers[i].b = newBucket(cfg.ServerTarget, cfg.Burst, t)
	}
	return m
}

// Active reports whether requests are being judged (enabled, not paused).
func (m *Model) Active() bool { return m.cfg.Enabled && !m.paused.Load() }

// SetPaused suspends (true) or resumes (false) the model: while paused
// every request is admitted and nothing is charged.
func (m *Model) SetPaused(p bool) { m.paused.Store(p) }

// Config returns the model's configuration.
func (m *Model) Config() Config { return m.cfg }

func hash(s ...string) uint64 {
	h := fnv.New64a()
	for _, x := range s {
		h.Write([]byte(x))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func (m *Model) refuse(msg string) Decision {
	n := m.refusals.Add(1)
	if m.cfg.TimeoutShare > 0 && n%int64(math.Max(1, math.Round(1/m.cfg.TimeoutShare))) == 0 {
		return Decision{Status: 500, Code: "OperationTimedOut", Message: MsgTimeout}
	}
	return Decision{Status: 503, Code: "ServerBusy", Message: msg}
}

func (m *Model) table(name string) *tableState {
	m.tablesMu.Lock()
	defer m.tablesMu.Unlock()
	t := m.tables[name]
	if t == nil {
		now := m.now()
		t = &tableState{ends: [2]bucket{newBucket(m.cfg.RangeTarget, m.cfg.Burst, now), newBucket(m.cfg.RangeTarget, m.cfg.Burst, now)}}
		m.tables[name] = t
	}
	return t
}

func decay(load float64, at, now time.Time) float64 {
	dt := now.Sub(at).Seconds()
	if dt <= 0 {
		return load
	}
	return load * math.Exp(-dt)
}

// Admit decides whether a request is served. A request that spans
// partitions is only subject to the account target; its entities are
// charged per partition afterwards with Charge.
func (m *Model) Admit(r Request) Decision {
	if !m.cfg.Enabled || m.paused.Load() {
		return allow
	}
	now := m.now()
	if m.admits.Add(1)%100_000 == 0 {
		m.sweep(now)
	}
	m.accountMu.Lock()
	m.account.refill(now)
	if !m.account.can(1) {
		m.accountMu.Unlock()
		return m.refuse(MsgAccount)
	}
	m.account.take(1)
	m.accountMu.Unlock()
	if r.Partition == "" && r.Extends == 0 {
		return allow
	}
	n := float64(r.Entities)
	key := partKey{r.Table, r.Partition}
	sh := &m.shards[hash(r.Table, r.Partition)%shards]
	sh.mu.Lock()
	p := sh.parts[key]
	if p == nil {
		p = &part{b: newBucket(m.cfg.PartitionTarget, m.cfg.Burst, now), server: int(hash(r.Table, r.Partition) % uint64(len(m.servers))), loadAt: now}
		sh.parts[key] = p
	}
	if m.npending.Load() > 0 {
		m.pendingMu.Lock()
		if mv, ok := m.pending[key]; ok {
			p.server, p.offlineUntil = mv.server, mv.until
			delete(m.pending, key)
			m.npending.Add(-1)
		}
		m.pendingMu.Unlock()
	}
	if now.Before(p.offlineUntil) {
		sh.mu.Unlock()
		return m.refuse(MsgBusy)
	}
	p.b.refill(now)
	if !p.b.can(n) {
		if p.h.refused(now, m.cfg.BalanceDelay) {
			// A partition cannot be split: moving it to another server
			// takes it offline and leaves its target unchanged.
			p.offlineUntil = now.Add(m.cfg.MoveOffline)
			p.h.reset(now)
			m.moves.Add(1)
		}
		sh.mu.Unlock()
		return m.refuse(MsgBusy)
	}
	srv := &m.servers[p.server]
	srv.mu.Lock()
	srv.b.refill(now)
	if !srv.b.can(n) {
		if srv.h.refused(now, m.cfg.BalanceDelay) {
			m.rebalance(srv, now)
		}
		srv.mu.Unlock()
		sh.mu.Unlock()
		return m.refuse(MsgBusy)
	}
	if r.Extends != 0 {
		end := 0
		if r.Extends > 0 {
			end = 1
		}
		t := m.table(r.Table)
		t.mu.Lock()
		t.ends[end].refill(now)
		if now.Before(t.endOffline[end]) || !t.ends[end].can(n) {
			if !now.Before(t.endOffline[end]) && t.endHot[end].refused(now, m.cfg.BalanceDelay) {
				// The range splits, but new keys keep landing at the end:
				// the end range goes offline while it moves and stays hot.
				t.endOffline[end] = now.Add(m.cfg.MoveOffline)
				t.endHot[end].reset(now)
				m.moves.Add(1)
			}
			t.mu.Unlock()
			srv.mu.Unlock()
			sh.mu.Unlock()
			return m.refuse(MsgBusy)
		}
		t.ends[end].take(n)
		t.mu.Unlock()
	}
	p.b.take(n)
	srv.b.take(n)
	p.load = decay(p.load, p.loadAt, now) + n
	p.loadAt = now
	srv.load = decay(srv.load, srv.loadAt, now) + n
	srv.loadAt = now
	if srv.cand == nil || srv.cand == p || p.load > decay(srv.candLoad, srv.loadAt, now) {
		srv.cand, srv.candKey, srv.candLoad = p, key, p.load
	}
	srv.mu.Unlock()
	sh.mu.Unlock()
	return allow
}

// rebalance moves a hot server's hottest recent partition to the
// least-loaded server; the partition is offline while it moves. srv is
// locked by the caller; the move is applied when the partition is next
// admitted.
func (m *Model) rebalance(srv *server, now time.Time) {
	if srv.cand == nil {
		return
	}
	target, least := -1, math.Inf(1)
	for i := range m.servers {
		s := &m.servers[i]
		if s == srv {
			continue
		}
		if l := decay(s.load, s.loadAt, now); l < least {
			target, least = i, l
		}
	}
	if target < 0 {
		return
	}
	m.pendingMu.Lock()
	if _, dup := m.pending[srv.candKey]; !dup {
		m.npending.Add(1)
	}
	m.pending[srv.candKey] = pendingMove{server: target, until: now.Add(m.cfg.MoveOffline)}
	m.pendingMu.Unlock()
	srv.cand = nil
	srv.h.reset(now)
	m.moves.Add(1)
}

// Charge records entities a query returned from a partition after the fact;
// the partition's bucket may go into debt, delaying later requests.
func (m *Model) Charge(table, partition string, entities int) {
	if !m.cfg.Enabled || entities <= 0 || m.paused.Load() {
		return
	}
	now := m.now()
	key := partKey{table, partition}
	sh := &m.shards[hash(table, partition)%shards]
	sh.mu.Lock()
	p := sh.parts[key]
	if p == nil {
		p = &part{b: newBucket(m.cfg.PartitionTarget, m.cfg.Burst, now), server: int(hash(table, partition) % uint64(len(m.servers))), loadAt: now}
		sh.parts[key] = p
	}
	p.b.refill(now)
	p.b.take(float64(entities))
	p.load = decay(p.load, p.loadAt, now) + float64(entities)
	p.loadAt = now
	sh.mu.Unlock()
}

// sweep forgets partitions that are idle: bucket full, not offline, and not
// used for a minute. Their state is recreated full, which is what it was.
func (m *Model) sweep(now time.Time) {
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		for k, p := range sh.parts {
			p.b.refill(now)
			if p.b.full() && now.After(p.offlineUntil) && now.Sub(p.loadAt) > time.Minute {
				delete(sh.parts, k)
			}
		}
		sh.mu.Unlock()
	}
}

// State is a JSON-encodable snapshot of the model.
type State struct {
	Enabled       bool            `json:"enabled"`
	Config        string          `json:"config"`
	Refusals      int64           `json:"refusals"`
	Moves         int64           `json:"moves"`
	Partitions    int             `json:"partitions_tracked"`
	HotPartitions []PartitionLoad `json:"hot_partitions"`
	Offline       []PartitionLoad `json:"offline"`
}

// PartitionLoad is one partition's recent load.
type PartitionLoad struct {
	Table          string  `json:"table"`
	PartitionKey   string  `json:"partition_key"`
	EntitiesPerSec float64 `json:"entities_per_sec"`
	Server         int     `json:"server"`
}

// State returns a snapshot: the ten busiest partitions and those offline.
func (m *Model) State() State {
	now := m.now()
	st := State{Enabled: m.cfg.Enabled, Config: m.cfg.String(), Refusals: m.refusals.Load(), Moves: m.moves.Load()}
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		for k, p := range sh.parts {
			st.Partitions++
			pl := PartitionLoad{Table: k.table, PartitionKey: k.pk, EntitiesPerSec: decay(p.load, p.loadAt, now), Server: p.server}
			st.HotPartitions = append(st.HotPartitions, pl)
			if now.Before(p.offlineUntil) {
				st.Offline = append(st.Offline, pl)
			}
		}
		sh.mu.Unlock()
	}
	sort.Slice(st.HotPartitions, func(i, j int) bool { return st.HotPartitions[i].EntitiesPerSec > st.HotPartitions[j].EntitiesPerSec })
	if len(st.HotPartitions) > 10 {
		st.HotPartitions = st.HotPartitions[:10]
	}
	return st
}
