package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// State lists the busiest partitions busiest first (ten at most), every
// server, and what is offline, and encodes to JSON.
func TestState(t *testing.T) {
	c := newClock()
	cfg := testConfig()
	cfg.BalanceDelay, cfg.MoveOffline = time.Second, 5*time.Second
	m := New(cfg, c.now)
	// Half the requests go to "hot", 4,000/s: over target, moved after
	// 1.1 s and offline for 5 s. Of the other half, partition p<k> gets
	// k+1 of every 78 (k = 0..11), all under target.
	weights := []int{}
	for k := range 12 {
		for range k + 1 {
			weights = append(weights, k)
		}
	}
	run(m, c, 8000, 1500*time.Millisecond, func(i int) Request {
		if i%2 == 0 {
			return Request{Table: "t", Partition: "hot", Entities: 1}
		}
		return Request{Table: "t", Partition: fmt.Sprintf("p%02d", weights[i/2%len(weights)]), Entities: 1}
	})
	st := m.State()
	if len(st.HotPartitions) != maxListed {
		t.Fatalf("%d hot partitions listed, want %d", len(st.HotPartitions), maxListed)
	}
	for i, p := range st.HotPartitions {
		// "hot" served 2,000/s until it moved 0.4 s ago: still the busiest.
		want := "hot"
		if i > 0 {
			want = fmt.Sprintf("p%02d", 12-i)
		}
		if p.PartitionKey != want {
			t.Errorf("hot partition %d is %s (%.0f/s), want %s", i, p.PartitionKey, p.EntitiesPerSec, want)
		}
	}
	if len(st.Servers) != cfg.Servers || len(st.Offline) != 1 || st.Offline[0].PartitionKey != "hot" || st.Offline[0].OfflineUntil.IsZero() {
		t.Errorf("%d servers, offline %+v: want %d servers and hot offline", len(st.Servers), st.Offline, cfg.Servers)
	}
	if st.Partitions != 13 || st.Moves != 1 || len(st.RecentMoves) != 1 || st.Config != "azure,balance=1s,offline=5s" {
		t.Errorf("state %+v", st)
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"hot_partitions":[{"table":"t","partition_key":"hot"`, `"offline_until":"2026-01-01T00:00:0`, `"recent_moves":[{"at":`, `"refused_by":{`, `"servers":[{"server":0`} {
		if !strings.Contains(string(data), field) {
			t.Errorf("JSON lacks %s: %s", field, data)
		}
	}
}

// The move log keeps the last moveLogSize moves, oldest first.
func TestMoveLogKeepsTheLast(t *testing.T) {
	var l moveLog
	for i := range moveLogSize + 5 {
		l.add(Move{From: i})
	}
	got := l.list()
	if len(got) != moveLogSize || got[0].From != 5 || got[len(got)-1].From != moveLogSize+4 {
		t.Errorf("%d moves from %d to %d, want %d from 5", len(got), got[0].From, got[len(got)-1].From, moveLogSize)
	}
}
