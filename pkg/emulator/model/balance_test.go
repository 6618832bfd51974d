package model

import (
	"fmt"
	"testing"
	"time"
)

// checkOffline fails unless every request after mv.At (the request that
// triggered the move) and before mv.OfflineUntil that pick selects was
// answered 503 ServerBusy, and returns how many there were.
func checkOffline(t *testing.T, c *fakeClock, outs []outcome, mv Move, pick func(i int) bool) int {
	t.Helper()
	from, to := mv.At.Sub(c.base), mv.OfflineUntil.Sub(c.base)
	n := 0
	for i, o := range outs {
		if o.at > from && o.at < to && pick(i) {
			n++
			if !isBusy(o.d) {
				t.Fatalf("request %d at %v, offline from %v to %v: %+v, want 503 ServerBusy", i, o.at, from, to, o.d)
			}
		}
	}
	return n
}

// A single PartitionKey over its target for BalanceDelay moves to another
// server, answers 503 ServerBusy for MoveOffline, then serves again at the
// same 2,000 entities/s: one partition is one server's.
func TestHotPartitionMovesAndRecovers(t *testing.T) {
	c := newClock()
	cfg := Default()
	cfg.BalanceDelay, cfg.MoveOffline = 5*time.Second, 2*time.Second
	m := New(cfg, c.now)
	home := m.ServerOf("t", "hot")
	outs := run(m, c, 4000, 12*time.Second, one("hot", 1))
	st := m.State()
	if st.Moves != 1 || len(st.RecentMoves) != 1 {
		t.Fatalf("%d moves %+v, want one in 12 s (refusals from 0.1 s, move at 5.1 s, next at 12.2 s)", st.Moves, st.RecentMoves)
	}
	mv := st.RecentMoves[0]
	at := mv.At.Sub(c.base)
	if mv.Kind != "partition" || mv.PartitionKey != "hot" || mv.From != home || mv.To == home || m.ServerOf("t", "hot") != mv.To {
		t.Errorf("move %+v from home server %d, now on %d: want it moved off its home server", mv, home, m.ServerOf("t", "hot"))
	}
	if at < 5*time.Second || at > 5200*time.Millisecond || mv.OfflineUntil.Sub(mv.At) != 2*time.Second {
		t.Errorf("moved at %v, offline until %v: want at about 5.1 s for 2 s", at, mv.OfflineUntil.Sub(c.base))
	}
	if n := checkOffline(t, c, outs, mv, func(int) bool { return true }); n != 7999 || st.RefusedBy["offline"] != int64(n) {
		t.Errorf("%d requests while offline, %d counted offline: want 2 s at 4,000/s after the one that triggered the move", n, st.RefusedBy["offline"])
	}
	// Before and after the move: the partition target, never more.
	before, after := perSecond(outs, 0, 5), perSecond(outs, at+2*time.Second, 4)
	for s, n := range append(before[1:], after[1:]...) {
		within(t, fmt.Sprintf("second %d of those around the move", s), float64(n), 2000, 1)
	}
	if after[0] > 2200 {
		t.Errorf("first second after the move: %d, over the target with its burst", after[0])
	}
}

// A server over its target for BalanceDelay moves its hottest partition to
// the least-loaded server; the moved partition answers 503 ServerBusy while
// offline, then every partition is served in full.
func TestHotServerMovesHottestPartition(t *testing.T) {
	c := newClock()
	cfg := Default()
	cfg.Servers, cfg.ServerTarget = 4, 3000
	cfg.BalanceDelay, cfg.MoveOffline = 2*time.Second, time.Second
	m := New(cfg, c.now)
	keys := keysOnServer(m, 0, 3)
	busy := keysOnServer(m, 1, 1)[0] // keeps server 1 loaded: 2 and 3 are idle
	// Per 10 requests: 4 to keys[0], 3 to keys[1], 2 to keys[2], 1 to busy.
	// At 4,000/s: 1,600 + 1,200 + 800 = 3,600 on server 0 (target 3,000),
	// each partition under its own 2,000.
	pattern := []int{0, 1, 2, 0, 1, 3, 0, 1, 2, 0}
	pick := func(i int) string {
		if p := pattern[i%10]; p < 3 {
			return keys[p]
		}
		return busy
	}
	outs := run(m, c, 4000, 8*time.Second, func(i int) Request { return Request{Table: "t", Partition: pick(i), Entities: 1} })
	st := m.State()
	if st.Moves != 1 || len(st.RecentMoves) != 1 {
		t.Fatalf("%d moves %+v, want exactly one", st.Moves, st.RecentMoves)
	}
	mv := st.RecentMoves[0]
	// Excess 600/s: moving the hottest (about 1,300/s served) is enough.
	if mv.Kind != "server" || mv.PartitionKey != keys[0] || mv.From != 0 || mv.To != 2 {
		t.Errorf("move %+v: want %s moved by server 0's balancing to server 2 (least loaded, lowest index)", mv, keys[0])
	}
	if at := mv.At.Sub(c.base); at < 2*time.Second || at > 2500*time.Millisecond {
		t.Errorf("balanced at %v, want after 2 s over target", at)
	}
	if n := checkOffline(t, c, outs, mv, func(i int) bool { return pick(i) == keys[0] }); n < 1599 || n > 1600 || st.RefusedBy["offline"] != int64(n) {
		t.Errorf("%d requests to the moved partition while offline, %d counted offline: want 1 s at 1,600/s", n, st.RefusedBy["offline"])
	}
	// After the move, nothing is over any target: no refusal at all.
	settled := mv.OfflineUntil.Sub(c.base) + 100*time.Millisecond
	for i, o := range outs {
		if o.at >= settled && !o.d.Allow {
			t.Fatalf("request %d to %s at %v refused after balancing: %+v", i, pick(i), o.at, o.d)
		}
	}
	if s := st.Servers; s[0].MovedOut != 1 || s[2].MovedIn != 1 || m.ServerOf("t", keys[0]) != 2 {
		t.Errorf("servers %+v: want one move from 0 to 2", s)
	}
}

// Over target for less than BalanceDelay, nothing moves: not a partition,
// not a server, not a range.
func TestNoBalancingBeforeDelay(t *testing.T) {
	tests := []struct {
		name string
		req  func(i int) Request
	}{
		{"hot partition", one("hot", 1)},
		{"hot server", func(i int) Request { return Request{Table: "t", Partition: fmt.Sprint(i % 8), Entities: 1} }},
		{"hot end range", func(i int) Request {
			return Request{Table: "t", Partition: string(rune('a'+i%26)) + "x", Entities: 1, Extends: +1}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			cfg := Default()
			cfg.Servers, cfg.BalanceDelay = 1, 3*time.Second // one server: every partition shares it
			m := New(cfg, c.now)
			// Over target for 2.9 s, then quiet for 2 s, then over again for 2.9 s.
			run(m, c, 14000, 2900*time.Millisecond, tt.req)
			c.add(2 * time.Second)
			run(m, c, 14000, 2900*time.Millisecond, tt.req)
			if st := m.State(); st.Moves != 0 || st.Refusals == 0 {
				t.Errorf("%d moves, %d refusals: want refusals but no move", st.Moves, st.Refusals)
			}
		})
	}
}
