package model

import (
	"math"
	"testing"
	"time"
)

// Under Cosmos DB, what a request was charged is in its decision (its
// units, up front) or what ChargePage returns (a query page's, after the
// fact); a refused request is charged nothing. Azure Storage's model and
// a model that is off charge nothing.
func TestChargeOfEachRequest(t *testing.T) {
	c := newClock()
	m := New(cosmosConfig(400), c.now)
	if !m.ChargesUnits() {
		t.Fatal("the Cosmos DB model does not say it charges request units")
	}
	read := m.Admit(Request{Table: "t", Partition: "p", Op: OpRead, Entities: 1, Bytes: 1024})
	write := m.Admit(Request{Table: "t", Partition: "p", Op: OpWrite, Entities: 1, Bytes: 1024, Props: 12})
	if !read.Allow || read.Charge != 1 || !write.Allow || math.Abs(write.Charge-(4.95+0.2)) > 1e-9 {
		t.Errorf("read %+v, write %+v: want 1 and 5.15 RU", read, write)
	}
	page := m.ChargePage("t", []Visit{{Partition: "p", Visited: 100, Returned: 10, Bytes: 10 << 10}})
	if math.Abs(page-(2.5+10+0.05*90)) > 1e-9 {
		t.Errorf("a page of 10 returned of 100 visited: %v RU, want 17", page)
	}
	var refused Decision
	for i := 0; i < 200 && refused.Status == 0; i++ { // 400 RU/s: a few dozen writes spend it
		refused = m.Admit(Request{Table: "t", Partition: "p", Op: OpWrite, Entities: 1, Bytes: 1024})
	}
	if refused.Status != 429 || refused.Charge != 0 {
		t.Errorf("the refusal %+v: want 429 charged nothing", refused)
	}
	c.add(time.Minute)

	az := New(Default(), c.now)
	if az.ChargesUnits() || az.Admit(Request{Table: "t", Partition: "p", Op: OpRead, Entities: 1}).Charge != 0 ||
		az.ChargePage("t", []Visit{{Partition: "p", Visited: 10, Returned: 10}}) != 0 {
		t.Error("Azure Storage's model charges request units")
	}
}

// A physical partition's share of the provisioned throughput is the RU/s
// over the physical partitions: 400 on one, 40,000 over four of 10,000,
// and 40,000 over eight given ones.
func TestPartitionShare(t *testing.T) {
	for _, c := range []struct {
		spec string
		want float64
	}{{"cosmos", 400}, {"cosmos,ru=40000", 10000}, {"cosmos,ru=40000,physical=8", 5000}} {
		cfg, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Cosmos.PartitionShare(); got != c.want {
			t.Errorf("%s: %v, want %v", c.spec, got, c.want)
		}
	}
}
