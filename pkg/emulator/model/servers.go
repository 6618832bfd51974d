package model

import (
	"slices"
	"sync"
)

// topK is how many of its hottest partitions a server keeps track of: the
// candidates load balancing moves.
const topK = 4

// candidate is one of a server's hottest recent partitions.
type candidate struct {
	key  partKey
	h    uint64
	rate float64 // entities/s when last seen
	at   int64   // when last seen
}

// server is one partition server. Guarded by mu, which is taken after a
// shard's mutex and never together with another server's.
type server struct {
	mu        sync.Mutex
	b         bucket // the server target
	served    meter  // entities admitted and charged
	offered   meter  // entities asked of it, admitted or not
	hot       streak // refusals by the server bucket
	top       [topK]candidate
	balancing bool // a rebalance of this server is under way
	movedIn   int64
	movedOut  int64
}

// note records that partition key, at rate entities/s, was just served:
// it joins the server's hottest partitions if it is among them. The caller
// holds s.mu.
func (s *server) note(key partKey, h uint64, rate float64, now int64) {
	coldest, coldRate := 0, rate
	for i := range s.top {
		c := &s.top[i]
		if c.h == h && c.key == key {
			c.rate, c.at = rate, now
			return
		}
		if r := c.current(now); r < coldRate {
			coldest, coldRate = i, r
		}
	}
	if coldRate < rate {
		s.top[coldest] = candidate{key: key, h: h, rate: rate, at: now}
	}
}

// current returns the candidate's rate, 0 once it has not been seen for a
// second (or for an empty slot).
func (c *candidate) current(now int64) float64 {
	if now-c.at > second {
		return 0
	}
	return c.rate
}

// leastLoaded returns the server with the least offered load, other than
// exclude (unless it is the only one), counting extra, the load already
// decided to move to each server. It locks each server in turn.
func (m *Model) leastLoaded(exclude int32, extra []float64, now int64) int32 {
	best, bestLoad := exclude, 0.0
	for i := range m.servers {
		if int32(i) == exclude {
			continue
		}
		s := &m.servers[i]
		s.mu.Lock()
		load := s.offered.rate(now)
		s.mu.Unlock()
		if extra != nil {
			load += extra[i]
		}
		if best == exclude || load < bestLoad {
			best, bestLoad = int32(i), load
		}
	}
	return best
}

// rebalance is load balancing of server src, which has been over its
// target for BalanceDelay: its hottest partitions move, hottest first, to
// the least-loaded servers until what moved covers the excess of offered
// load over the target (at least one moves). Each moved partition is
// offline for MoveOffline. Called with no lock held, by the request that
// found the server hot (which set src.balancing).
func (m *Model) rebalance(src int32, now int64) {
	s := &m.servers[src]
	s.mu.Lock()
	excess := s.offered.rate(now) - m.cfg.ServerTarget
	var cands []candidate
	for _, c := range s.top {
		if c.current(now) > 0 {
			cands = append(cands, c)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(cands, func(a, b candidate) int { return compareDesc(a.rate, b.rate) })
	extra := make([]float64, len(m.servers))
	moved := 0.0
	var gone []partKey
	for _, c := range cands {
		if moved > 0 && moved >= excess {
			break
		}
		dst := m.leastLoaded(src, extra, now)
		if !m.movePartition(c.key, c.h, src, dst, now, "server") {
			continue
		}
		extra[dst] += c.rate
		moved += c.rate
		gone = append(gone, c.key)
	}
	s.mu.Lock()
	for i := range s.top {
		if slices.Contains(gone, s.top[i].key) {
			s.top[i] = candidate{}
		}
	}
	s.hot, s.balancing = noStreak(), false
	s.mu.Unlock()
}

// movePartition moves a partition from server src to dst and takes it
// offline for MoveOffline, if it is still tracked and on src. It locks the
// partition's shard and then each server in turn.
func (m *Model) movePartition(key partKey, h uint64, src, dst int32, now int64, why string) bool {
	sh := m.shardOf(h)
	sh.mu.Lock()
	p := sh.parts[key]
	if p == nil || p.server != src {
		sh.mu.Unlock()
		return false
	}
	m.moveLocked(sh, key, p, dst, now, why)
	sh.mu.Unlock()
	return true
}

// moveLocked moves partition p to server dst, takes it offline for
// MoveOffline and records the move. The caller holds sh.mu (and no server
// lock).
func (m *Model) moveLocked(sh *shard, key partKey, p *part, dst int32, now int64, why string) {
	src, until := p.server, now+int64(m.cfg.MoveOffline)
	sh.place(key, p, dst, until)
	m.moves.Add(1)
	m.countMove(src, dst)
	m.log.add(Move{At: m.at(now), Kind: why, Table: key.table, PartitionKey: key.pk, From: int(src), To: int(dst), OfflineUntil: m.at(until)})
}

// countMove updates the servers' move counters, one lock at a time.
func (m *Model) countMove(src, dst int32) {
	m.servers[src].mu.Lock()
	m.servers[src].movedOut++
	m.servers[src].mu.Unlock()
	m.servers[dst].mu.Lock()
	m.servers[dst].movedIn++
	m.servers[dst].mu.Unlock()
}

func compareDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
