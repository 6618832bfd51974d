package model

import (
	"fmt"
	"testing"
	"time"
)

// Inserts that each create a new PartitionKey at an end of the table all
// land in that end's range partition, capped near 2,000 entities/s however
// many keys they create; the same rate of new keys scattered in the middle
// is not capped.
func TestEndRanges(t *testing.T) {
	tests := []struct {
		name   string
		req    func(i int) Request
		want   float64 // entities admitted per second (of 6,000 offered)
		reason string  // what refuses the rest
	}{
		{"append-only: ascending new keys", func(i int) Request {
			return Request{Table: "t", Partition: fmt.Sprintf("%010d", i), Entities: 1, Write: true, Extends: +1}
		}, 2000, "range"},
		{"prepend-only: descending new keys", func(i int) Request {
			return Request{Table: "t", Partition: fmt.Sprintf("%010d", 1_000_000_000-i), Entities: 1, Write: true, Extends: -1}
		}, 2000, "range"},
		{"both ends at once: each end has its own bucket", func(i int) Request {
			return Request{Table: "t", Partition: fmt.Sprintf("%d-%010d", i%2, i), Entities: 1, Write: true, Extends: 1 - 2*(i%2)}
		}, 4000, "range"},
		{"append-only in two tables: one end range each", func(i int) Request {
			return Request{Table: fmt.Sprintf("t%d", i%2), Partition: fmt.Sprintf("%010d", i), Entities: 1, Write: true, Extends: +1}
		}, 4000, "range"},
		{"scattered new keys", func(i int) Request {
			return Request{Table: "t", Partition: fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15), Entities: 1, Write: true}
		}, 6000, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			m := New(testConfig(), c.now)
			outs := run(m, c, 6000, 6*time.Second, tt.req)
			for s, n := range perSecond(outs, time.Second, 5) {
				within(t, fmt.Sprintf("second %d", s+1), float64(n), tt.want, 1)
			}
			st := m.State()
			if tt.reason == "" && st.Refusals != 0 {
				t.Errorf("refused %v, want none", st.RefusedBy)
			}
			if tt.reason != "" && (st.Refusals == 0 || st.RefusedBy[tt.reason] != st.Refusals) {
				t.Errorf("refused %v, want all by %s", st.RefusedBy, tt.reason)
			}
			if st.RefusedBy["partition"] != 0 {
				t.Errorf("no single partition is hot, yet %d refused by a partition", st.RefusedBy["partition"])
			}
		})
	}
}

// An append-only end range over its target for BalanceDelay splits: it is
// offline (503 ServerBusy) for MoveOffline, and hot again afterwards since
// new keys keep landing at the end, so it splits again and again.
func TestAppendOnlyRangeStaysHotAfterSplit(t *testing.T) {
	c := newClock()
	cfg := testConfig()
	cfg.BalanceDelay, cfg.MoveOffline = 2*time.Second, time.Second
	m := New(cfg, c.now)
	outs := run(m, c, 4000, 10*time.Second, func(i int) Request {
		return Request{Table: "t", Partition: fmt.Sprintf("%010d", i), Entities: 1, Write: true, Extends: +1}
	})
	st := m.State()
	// Offered 4,000/s against 2,000/s with 200 in the bucket: refusals from
	// 0.1 s on, a split at 2.1 s, offline to 3.1 s, the bucket full again,
	// refusals from 3.2 s, a split at 5.2 s, and one at 8.3 s.
	var splits []Move
	for _, mv := range st.RecentMoves {
		if mv.Kind == "range" && mv.End == "last" && mv.Table == "t" {
			splits = append(splits, mv)
		}
	}
	if len(splits) != 3 || st.Moves != 3 {
		t.Fatalf("%d splits (%d moves), want 3 in 10 s: %+v", len(splits), st.Moves, st.RecentMoves)
	}
	for _, sp := range splits {
		from, to := sp.At.Sub(c.base), sp.OfflineUntil.Sub(c.base)
		if to-from != time.Second {
			t.Errorf("split at %v offline until %v, want 1 s", from, to)
		}
		for _, o := range outs {
			if o.at >= from && o.at < to && !isBusy(o.d) {
				t.Fatalf("at %v, during the split from %v, got %+v, want 503 ServerBusy", o.at, from, o.d)
			}
		}
	}
	for from := 0 * time.Millisecond; from <= 9*time.Second; from += 50 * time.Millisecond {
		if n := perSecond(outs, from, 1)[0]; n > 2200 {
			t.Fatalf("the second from %v: %d admitted, over the range target", from, n)
		}
	}
	if r := st.Ranges; len(r) != 1 || r[0].End != "last" || r[0].Splits != 3 {
		t.Errorf("ranges %+v, want the last range of t with 3 splits", r)
	}
}
