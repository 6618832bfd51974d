package model

import (
	"fmt"
	"testing"
	"time"
)

// One PartitionKey offered three times its target is served at the target,
// whether the entities come one by one, as point reads or in transactions;
// the first second adds the bucket's 0.1 s burst (2,200, less the one
// request the spacing of requests may push past the second).
func TestPartitionTarget(t *testing.T) {
	tests := []struct {
		name     string
		rate     int // requests per second
		entities int // per request
		write    bool
	}{
		{"single inserts at 6,000/s", 6000, 1, true},
		{"point reads at 6,000/s", 6000, 1, false},
		{"transactions of 100 at 60/s", 60, 100, true},
		{"transactions of 20 at 300/s", 300, 20, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			m := New(testConfig(), c.now)
			outs := run(m, c, tt.rate, 10*time.Second, func(int) Request {
				return Request{Table: "t", Partition: "Orders", Entities: tt.entities, Write: tt.write}
			})
			per := perSecond(outs, 0, 10)
			if per[0] > 2200 || per[0] < 2200-tt.entities {
				t.Errorf("first second: %d admitted, want 2,200 less at most one request of %d", per[0], tt.entities)
			}
			for s, n := range per[1:] {
				within(t, fmt.Sprintf("second %d", s+1), float64(n), 2000, float64(tt.entities))
			}
			if st := m.State(); st.RefusedBy["partition"] == 0 || st.RefusedBy["server"] != 0 || st.Moves != 0 {
				t.Errorf("refused by %v, %d moves: want refusals by the partition only", st.RefusedBy, st.Moves)
			}
		})
	}
}

// A client measuring any one-second interval (not only aligned ones) sees
// the target, plus at most the bucket's 0.1 s burst in the intervals that
// begin within the first 0.1 s, and the target ± one request after.
func TestSlidingSecondPeaks(t *testing.T) {
	c := newClock()
	m := New(testConfig(), c.now)
	outs := run(m, c, 6000, 6*time.Second, one("hot", 1))
	for from := 0 * time.Millisecond; from <= 5*time.Second; from += 10 * time.Millisecond {
		n := perSecond(outs, from, 1)[0]
		lo, hi := 1999, 2001
		if from < 100*time.Millisecond {
			lo, hi = 2000, 2200
		}
		if n < lo || n > hi {
			t.Fatalf("the second from %v: %d admitted, want %d to %d", from, n, lo, hi)
		}
	}
}

// Sixteen PartitionKeys sharing 6,000 entities/s (375 each) are all served.
func TestSpreadPartitionsNotThrottled(t *testing.T) {
	c := newClock()
	m := New(testConfig(), c.now)
	outs := run(m, c, 6000, 5*time.Second, func(i int) Request {
		return Request{Table: "t", Partition: fmt.Sprintf("bucket-%02d", i%16), Entities: 1, Write: true}
	})
	admitted := 0
	for _, o := range outs {
		if o.d.Allow {
			admitted++
		}
	}
	if admitted != len(outs) || len(outs) < 29_990 {
		t.Errorf("%d of %d admitted, want all (%+v)", admitted, len(outs), m.State().RefusedBy)
	}
}

// A query is admitted on a partition not in debt and billed afterwards; the
// debt refuses later requests (queries included) until the bucket refills
// at 2,000/s.
func TestChargePutsBucketInDebt(t *testing.T) {
	c := newClock()
	m := New(testConfig(), c.now)
	query := Request{Table: "t", Partition: "p"}
	read := Request{Table: "t", Partition: "p", Entities: 1}
	if !m.Admit(query).Allow {
		t.Fatal("a query on an idle partition must be admitted")
	}
	m.ChargePage("t", []Visit{{Partition: "p", Visited: 3000, Returned: 3000}}) // the full bucket held 200: 2,800 of debt
	if m.Admit(read).Allow || m.Admit(query).Allow {
		t.Fatal("a partition in debt must refuse reads and queries")
	}
	// The debt of 2,800 is repaid after 1.4 s; a read needs one token more
	// (0.5 ms at 2,000/s).
	c.add(1400 * time.Millisecond)
	if m.Admit(read).Allow {
		t.Error("admitted a read at 1.4 s with no token yet")
	}
	if !m.Admit(query).Allow {
		t.Error("a query must be admitted once the debt is repaid")
	}
	c.add(time.Millisecond)
	if !m.Admit(read).Allow {
		t.Error("a read must be admitted once a token is back")
	}
	// Another partition is not affected, and a request spanning partitions
	// is limited by the account target only.
	if !m.Admit(Request{Table: "t", Partition: "q", Entities: 1}).Allow || !m.Admit(Request{Table: "t"}).Allow {
		t.Error("debt leaked to other partitions")
	}
}

// Off admits everything and Charge does nothing; a paused model likewise,
// and it judges again once resumed.
func TestOffAndPaused(t *testing.T) {
	c := newClock()
	off := New(Off(), c.now)
	for range 100_000 {
		off.ChargePage("t", []Visit{{Partition: "p", Visited: 1000, Returned: 1000}})
		if !off.Admit(Request{Table: "t", Partition: "p", Entities: 100, Extends: 1}).Allow {
			t.Fatal("the model is off")
		}
	}
	if st := off.State(); st.Enabled || st.Partitions != 0 || st.Refusals != 0 {
		t.Errorf("off: %+v", st)
	}
	m := New(testConfig(), c.now)
	m.SetPaused(true)
	for range 10_000 {
		if !m.Admit(Request{Table: "t", Partition: "p", Entities: 1}).Allow {
			t.Fatal("the model is paused")
		}
	}
	m.SetPaused(false)
	admitted := 0
	for range 1000 {
		if m.Admit(Request{Table: "t", Partition: "p", Entities: 1}).Allow {
			admitted++
		}
	}
	if admitted != 200 { // a full bucket: 0.1 s of 2,000/s, nothing charged while paused
		t.Errorf("after resuming, %d admitted at one instant, want the bucket's 200", admitted)
	}
}
