package model

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hammer runs f(g, i) for i < perG on each of g goroutines and returns how
// many calls returned true.
func hammer(goroutines, perG int, f func(g, i int) bool) int64 {
	var n atomic.Int64
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range perG {
				if f(g, i) {
					n.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return n.Load()
}

// With the clock stopped, concurrent requests get exactly what the buckets
// hold: never a token twice, never one lost.
func TestConcurrentAdmitsExact(t *testing.T) {
	tests := []struct {
		name string
		req  func(g, i int) Request
		want int64
	}{
		// One partition: its bucket of 200.
		{"one partition", func(g, i int) Request { return Request{Table: "t", Partition: "p", Entities: 1} }, 200},
		// Transactions of 50: four fit in the bucket.
		{"transactions", func(g, i int) Request { return Request{Table: "t", Partition: "p", Entities: 50} }, 4},
		// Spanning queries: the account's 0.1 s of 20,000 requests/s.
		{"account", func(g, i int) Request { return Request{Table: "t"} }, 2000},
		// One end range over many partitions: its bucket of 200.
		{"end range", func(g, i int) Request {
			return Request{Table: "t", Partition: fmt.Sprintf("%d-%d", g, i), Entities: 1, Extends: +1}
		}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(testConfig(), newClock().now)
			got := hammer(8, 1000, func(g, i int) bool { return m.Admit(tt.req(g, i)).Allow })
			if got != tt.want {
				t.Errorf("%d admitted, want exactly %d", got, tt.want)
			}
			if st := m.State(); st.Refusals != 8000-tt.want {
				t.Errorf("%d refusals counted, want %d", st.Refusals, 8000-tt.want)
			}
		})
	}
}

// Everything at once, with the clock moving and load balancing acting:
// Admit, Charge, State and ServerOf from many goroutines neither race nor
// deadlock (run with -race), and one partition still never serves more
// than its target allows.
func TestConcurrentEverything(t *testing.T) {
	c := newClock()
	cfg := Default()
	cfg.Servers, cfg.ServerTarget, cfg.BalanceDelay, cfg.MoveOffline = 2, 3000, 50*time.Millisecond, 20*time.Millisecond
	cfg.AccountTarget = 1e9
	m := New(cfg, c.now)
	var hot atomic.Int64
	hammer(8, 20_000, func(g, i int) bool {
		c.add(50 * time.Microsecond) // 160,000 ticks in all: 8 s
		switch {
		case g == 1 && i%1000 == 0:
			m.State()
		case g == 2 && i%10 == 0:
			m.ChargePage("t", []Visit{{Partition: fmt.Sprint(i % 7), Visited: 1, Returned: 1}})
		case g == 3:
			m.Admit(Request{Table: "t", Partition: fmt.Sprintf("%08d", i), Entities: 1, Extends: +1})
		case g == 4:
			m.ServerOf("t", fmt.Sprint(i%7))
		default:
			if m.Admit(Request{Table: "t", Partition: "hot", Entities: 1}).Allow {
				hot.Add(1)
			}
			m.Admit(Request{Table: "t", Partition: fmt.Sprint(i % 7), Entities: 1})
		}
		return false
	})
	// 8 s of clock at most: 200 + 8 · 2,000 entities. (How many were
	// admitted depends on how the goroutines were scheduled.)
	if n := hot.Load(); n > 200+8*2000 {
		t.Errorf("%d admitted to one partition in 8 s of clock", n)
	}
	if st := m.State(); st.Moves == 0 {
		t.Errorf("no load balancing under sustained overload: %+v", st.RefusedBy)
	}
}

// Under Cosmos DB, with the clock stopped, concurrent 1 KB inserts over
// many keys get exactly the physical partition's bucket (400 RU at 4,000
// RU/s: 80 of 4.95 RU), while pages are charged, and State and Peaks are
// read, from other goroutines (run with -race).
func TestConcurrentCosmos(t *testing.T) {
	m := New(cosmosConfig(4000), newClock().now)
	got := hammer(8, 1000, func(g, i int) bool {
		switch g {
		case 6:
			if i%100 == 0 {
				m.State()
				m.Peaks("t")
			}
			return false
		case 7:
			m.ChargePage("u", []Visit{{Partition: fmt.Sprint(i % 5), Visited: 1}})
			return false
		}
		return m.Admit(Request{Table: "t", Partition: fmt.Sprint(g, "-", i), Op: OpWrite, Entities: 1, Bytes: 1000}).Allow
	})
	if got != 80 {
		t.Errorf("%d admitted, want exactly 80", got)
	}
}
