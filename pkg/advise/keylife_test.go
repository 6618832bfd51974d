package advise

import (
	"strings"
	"testing"

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
