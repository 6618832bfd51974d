package model

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// Request units follow Microsoft's published table (interpolated between
// sizes), plus the model's charges for properties and queries.
func TestRequestUnits(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"point read of 1 KB", units(Request{Op: OpRead, Bytes: 1024}), 1},
		{"point read of 200 B: the 1 KB figure", units(Request{Op: OpRead, Bytes: 200}), 1},
		{"point read of 3 KB: between 2 and 4 KB", units(Request{Op: OpRead, Bytes: 3 << 10}), 1.09},
		{"point read of 100 KB", units(Request{Op: OpRead, Bytes: 100 << 10}), 4.76 + (9.95-4.76)*36/64},
		{"insert of 1 KB", units(Request{Op: OpWrite, Bytes: 1024, Props: 5}), 4.95},
		{"insert of 8 KB", units(Request{Op: OpWrite, Bytes: 8 << 10, Props: 10}), 7.04},
		{"insert of 1 KB with 30 properties: 20 indexed beyond the tenth", units(Request{Op: OpWrite, Bytes: 1024, Props: 30}), 4.95 + 2},
		{"delete of an unknown size: a 1 KB write", units(Request{Op: OpDelete}), 4.95},
		{"transaction of 50 entities of 400 B", units(Request{Op: OpBatch, Entities: 50, Bytes: 50 * 400, Props: 150}), 50 * 4.95},
		{"query page: nothing up front", units(Request{Op: OpQuery}), 0},
		{"a page's visit: 100 returned of 1 KB, 900 more examined", pageUnits(Visit{Visited: 1000, Returned: 100, Bytes: 100 << 10}), 100 + 45},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-9 {
			t.Errorf("%s: %v RU, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// cosmosConfig is the Cosmos DB model with ru RU/s per table.
func cosmosConfig(ru float64) Config {
	c := CosmosDefault()
	c.Cosmos.RU = ru
	return c
}

// write1K is a request builder of 1 KB inserts (4.95 RU) into pk(i).
func write1K(pk func(i int) string) func(int) Request {
	return func(i int) Request {
		return Request{Table: "t", Partition: pk(i), Op: OpWrite, Entities: 1, Bytes: 1000, Props: 3}
	}
}

// A table's RU/s is what it serves, whatever its keys: at 4,000 RU/s (one
// physical partition) 1 KB inserts are served at 4,000 / 4.95 = 808 a
// second, refused with 429 beyond; at 40,000 RU/s (four physical
// partitions of 10,000) one PartitionKey is held to its logical
// partition's 10,000 RU/s (2,020 a second) while sixteen keys get the
// share of the physical partition each landed on.
func TestCosmosThroughput(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		pk     func(i int) string
		lo, hi int    // admitted in each of seconds 1 to 4
		reason string // what refused the rest
	}{
		{"4,000 RU/s, one PartitionKey", cosmosConfig(4000), func(int) string { return "Orders" }, 808, 809, "physical"},
		{"4,000 RU/s, 16 PartitionKeys", cosmosConfig(4000), func(i int) string { return fmt.Sprintf("partition-%03d", i%16) }, 808, 809, "physical"},
		{"40,000 RU/s, one PartitionKey", cosmosConfig(40000), func(int) string { return "Orders" }, 2020, 2021, "logical"},
		{"20,000 RU/s with logical_ru=5000", func() Config { c := cosmosConfig(20000); c.Cosmos.LogicalRU = 5000; return c }(),
			func(int) string { return "Orders" }, 1010, 1011, "logical"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			m := New(tt.cfg, c.now)
			outs := run(m, c, 6000, 5*time.Second, write1K(tt.pk))
			for s, n := range perSecond(outs, time.Second, 4) {
				if n < tt.lo || n > tt.hi {
					t.Errorf("second %d: %d admitted, want %d to %d", s+1, n, tt.lo, tt.hi)
				}
			}
			st := m.State()
			if st.Refusals == 0 || st.RefusedBy[tt.reason] != st.Refusals {
				t.Errorf("refused %v, want all by the %s partition", st.RefusedBy, tt.reason)
			}
			for _, o := range outs {
				if !o.d.Allow && (o.d.Status != 429 || o.d.Code != CodeTooMany || o.d.RetryAfter <= 0) {
					t.Fatalf("refusal %+v, want 429 TooManyRequests with a retry-after", o.d)
				}
			}
		})
	}
}

// Sixteen hash buckets at 40,000 RU/s land 1, 8, 4 and 3 on the four
// physical partitions (Cosmos DB places logical partitions by hash): the
// keys of the partition holding eight share its 10,000 RU/s, the others
// are served in full.
func TestCosmosUnevenPhysicalPartitions(t *testing.T) {
	key := func(i int) string { return fmt.Sprintf("partition-%03d", i%16) }
	on := make([]int, 4)
	for i := range 16 {
		on[physicalOf(key(i), 4)]++
	}
	if fmt.Sprint(on) != "[1 8 4 3]" {
		t.Fatalf("16 buckets over 4 physical partitions: %v, want [1 8 4 3] (the hash changed?)", on)
	}
	c := newClock()
	m := New(cosmosConfig(40000), c.now)
	outs := run(m, c, 6000, 5*time.Second, write1K(key)) // 375 each: 1,856 RU/s per key
	perPhys := make([]int, 4)
	for _, o := range outs[6000:] { // seconds 1 to 4
		if o.d.Allow {
			perPhys[physicalOf(key(int(o.at/(time.Second/6000))), 4)]++
		}
	}
	want := []int{375 * 4, 2020 * 4, 4 * 375 * 4, 3 * 375 * 4}
	for p := range perPhys {
		if math.Abs(float64(perPhys[p]-want[p])) > 4 {
			t.Errorf("physical partition %d: %d admitted in 4 s, want %d", p, perPhys[p], want[p])
		}
	}
}

// A 429's retry-after is exactly when the refused request would pass.
func TestCosmosRetryAfter(t *testing.T) {
	c := newClock()
	m := New(cosmosConfig(4000), c.now)
	req := write1K(func(int) string { return "p" })(0)
	var d Decision
	for d = m.Admit(req); d.Allow; d = m.Admit(req) {
	}
	if d.RetryAfter <= 0 || d.RetryAfter > 2*time.Millisecond {
		t.Fatalf("refused with retry-after %v, want up to one write's 1.2375 ms", d.RetryAfter)
	}
	c.add(d.RetryAfter - 1)
	if again := m.Admit(req); again.Allow {
		t.Errorf("admitted 1 ns before the retry-after")
	}
	c.add(1)
	if again := m.Admit(req); !again.Allow {
		t.Errorf("refused at the retry-after: %+v", again)
	}
}

// A query page is charged its units afterwards: 2.5 RU, each entity
// returned as a read, each other entity examined an index lookup; the
// debt refuses the next write with the wait for it.
func TestCosmosChargePage(t *testing.T) {
	c := newClock()
	m := New(cosmosConfig(4000), c.now)
	m.ChargePage("t", []Visit{{Partition: "p", Visited: 1000, Returned: 100, Bytes: 100 << 10}, {Partition: "q", Visited: 10}})
	peaks := m.Peaks("t")
	if peaks.Unit != "RU" || peaks.Partitions["p"] != 147.5 || peaks.Partitions["q"] != 0.5 || peaks.Physical[0] != 148 {
		t.Fatalf("peaks %+v, want p 147.5 RU, q 0.5 RU, the physical partition 148", peaks)
	}
	d := m.Admit(write1K(func(int) string { return "r" })(0))
	// 148 RU into a 400 RU bucket: no debt yet; the page left room.
	if !d.Allow {
		t.Errorf("after a 148 RU page in a 400 RU bucket: %+v, want admitted", d)
	}
	// 502.5 RU more: 655.45 RU taken in all, 163.8625 ms of the
	// bucket's time; the next write needs it back to 98.7625 ms (100 ms
	// of capacity less its own 1.2375 ms): 65.1 ms from now.
	m.ChargePage("t", []Visit{{Partition: "p", Visited: 10000}})
	d = m.Admit(write1K(func(int) string { return "r" })(0))
	if d.Allow || d.RetryAfter != 65100*time.Microsecond {
		t.Errorf("after 655.45 RU: %+v, want refused with a retry-after of 65.1 ms", d)
	}
}

// Cosmos DB places a PartitionKey the same way in every table; its 20 GB
// logical partition limit holds while the model is active.
func TestCosmosPlaceAndSize(t *testing.T) {
	m := New(cosmosConfig(40000), nil)
	for i := range 100 {
		pk := fmt.Sprint("k", i)
		if p := m.Place("a", pk); p != m.Place("b", pk) || p < 0 || p > 3 {
			t.Fatalf("%s: physical partition %d in a, %d in b; want the same of 0..3", pk, p, m.Place("b", pk))
		}
	}
	if got := m.PartitionBytes(); got != 20<<30 {
		t.Errorf("PartitionBytes = %d, want 20 GB", got)
	}
	if d := m.PartitionFull(); d.Status != 403 || d.Code != "Forbidden" || d.Message != `Message: {"Errors":["Partition key reached maximum size of 20 GB"]}` {
		t.Errorf("PartitionFull = %+v", d)
	}
	m.SetPaused(true)
	if got := m.PartitionBytes(); got != 0 {
		t.Errorf("paused: PartitionBytes = %d, want 0 (no limit)", got)
	}
	if got := New(Default(), nil).PartitionBytes(); got != 0 {
		t.Errorf("azure: PartitionBytes = %d, want 0", got)
	}
}
