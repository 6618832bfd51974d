package model

import (
	"fmt"
	"testing"
	"time"
)

// Sequential PartitionKeys (ending in six digits or more) share a range
// partition per hundred values; every other key is placed on its own.
func TestRangeKey(t *testing.T) {
	tests := []struct{ pk, want string }{
		{"0000001234", "00000012"},         // {i:010}, append-only
		{"9999998765", "99999987"},         // {desc_seq}, prepend-only
		{"dev-1738627200", "dev-17386272"}, // a Unix time after a prefix
		{"20250204", "202502"},             // a compact date
		{"dev-007", "dev-007"},             // a device id: three digits
		{"partition-015", "partition-015"}, // a hash bucket
		{"2025-02-04", "2025-02-04"},       // a dashed date: two digits at the end
		{"00001", "00001"},                 // five digits: not a sequence
		{"Orders", "Orders"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := rangeKey(tt.pk); got != tt.want {
			t.Errorf("rangeKey(%q) = %q, want %q", tt.pk, got, tt.want)
		}
	}
}

// A hundred consecutive sequential keys are served by one server (Place),
// so a PartitionKey range over them crosses no server boundary; the next
// hundreds, and scattered keys, are spread over the servers.
func TestSequentialKeysShareAServer(t *testing.T) {
	m := New(Default(), nil)
	for base := 0; base < 1000; base += 100 {
		first := m.Place("t", fmt.Sprintf("%010d", base))
		for i := base; i < base+100; i++ {
			if s := m.Place("t", fmt.Sprintf("%010d", i)); s != first {
				t.Fatalf("key %010d on server %d, %010d on %d: want one server per hundred", i, s, base, first)
			}
		}
	}
	servers := map[int]bool{}
	for h := range 64 {
		servers[m.Place("t", fmt.Sprintf("%08d00", h))] = true
	}
	if len(servers) < 12 {
		t.Errorf("64 hundreds of sequential keys on %d of 16 servers, want them spread", len(servers))
	}
	servers = map[int]bool{}
	for i := range 64 {
		servers[m.Place("t", fmt.Sprintf("dev-%03d", i))] = true
	}
	if len(servers) < 12 {
		t.Errorf("64 device keys on %d of 16 servers, want them spread", len(servers))
	}
}

// A query page is charged for every entity it visited, matched or not, to
// the partition and its server, or to the end range the partition lies
// in; the debt refuses what comes next there.
func TestChargePage(t *testing.T) {
	t.Run("partition and server", func(t *testing.T) {
		c := newClock()
		cfg := testConfig()
		cfg.Servers = 1
		m := New(cfg, c.now)
		// 900 visited to return 10: the partition's 200-token bucket owes
		// 700 (0.35 s at 2,000/s), the server's 1,000-token bucket nothing;
		// a read needs one token back: at 0.3505 s.
		m.ChargePage("t", []Visit{{Partition: "big", Visited: 900, Returned: 10}})
		if d := m.Admit(Request{Table: "t", Partition: "big", Op: OpRead, Entities: 1}); d.Allow {
			t.Errorf("a read of the scanned partition was admitted, want it refused while the partition is in debt")
		}
		if d := m.Admit(Request{Table: "t", Partition: "other", Op: OpRead, Entities: 1}); !d.Allow {
			t.Errorf("a read of another partition was refused: %+v", d)
		}
		c.add(350 * time.Millisecond)
		if d := m.Admit(Request{Table: "t", Partition: "big", Op: OpRead, Entities: 1}); d.Allow {
			t.Errorf("0.35 s later, a token short: %+v, want refused", d)
		}
		c.add(500 * time.Microsecond)
		if d := m.Admit(Request{Table: "t", Partition: "big", Op: OpRead, Entities: 1}); !d.Allow {
			t.Errorf("0.3505 s later, the debt paid: %+v, want admitted", d)
		}
		// 12,000 more over several partitions of the one server: its
		// bucket owes 11,000 tokens (1.1 s) and refuses the next write.
		var visits []Visit
		for i := range 12 {
			visits = append(visits, Visit{Partition: fmt.Sprint("p", i), Visited: 1000})
		}
		m.ChargePage("t", visits)
		if d := m.Admit(Request{Table: "t", Partition: "fresh", Op: OpWrite, Entities: 1}); d.Allow || m.State().RefusedBy["server"] != 1 || m.State().RefusedBy["partition"] != 2 {
			t.Errorf("after 12,000 visits on one server: %+v, refused %v; want refused by the server (and the two by the partition before)", d, m.State().RefusedBy)
		}
	})
	t.Run("a query runs up to a second ahead", func(t *testing.T) {
		c := newClock()
		m := New(testConfig(), c.now)
		page := Request{Table: "t", Partition: "big", Op: OpQuery}
		// A page of 1,000: 800 in debt (0.4 s); the query's next page is
		// admitted, a point read is not.
		m.ChargePage("t", []Visit{{Partition: "big", Visited: 1000, Returned: 1000}})
		if d := m.Admit(page); !d.Allow {
			t.Errorf("the next page 0.4 s in debt: %+v, want admitted", d)
		}
		if d := m.Admit(Request{Table: "t", Partition: "big", Op: OpRead, Entities: 1}); d.Allow {
			t.Errorf("a point read 0.4 s in debt was admitted")
		}
		// Two more pages of 1,000 without a pause: 1.4 s in debt, refused.
		m.ChargePage("t", []Visit{{Partition: "big", Visited: 2000, Returned: 2000}})
		if d := m.Admit(page); d.Allow || m.State().RefusedBy["partition"] != 2 {
			t.Errorf("a page 1.4 s in debt: %+v, want refused by the partition", d)
		}
		c.add(400 * time.Millisecond)
		if d := m.Admit(page); !d.Allow {
			t.Errorf("0.4 s later, 1 s in debt: %+v, want admitted", d)
		}
	})
	t.Run("end range", func(t *testing.T) {
		c := newClock()
		m := New(testConfig(), c.now)
		m.ChargePage("t", []Visit{{Partition: "0000009999", Visited: 3000, Returned: 3000, End: +1}})
		d := m.Admit(Request{Table: "t", Partition: "0000010000", Op: OpWrite, Entities: 1, Extends: +1})
		if st := m.State(); d.Allow || st.RefusedBy["range"] != 1 {
			t.Errorf("an append-only insert after 3,000 visits of the last range: %+v, refused %v; want refused by the range", d, st.RefusedBy)
		}
		if d := m.Admit(Request{Table: "t", Partition: "0000000001", Op: OpWrite, Entities: 1, Extends: -1}); !d.Allow {
			t.Errorf("the first range owes nothing, yet %+v", d)
		}
	})
	t.Run("off and paused charge nothing", func(t *testing.T) {
		m := New(testConfig(), nil)
		m.SetPaused(true)
		m.ChargePage("t", []Visit{{Partition: "p", Visited: 1 << 20}})
		m.SetPaused(false)
		if d := m.Admit(Request{Table: "t", Partition: "p", Op: OpRead, Entities: 1}); !d.Allow {
			t.Errorf("charged while paused: %+v", d)
		}
	})
}
