package advise

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// openOrders are 20,000 orders open at once, each with about 5 events
// (created, paid, packed, shipped, delivered), 1,000 events a second: an
// order's events, newest first, are what the shop reads.
const openOrders = `
name: open-orders
population:
  entities: 100k
  interval: 1ms
  fields:
    order: {kind: id, prefix: O, count: 20000, lifetime: {entities: 5}}
questions:
  - {name: order-events, known: [order], want: newest, limit: 10}
schemes:
  - {name: by-order, partition_key: "{order}", row_key: "{inverted_ticks}"}
workload:
  rate: 1050
  mix:
    - {op: insert, weight: 1000}
    - {question: order-events, weight: 50}
`

// A key that retires bounds its partition: an order keeps its 5 events,
// however long the horizon, so advise keys the table by the order alone;
// a key of the same share living the whole year would hold 1,576,800
// events, over the 1,000,000 bound, and need a time bucket.
func TestRetiringKeyNeedsNoTimeBucket(t *testing.T) {
	sc, errs := scenario.Parse("open-orders.yaml", []byte(openOrders))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := adviseParsed(t, sc, Defaults())
	in := a.Input
	share := in.topShare("order")
	if u := in.granularity(share, 0, in.itemBytes()); u == keygen.NoUnit {
		t.Fatalf("a key of share %v living a year needs no time bucket: the test needs one that does", share)
	}
	if u := in.granularity(share, in.keysLife("order"), in.itemBytes()); u != keygen.NoUnit {
		t.Errorf("an order living %v needs a %v bucket; want none", in.Life("order"), u)
	}
	r := a.Recommended
	if r == nil || r.PartitionKey != "{order}" || strings.Contains(r.RowKey, "{order}") {
		t.Fatalf("recommended %+v; want PartitionKey {order}", r)
	}
	if rows := r.Predicted.RowsAfterHorizon; rows < 4.9 || rows > 5.1 {
		t.Errorf("an order's partition holds %v rows after a year; want its 5 events", rows)
	}
}

// With a retention, a table keyed by keys that retire deletes each
// retired key's partition whole, as many a second as keys retire (live
// keys over their life), and says so: not "a time bucket's partitions",
// which it has none of, and its life in days, not a float's digits.
func TestRetiredKeysPartitionsAreDeletedWhole(t *testing.T) {
	sc, errs := scenario.Parse("parcels.yaml", []byte(`
name: parcels
seed: 5
population:
  entities: 100k
  interval: 1ms
  fields:
    parcel: {kind: id, prefix: P, lifetime: {span: 72h, entities: 10}}
questions:
  - {name: history, known: [parcel], want: all}
schemes:
  - {name: one, partition_key: "parcels", row_key: "{parcel}_{ticks}"}
workload:
  rate: 1100
  mix:
    - {op: insert, weight: 1000}
    - {question: history, weight: 100}
`))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := Defaults()
	opts.Retention = 90 * 24 * time.Hour
	a := adviseParsed(t, sc, opts)
	r := a.Recommended
	if r == nil || r.PartitionKey != "{parcel}" {
		t.Fatalf("recommended %+v", r)
	}
	d := r.Candidate.Prediction.Deletion
	if d == nil || len(d.Tables) != 1 || d.Tables[0].How != "retired" || d.Tables[0].Period != "3d" {
		t.Fatalf("deletion %+v", d)
	}
	// 1,000 entities/s of 10 each: 100 parcels retire a second.
	if got := d.Tables[0].PartitionsPerSec; math.Abs(got-100) > 1 {
		t.Errorf("%v partitions a second deleted, want 100", got)
	}
	if why := strings.Join(r.Why, "\n"); !strings.Contains(why, "main deletes each key's partition whole once the key has retired and its rows are older than 90d (a key lives 3d; 100 partitions a second") {
		t.Errorf("why:\n%s", why)
	}
}
