package judge

import (
	"context"
	"math"
	"testing"
)

// trips are 1,000 trips a second by 5,000 drivers; the application finds
// one trip by driver and trip id, which an index keyed by driver and
// hour answers only by asking every hour of the driver's table.
const trips = `
name: trips
population:
  entities: 20000
  interval: 1ms
  fields:
    driver: {kind: id, count: 5000}
    trip: {kind: guid}
questions:
  - {name: one-trip, known: [driver, trip], want: one}
schemes:
  - name: hour-index
    partition_key: "{time:yyyy-MM-dd-HH-mm}"
    row_key: "{inverted_ticks}"
    indexes:
      - {name: ByDriverHour, partition_key: "{driver}_{time:yyyy-MM-dd-HH}", row_key: "{trip}"}
  - name: by-driver-index
    partition_key: "{time:yyyy-MM-dd-HH-mm}"
    row_key: "{inverted_ticks}"
    indexes:
      - {name: ByDriver, partition_key: "{driver}", row_key: "{trip}"}
workload:
  rate: 1001
  mix:
    - {op: insert, weight: 1000}
    - {question: one-trip}
`

// An index row whose RowKey the question computes but whose PartitionKey
// holds an hour it does not know is looked for in every hour of the table:
// one query per hour bucket (8,760 and the current one after a year), each
// reading the one row it names if it is there, then the point read of the
// entity. With the PartitionKey computed it is one query and one point
// read, at any size. (The one-trip question under by-trip is a point read
// of the main table; the index plans are asked of the index alone here.)
func TestIndexPointAcrossTimeBuckets(t *testing.T) {
	in := prepare(t, "trips", []byte(trips))
	hours := DefaultHorizon.Hours()
	for _, s := range in.Own {
		p, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		q, seeded := p.Questions[0], p.Seeded.Questions[0]
		if q.Plan != "index" {
			t.Fatalf("%s: plan %s (%s), want the index", s.Name, q.Plan, q.Why)
		}
		// The index row and the entity's: two rows visited, one returned.
		if math.Abs(q.RowsVisitedPerQuestion-2) > 0.01 || math.Abs(q.RowsPerQuestion-1) > 0.01 {
			t.Errorf("%s: %.3f rows visited, %.3f returned at the horizon; want the index row and the entity, 2 and 1", s.Name, q.RowsVisitedPerQuestion, q.RowsPerQuestion)
		}
		want := 2.0 // the index row's query and the point read
		if s.Name == "hour-index" {
			want = hours + 2 // every hour, the current one, the point read
		}
		if math.Abs(q.RequestsPerQuestion-want) > 1 {
			t.Errorf("%s: %.1f requests a question at the horizon, want %.0f", s.Name, q.RequestsPerQuestion, want)
		}
		// The seeded table spans 20 s of event time: one or two hours.
		if seeded.RequestsPerQuestion < 2 || seeded.RequestsPerQuestion > 3 {
			t.Errorf("%s: %.2f requests a question on the seeded table, want 2 to 3", s.Name, seeded.RequestsPerQuestion)
		}
	}
}
