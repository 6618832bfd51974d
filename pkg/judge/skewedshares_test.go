package judge

import (
	"context"
	"math"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// fewValuesModel hashes a field of three values (status) into 8 buckets
// of a tenant, in the main table and in an index table, and spreads
// another index over 6 buckets of the event id: a question that does not
// know the status asks all 8 buckets, 5 of them empty; one that knows it
// computes its one bucket.
const fewValuesModel = `
name: few
seed: 29
population:
  entities: 30000
  interval: 10ms
  fields:
    tenant: {kind: choice, values: [contoso, fabrikam, adatum], weights: [80, 15, 5]}
    status: {kind: choice, values: [open, closed, pending]}
    event: {kind: guid}
questions:
  - {name: newest-3, known: [tenant], want: newest, limit: 3}
  - {name: by-status, known: [tenant, status], want: newest, limit: 20}
  - {name: one, known: [tenant, event], want: one}
schemes:
  - {name: statuses, partition_key: "{tenant}_{hash(status) % 8}", row_key: "{inverted_ticks}"}
  - name: status-index
    partition_key: "{event}"
    row_key: "x"
    indexes:
      - {name: ByTenant, partition_key: "{tenant}_{hash(status) % 8}", row_key: "{inverted_ticks}", carries: [status]}
  - name: event-index
    partition_key: "{event}"
    row_key: "x"
    indexes:
      - {name: ByTenant, partition_key: "{tenant}_{hash(event) % 6}", row_key: "{inverted_ticks}", carries: [status]}
workload:
  rate: 120
  mix:
    - {op: insert, weight: 100}
    - {question: newest-3, weight: 5}
    - {question: by-status, weight: 5}
    - {question: one, weight: 5}
`

// schemeNamed is the input's scheme of that name.
func schemeNamed(t *testing.T, in *Input, name string) *keygen.Scheme {
	t.Helper()
	for _, s := range in.Own {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no scheme %s", name)
	return nil
}

// A hash of a field of few values costs what the exact model says: the
// newest 3 of a tenant (asked of each bucket whole: a share would be all
// 3) and the one event (a filter in each bucket) ask all 8 buckets of
// its status, 5 of them empty, not the 3 its values fill; the newest 20
// of a status, its bucket computed, one; an index over 6 buckets of the
// event id asks each its share of the newest 3 (all 3). The newest 20
// over the statuses' buckets, asked again often, is
// TestSkewedSecondRoundsAgreeWithTheExecutor's.
func TestHashOfFewValuesAgreesWithTheModel(t *testing.T) {
	in := prepare(t, "few", []byte(fewValuesModel))
	checkAgainstModel(t, "few", in)
	p, err := in.Judge(context.Background(), schemeNamed(t, in, "statuses"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 2} { // newest-3, one
		if q := p.Seeded.Questions[k]; math.Abs(q.RequestsPerQuestion-8) > 1e-9 || math.Abs(q.PartitionsPerQuestion-8) > 1e-9 {
			t.Errorf("%s: %.2f requests of %.2f partitions; want all 8 buckets asked", q.Name, q.RequestsPerQuestion, q.PartitionsPerQuestion)
		}
	}
}

// skewedModel asks a tenant's newest 20 over 8 buckets of a status of
// three values, in the main table and in an index table: each bucket is
// asked for question.Share(20, 8) = 8 rows, but the three it fills hold a
// third of the answer each (6.7 rows on average), so buckets are asked
// again in most questions.
const skewedModel = `
name: skewed
seed: 31
population:
  entities: 30000
  interval: 10ms
  fields:
    tenant: {kind: choice, values: [contoso, fabrikam, adatum], weights: [80, 15, 5]}
    status: {kind: choice, values: [open, closed, pending]}
    event: {kind: guid}
questions:
  - {name: newest-20, known: [tenant], want: newest, limit: 20}
schemes:
  - {name: statuses, partition_key: "{tenant}_{hash(status) % 8}", row_key: "{inverted_ticks}"}
  - name: status-index
    partition_key: "{event}"
    row_key: "x"
    indexes:
      - {name: ByTenant, partition_key: "{tenant}_{hash(status) % 8}", row_key: "{inverted_ticks}"}
workload:
  rate: 120
  mix:
    - {op: insert, weight: 100}
    - {question: newest-20, weight: 5}
`

// The second rounds of a skewed split are those the executor takes: the
// newest 20 of contoso over 8 buckets of its status (3 of them filled, a
// share of 8 each), asked of the table at 2,858 of its sizes as a run
// asks a table that grows, through a fan-out and through an index read
// (whose 20 point reads follow), takes the extra requests and rows of
// mergedRound's law, which the judge predicts: a bucket is asked again
// whenever the rows the first round brought rank its last below 20.
func TestSkewedSecondRoundsAgreeWithTheExecutor(t *testing.T) {
	in := prepare(t, "skewed", []byte(skewedModel))
	law := mergedRound(20, 8, []bucketKind{{3, 1.0 / 3}}, 0)
	wantReqs, wantRows := 3*law.prob, 3*law.rows
	var picked keygen.Entity
	in.Pop.Entity(0, &picked)
	if v, _ := in.Pop.Value(&picked, "tenant"); v.Str != "contoso" {
		t.Fatalf("entity 0 is %s's", v.Str)
	}
	for _, name := range []string{"statuses", "status-index"} {
		s := schemeNamed(t, in, name)
		p := question.Derive(in.Questions[0], s)
		if p.ShareTop() != 8 {
			t.Fatalf("%s (%s): share %d; want 8", name, p.Label(), p.ShareTop())
		}
		first := 8.0 // the first round: 8 buckets, the point reads of the answer
		if p.Kind == question.Index {
			first += 20
		}
		m := question.NewModel(in.Pop, s, in.Seeded)
		var reqs, visited, n float64
		for size := int64(10_000); size <= in.Seeded; size += 7 {
			_, c, err := m.Ask(context.Background(), p, &picked, question.BoundsOf(in.Pop, size))
			if err != nil {
				t.Fatal(err)
			}
			reqs += float64(c.Requests) - first
			visited += float64(c.Visited) - (first - 8) - 3*8
			n++
		}
		reqs, visited = reqs/n, visited/n
		if math.Abs(reqs/wantReqs-1) > 0.05 || math.Abs(visited/wantRows-1) > 0.05 {
			t.Errorf("%s: %.4f requests and %.4f rows a question past the first round over %.0f sizes; the law %.4f and %.4f", name, reqs, visited, n, wantReqs, wantRows)
		}
		pred, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		q := pred.Seeded.Questions[0]
		if j := q.RequestsPerQuestion - first; math.Abs(j/wantReqs-1) > 0.05 {
			t.Errorf("%s: the judge asks %.4f requests past the first round; its law %.4f", name, j, wantReqs)
		}
		if j := q.RowsVisitedPerQuestion - (first - 8) - 3*8; math.Abs(j/wantRows-1) > 0.05 {
			t.Errorf("%s: the judge visits %.4f rows past the first round's shares; its law %.4f", name, j, wantRows)
		}
		t.Logf("%s: %.4f requests, %.4f rows a question past the first round over %.0f sizes; the law %.4f, %.4f; the judge %.4f requests, %.2f rows visited",
			name, reqs, visited, n, wantReqs, wantRows, q.RequestsPerQuestion-first, q.RowsVisitedPerQuestion)
	}
}
