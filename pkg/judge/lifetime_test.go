package judge

import (
	"context"
	"math"
	"testing"
	"time"
)

// tracking are parcels scanned 1,000 times a second, each about 10 times
// over the 72 hours it lives (25,920,000 live at once): the history of a
// scan's parcel, every scan of a live parcel picked evenly, and the
// newest scans of the whole table.
const tracking = `
name: tracking
population:
  entities: 50000
  interval: 1ms
  fields:
    parcel: {kind: id, prefix: P, lifetime: {span: 72h, entities: 10}}
questions:
  - {name: history, known: [parcel], want: all}
  - {name: live, known: [parcel], want: all, pick: {parcel: uniform}}
  - {name: latest, want: newest, limit: 10}
schemes:
  - {name: by-parcel, partition_key: "{parcel}", row_key: "{inverted_ticks}"}
  - {name: hashed, partition_key: "{hash(parcel) % 16}", row_key: "{parcel}_{inverted_ticks}"}
workload:
  rate: 1010
  mix:
    - {op: insert, weight: 1000}
    - {question: history, weight: 5}
    - {question: live, weight: 5}
`

// A key with a lifetime is judged by its law: at the horizon a parcel
// picked through one of its scans has retired (a year against its 72
// hours) with its life's 10 scans, and the picked one besides (λ+1 = 11);
// a live parcel picked evenly has lived half its life on average (5
// scans); a parcel's partition holds 10 rows, not a year's; a table scan
// reads the partitions of the retired parcels too (25,920,000 for each of
// the year's 121.7 lives and the live ones), a page each. On the seeded
// table (50 s of event time, every parcel live) a parcel has its picked
// scan and little else.
func TestLifetimeJudgedByItsLaw(t *testing.T) {
	in := prepare(t, "tracking", []byte(tracking))
	const e, live = 10.0, 25_920_000.0
	gens := DefaultHorizon.Hours() / 72
	for _, s := range in.Own {
		p, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		history, picked := p.Questions[0], p.Questions[1]
		if math.Abs(history.RowsPerQuestion-(e+1)) > 0.05*e {
			t.Errorf("%s: the history of a scan's parcel returns %.2f rows at the horizon; want a retired parcel's %v and the scan", s.Name, history.RowsPerQuestion, e+1)
		}
		if math.Abs(picked.RowsPerQuestion-e/2) > 0.05*e {
			t.Errorf("%s: a live parcel picked evenly returns %.2f rows; want half a life's, %v", s.Name, picked.RowsPerQuestion, e/2)
		}
		if seeded := p.Seeded.Questions[0].RowsPerQuestion; math.Abs(seeded-1) > 0.01 {
			t.Errorf("%s: on the seeded table the history returns %.3f rows; want about the picked scan alone", s.Name, seeded)
		}
		if s.Name != "by-parcel" {
			continue
		}
		if math.Abs(p.LargestPartitionRows-e) > 1e-6*e || math.Abs(p.RowsAfterHorizon-e) > 1e-6*e {
			t.Errorf("a parcel's partition holds %v rows at the horizon (after it %v); want its life's %v", p.LargestPartitionRows, p.RowsAfterHorizon, e)
		}
		scan := p.Questions[2]
		if want := live * (1 + gens); math.Abs(scan.PartitionsPerQuestion-want) > 0.02*want || math.Abs(scan.RequestsPerQuestion-want) > 0.05*want {
			t.Errorf("the table scan visits %.4g partitions in %.4g requests; want the live and retired parcels', %.4g", scan.PartitionsPerQuestion, scan.RequestsPerQuestion, want)
		}
	}
}

// With a retention longer than a life, a retired parcel's partition is
// deleted whole: every 72 hours as many as live at once, each a read and
// a transaction.
func TestLifetimeRetention(t *testing.T) {
	in := prepare(t, "tracking", []byte(tracking))
	in.Opts.Retention = 30 * 24 * time.Hour
	p, err := in.Judge(context.Background(), in.Own[0])
	if err != nil {
		t.Fatal(err)
	}
	d := p.Deletion
	want := 25_920_000 * 2 / (72 * 3600.0)
	if d == nil || d.Tables[0].How != "retired" || math.Abs(d.Tables[0].RequestsPerSec-want) > 0.01*want {
		t.Errorf("deletion %+v; want the retired parcels' partitions, %v requests/s", d, want)
	}
}

// openOrders are orders that live 30 s of event time (500 open at once,
// each with about 6 events): the seeded table holds ten lives of them.
// A depot's orders are asked too, through a filter on the depot.
var openOrdersModel = `
name: open-orders
seed: 21
population:
  entities: 30000
  interval: 10ms
  fields:
    order: {kind: id, prefix: O, count: 500, lifetime: {entities: 6}}
    depot: {kind: choice, values: [north, south, east]}
questions:
  - {name: events, known: [order], want: all}
  - {name: open, known: [order], want: all, pick: {order: uniform}}
  - {name: newest, known: [order], want: newest, limit: 3}
  - {name: of-depot, known: [order, depot], want: all}
schemes:
  - {name: by-order, partition_key: "{order}", row_key: "{inverted_ticks}"}
  - {name: hashed, partition_key: "{hash(order) % 4}", row_key: "{order}_{inverted_ticks}"}
  - {name: by-depot, partition_key: "{depot}", row_key: "{inverted_ticks}"}
workload:
  rate: 120
  mix:
    - {op: insert, weight: 100}
    - {question: events, weight: 5}
    - {question: open, weight: 5}
    - {question: newest, weight: 5}
    - {question: of-depot, weight: 5}
`

// On a seeded table ten lives long, the judge's law of keys with a
// lifetime gives what the exact model of the seeded rows gives: an
// order's rows, a live order's, its newest 3, through its partition, a
// hash bucket's RowKey range or a filter over a depot's partition.
func TestLifetimeAgreesWithTheModel(t *testing.T) {
	checkAgainstModel(t, "open-orders", prepare(t, "open-orders", []byte(openOrdersModel)))
}
