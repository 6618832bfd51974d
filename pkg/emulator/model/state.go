package model

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// State is a JSON-encodable snapshot of the model, for the emulator's stats
// endpoint and for tests.
type State struct {
	Enabled bool   `json:"enabled"`
	Paused  bool   `json:"paused"`
	Config  string `json:"config"`
	// Unit is what the rates below count: "entities" under Azure, "RU"
	// (request units) under Cosmos DB.
	Unit string `json:"unit"`
	// Refusals counts refused requests, and RefusedBy by cause: "account"
	// (requests/s), "ingress" and "egress" (the account's bandwidth),
	// "partition", "server", "range" (over a target), "offline" (moved),
	// and under Cosmos DB "logical" and "physical".
	Refusals  int64            `json:"refusals"`
	RefusedBy map[string]int64 `json:"refused_by"`
	// Timeouts is how many refusals were answered 500 OperationTimedOut.
	Timeouts int64 `json:"timeouts"`
	// Moves counts partitions moved and end ranges split by load balancing.
	Moves int64 `json:"moves"`
	// Partitions is how many partitions the model holds state for.
	Partitions    int              `json:"partitions_tracked"`
	Servers       []ServerState    `json:"servers"`
	HotPartitions []PartitionState `json:"hot_partitions"` // the busiest, at most maxListed
	Offline       []PartitionState `json:"offline"`        // moved and still offline, at most maxListed
	Ranges        []RangeState     `json:"ranges"`         // end ranges in use
	RecentMoves   []Move           `json:"recent_moves"`   // the last moveLogSize moves, oldest first
	// Physical lists each table's physical partitions (Cosmos DB).
	Physical []PhysicalState `json:"physical,omitempty"`
}

// PhysicalState is one physical partition of a table under Cosmos DB.
type PhysicalState struct {
	Table     string  `json:"table"`
	Partition int     `json:"partition"`
	RUPerSec  float64 `json:"ru_per_sec"` // served over the last second
	Target    float64 `json:"target"`     // its share of the table's RU/s
}

// ServerState is one partition server.
type ServerState struct {
	Server         int     `json:"server"`
	EntitiesPerSec float64 `json:"entities_per_sec"` // served over the last second
	OfferedPerSec  float64 `json:"offered_per_sec"`  // asked of it, refused or not
	Target         float64 `json:"target"`
	// HotForSeconds is how long it has been over its target (0 if not).
	HotForSeconds float64 `json:"hot_for_s"`
	MovedIn       int64   `json:"moved_in"`
	MovedOut      int64   `json:"moved_out"`
}

// PartitionState is one partition.
type PartitionState struct {
	Table          string    `json:"table"`
	PartitionKey   string    `json:"partition_key"`
	Server         int       `json:"server"`
	EntitiesPerSec float64   `json:"entities_per_sec"`
	HotForSeconds  float64   `json:"hot_for_s,omitempty"`
	OfflineUntil   time.Time `json:"offline_until,omitzero"`
}

// RangeState is one end range partition of a table.
type RangeState struct {
	Table          string    `json:"table"`
	End            string    `json:"end"` // "first" (prepend-only) or "last" (append-only)
	EntitiesPerSec float64   `json:"entities_per_sec"`
	HotForSeconds  float64   `json:"hot_for_s,omitempty"`
	Splits         int64     `json:"splits"`
	OfflineUntil   time.Time `json:"offline_until,omitzero"`
}

// Move is one load-balancing action.
type Move struct {
	At   time.Time `json:"at"`
	Kind string    `json:"kind"` // "partition" (hot partition), "server" (hot server) or "range" (end range split)
	// Table and PartitionKey name the moved partition; End the split range.
	Table        string    `json:"table"`
	PartitionKey string    `json:"partition_key,omitempty"`
	End          string    `json:"end,omitempty"`
	From         int       `json:"from"` // servers; -1 for a range split
	To           int       `json:"to"`
	OfflineUntil time.Time `json:"offline_until"`
}

const (
	maxListed   = 10
	moveLogSize = 32
)

// moveLog keeps the last moveLogSize moves. Safe for concurrent use; its
// lock is taken last, under any other.
type moveLog struct {
	mu   sync.Mutex
	ring [moveLogSize]Move
	n    int
}

func (l *moveLog) add(mv Move) {
	l.mu.Lock()
	l.ring[l.n%moveLogSize] = mv
	l.n++
	l.mu.Unlock()
}

func (l *moveLog) list() []Move {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := []Move{}
	for i := max(0, l.n-moveLogSize); i < l.n; i++ {
		out = append(out, l.ring[i%moveLogSize])
	}
	return out
}

// unit is what the model's rates count.
func (m *Model) unit() string {
	if m.cfg.Kind == Cosmos {
		return "RU"
	}
	return "entities"
}

// State returns a snapshot. It locks one shard, server or table at a time,
// so it never stalls requests for long, and the snapshot is not atomic
// across them.
func (m *Model) State() State {
	now := m.clock()
	st := State{Enabled: m.cfg.Enabled, Paused: m.paused.Load(), Config: m.cfg.String(), Unit: m.unit(),
		RefusedBy: map[string]int64{}, Timeouts: m.refusals.timeouts.Load(), Moves: m.moves.Load(),
		Servers: []ServerState{}, HotPartitions: []PartitionState{}, Offline: []PartitionState{},
		Ranges: []RangeState{}, RecentMoves: m.log.list()}
	for i, name := range reasonNames {
		n := m.refusals.by[i].Load()
		st.RefusedBy[name] = n
		st.Refusals += n
	}
	for i := range m.servers {
		s := &m.servers[i]
		s.mu.Lock()
		st.Servers = append(st.Servers, ServerState{Server: i, EntitiesPerSec: s.served.rate(now), OfferedPerSec: s.offered.rate(now),
			Target: m.cfg.ServerTarget, HotForSeconds: s.hot.length(now).Seconds(), MovedIn: s.movedIn, MovedOut: s.movedOut})
		s.mu.Unlock()
	}
	for i := range m.shards {
		m.snapshotShard(&m.shards[i], now, &st)
	}
	sort.Slice(st.Offline, func(i, j int) bool { return st.Offline[i].OfflineUntil.Before(st.Offline[j].OfflineUntil) })
	m.tables.each(func(table string, t *tableRanges) {
		for i := range t.phys {
			ph := &t.phys[i]
			ph.mu.Lock()
			st.Physical = append(st.Physical, PhysicalState{Table: table, Partition: i, RUPerSec: ph.served.rate(now), Target: m.physicalRU()})
			ph.mu.Unlock()
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		for end, e := range t.ends {
			rs := RangeState{Table: table, End: endNames[end], EntitiesPerSec: e.served.rate(now), HotForSeconds: e.hot.length(now).Seconds(), Splits: e.splits}
			if now < e.offline {
				rs.OfflineUntil = m.at(e.offline)
			}
			if rs.EntitiesPerSec > 0 || rs.HotForSeconds > 0 || rs.Splits > 0 {
				st.Ranges = append(st.Ranges, rs)
			}
		}
	})
	sort.Slice(st.Physical, func(i, j int) bool {
		a, b := st.Physical[i], st.Physical[j]
		return a.Table < b.Table || a.Table == b.Table && a.Partition < b.Partition
	})
	sort.Slice(st.Ranges, func(i, j int) bool {
		a, b := st.Ranges[i], st.Ranges[j]
		return a.Table < b.Table || a.Table == b.Table && a.End < b.End
	})
	return st
}

// snapshotShard adds one shard's partitions to st: its count, its busiest
// (kept sorted, busiest first, at most maxListed) and those offline.
func (m *Model) snapshotShard(sh *shard, now int64, st *State) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	st.Partitions += len(sh.parts)
	for k, p := range sh.parts {
		ps := PartitionState{Table: k.table, PartitionKey: k.pk, Server: int(p.server), EntitiesPerSec: p.m.rate(now), HotForSeconds: p.hot.length(now).Seconds()}
		if now < p.offline {
			ps.OfflineUntil = m.at(p.offline)
			if len(st.Offline) < maxListed {
				st.Offline = append(st.Offline, ps)
			}
		}
		hot := st.HotPartitions
		if ps.EntitiesPerSec <= 0 || len(hot) == maxListed && ps.EntitiesPerSec <= hot[len(hot)-1].EntitiesPerSec {
			continue
		}
		i, _ := slices.BinarySearchFunc(hot, ps.EntitiesPerSec, func(e PartitionState, r float64) int { return compareDesc(e.EntitiesPerSec, r) })
		hot = slices.Insert(hot, i, ps)
		st.HotPartitions = hot[:min(len(hot), maxListed)]
	}
}
