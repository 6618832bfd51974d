package model

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// tracked returns whether the model holds state for a partition.
func tracked(m *Model, table, pk string) bool {
	sh := m.shardOf(partHash(table, pk))
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.parts[partKey{table, pk}] != nil
}

// A run touching 1,000,000 partitions at 20,000 requests/s holds state for
// the last few seconds' partitions only.
func TestMemoryBoundedOverAMillionPartitions(t *testing.T) {
	const total, rate = 1_000_000, 20_000
	c := newClock()
	m := New(testConfig(), c.now)
	peak := 0
	for i := range total {
		if d := m.Admit(Request{Table: "t", Partition: fmt.Sprintf("device-%07d", i), Entities: 1, Write: true}); !d.Allow {
			t.Fatalf("request %d refused: each partition gets one entity; %+v %+v", i, d, m.State())
		}
		c.add(time.Second / rate)
		if i%100_000 == 0 {
			peak = max(peak, m.State().Partitions)
		}
	}
	// A partition is evictable 1 s (its meter window) plus idleAfter after
	// its last entity; each shard sweeps at most every idleAfter.
	bound := rate * int((2*idleAfter+time.Second)/time.Second)
	if st := m.State(); st.Partitions > bound || peak > bound {
		t.Errorf("%d partitions tracked at the end, %d at the peak, of %d touched: want at most %d", st.Partitions, peak, total, bound)
	}
}

// Evicted state is exactly new state: a partition hammered and then left
// idle is forgotten, and afterwards admits a full bucket, like a new one. A
// moved partition stays on its new server after its state is evicted.
func TestEvictionKeepsSemantics(t *testing.T) {
	c := newClock()
	cfg := testConfig()
	cfg.BalanceDelay, cfg.MoveOffline = time.Second, time.Second
	cfg.AccountTarget = 1e9 // the sweeping requests below come at one instant
	m := New(cfg, c.now)
	run(m, c, 4000, 2*time.Second, one("hot", 1)) // over target: moved at about 1.1 s
	moved := m.ServerOf("t", "hot")
	if st := m.State(); st.Moves != 1 || moved == int(homeServer(partHash("t", "hot"), cfg.Servers)) {
		t.Fatalf("%d moves, on server %d: want one move off the home server", st.Moves, moved)
	}
	c.add(10 * time.Second)
	// New partitions in every shard make each sweep.
	for i := 0; i < 20*numShards; i++ {
		m.Admit(Request{Table: "t", Partition: fmt.Sprintf("other-%d", i), Entities: 1})
	}
	if tracked(m, "t", "hot") {
		t.Fatal("an idle partition's state was kept")
	}
	if m.ServerOf("t", "hot") != moved {
		t.Errorf("after eviction on server %d, want %d where it was moved", m.ServerOf("t", "hot"), moved)
	}
	admitted := 0
	for range 1000 {
		if m.Admit(Request{Table: "t", Partition: "hot", Entities: 1}).Allow {
			admitted++
		}
	}
	if admitted != 200 || m.ServerOf("t", "hot") != moved {
		t.Errorf("%d admitted at one instant on server %d, want a full bucket of 200 on %d", admitted, m.ServerOf("t", "hot"), moved)
	}
}

// A partition in debt, offline or recently refused is never evicted, however
// many sweeps pass.
func TestBusyStateNotEvicted(t *testing.T) {
	c := newClock()
	cfg := testConfig()
	cfg.AccountTarget = 1e9
	m := New(cfg, c.now)
	m.ChargePage("t", []Visit{{Partition: "debtor", Visited: 30_000, Returned: 30_000}}) // 15 s of debt
	c.add(8 * time.Second)
	for i := 0; i < 20*numShards; i++ {
		m.Admit(Request{Table: "t", Partition: fmt.Sprintf("other-%d", i), Entities: 1})
	}
	if !tracked(m, "t", "debtor") {
		t.Fatal("a partition in debt was evicted")
	}
	if m.Admit(Request{Table: "t", Partition: "debtor", Entities: 1}).Allow {
		t.Error("the debt was forgotten")
	}
}

// Home servers and shards are spread evenly, even for keys that differ in
// one character: each of k bins gets n/k ± 5 standard deviations.
func TestPlacementIsEven(t *testing.T) {
	const n = 160_000
	tests := []struct {
		name  string
		key   func(i int) string
		bins  int
		binOf func(h uint64) int
	}{
		{"servers, sequential keys", func(i int) string { return fmt.Sprintf("device-%07d", i) }, 16, func(h uint64) int { return int(homeServer(h, 16)) }},
		{"servers, date keys", func(i int) string { return fmt.Sprintf("2026-01-%02d_%05d", i%28+1, i/28) }, 16, func(h uint64) int { return int(homeServer(h, 16)) }},
		{"shards, sequential keys", func(i int) string { return fmt.Sprint(i) }, numShards, func(h uint64) int { return int(h & (numShards - 1)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			count := make([]int, tt.bins)
			for i := range n {
				count[tt.binOf(partHash("t", tt.key(i)))]++
			}
			p := 1 / float64(tt.bins)
			mean, sd := n*p, math.Sqrt(n*p*(1-p))
			for b, c := range count {
				if math.Abs(float64(c)-mean) > 5*sd {
					t.Errorf("bin %d: %d keys, want %.0f ± %.0f", b, c, mean, 5*sd)
				}
			}
		})
	}
}
