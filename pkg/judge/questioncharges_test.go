package judge

import (
	"context"
	"math"
	"testing"
)

// depotReads asks only questions of a depot, 20 zipf-skewed depots: its
// newest scan 6,000 times a second and its newest 10 a hundred times.
const depotReads = `name: depot-reads
seed: 5
population:
  entities: 100k
  start: 2025-06-10T00:00:00Z
  interval: 1ms
  fields:
    depot: {kind: id, count: 20, prefix: D, width: 2, distribution: zipf(1.0)}
questions:
  - {name: latest, known: [depot], want: newest, limit: 1}
  - {name: newest-10, known: [depot], want: newest, limit: 10}
schemes:
  - {name: depot, partition_key: "{depot}", row_key: "{inverted_ticks}"}
workload:
  rate: 6100/s
  mix:
    - {question: latest, weight: 6000}
    - {question: newest-10, weight: 100}
`

// With no writes and both questions reading the busiest depot's
// partition, each question's own entities/s there are its part of that
// partition's load: both name the busiest partition, each is more than
// none, and together they are all of it.
func TestEachQuestionKeepsItsCharge(t *testing.T) {
	in := prepare(t, "depot-reads.yaml", []byte(depotReads))
	p, err := in.Judge(context.Background(), in.Own[0])
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, q := range p.Questions {
		if q.ChargedPartition != p.BusiestPartition || !(q.ChargedEntitiesPerSec > 0) {
			t.Errorf("%s charges %v entities/s of %q, busiest %q", q.Name, q.ChargedEntitiesPerSec, q.ChargedPartition, p.BusiestPartition)
		}
		sum += q.ChargedEntitiesPerSec
	}
	if math.Abs(sum-p.BusiestEntitiesPerSec) > 1e-9*p.BusiestEntitiesPerSec {
		t.Errorf("the questions charge %v entities/s of the busiest partition, which takes %v", sum, p.BusiestEntitiesPerSec)
	}
}
