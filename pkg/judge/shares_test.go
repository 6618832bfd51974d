package judge

import (
	"context"
	"math"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// sharesModel is a tenant log whose newest 100 and newest 20 fan out by
// shares over hash buckets of the event id (15 and 4 of them, under a
// tenant or before it): over 4 buckets a share of 11 of the newest 20 is
// passed often enough that buckets are asked again.
const sharesModel = `
name: shares
seed: 23
population:
  entities: 30000
  interval: 10ms
  fields:
    tenant: {kind: choice, values: [contoso, fabrikam, adatum], weights: [80, 15, 5]}
    event: {kind: guid}
questions:
  - {name: newest, known: [tenant], want: newest, limit: 100}
  - {name: newest-20, known: [tenant], want: newest, limit: 20}
  - {name: newest-8, known: [tenant], want: newest, limit: 8}
schemes:
  - {name: hash15, partition_key: "{tenant}_{hash(event) % 15}", row_key: "T_{inverted_ticks}", rows: ["ID_{event}"]}
  - {name: hash4, partition_key: "{hash(event) % 4}_{tenant}", row_key: "{inverted_ticks}"}
  - {name: hash8, partition_key: "{tenant}-{hash(event) % 8}", row_key: "{inverted_ticks}"}
workload:
  rate: 120
  mix:
    - {op: insert, weight: 100}
    - {question: newest, weight: 5}
    - {question: newest-20, weight: 5}
    - {question: newest-8, weight: 5}
`

// A fan-out by shares costs what the exact model of the seeded rows
// says, question by question: each bucket's share, and the second rounds
// of the buckets that hold more of the answer than it.
func TestSharesAgreeWithTheModel(t *testing.T) {
	checkAgainstModel(t, "shares", prepare(t, "shares", []byte(sharesModel)))
}

// secondRound's law against a direct sum: 15 buckets, 100 rows, a share
// of 15 (a bucket holds more than 15 of the 100 with chance 0.0016 or so,
// and is asked again then, or at 15 unless its last row is the answer's
// last); one bucket holding all the rows is asked again for all but its
// share.
func TestSecondRound(t *testing.T) {
	got := secondRound(100, 1.0/15, 15, true)
	over, at := 0.0, binomialPMF(100, 15, 1.0/15)
	for x := 16; x <= 100; x++ {
		over += binomialPMF(100, x, 1.0/15)
	}
	if want := over + at*(1-15.0/100); math.Abs(got.prob/want-1) > 1e-6 || want < 1e-3 || want > 1e-2 {
		t.Errorf("15 buckets: asked again with chance %.5g; want %.5g (between 0.1%% and 1%%)", got.prob, want)
	}
	if all := secondRound(100, 1, 15, true); math.Abs(all.prob-1) > 1e-9 || math.Abs(all.rows-(100-15*101.0/101)) > 1e-9 {
		t.Errorf("one bucket: %+v; want asked again for the 85 rows after its share", all)
	}
	if short := secondRound(10, 1, 4, false); math.Abs(short.rows-6) > 1e-9 {
		t.Errorf("a group of 10 rows, a share of 4: %+v; want the other 6 read", short)
	}
}

// The second rounds the judge predicts are those the executor takes: the
// newest 8 of contoso over 8 buckets of the event id (a share of 4 each)
// asked of the table at 2,858 of its sizes, as a run asks it of a table
// that grows, takes the extra requests and rows the judge's law gives
// for it (about one question in twenty asks a bucket again), within a
// quarter of them.
func TestSecondRoundsAgreeWithTheExecutor(t *testing.T) {
	in := prepare(t, "shares", []byte(sharesModel))
	var s *keygen.Scheme
	for _, o := range in.Own {
		if o.Name == "hash8" {
			s = o
		}
	}
	k := 2 // newest-8
	q := in.Questions[k]
	p := question.Derive(q, s)
	if p.ShareTop() != 4 {
		t.Fatalf("share %d; want 4", p.ShareTop())
	}
	m := question.NewModel(in.Pop, s, in.Seeded)
	var picked keygen.Entity
	in.Pop.Entity(0, &picked) // contoso's: the known value is all that counts
	if v, _ := in.Pop.Value(&picked, "tenant"); v.Str != "contoso" {
		t.Fatalf("entity 0 is %s's", v.Str)
	}
	var reqs, visited, n float64
	for size := int64(10_000); size <= in.Seeded; size += 7 {
		_, c, err := m.Ask(context.Background(), p, &picked, question.BoundsOf(in.Pop, size))
		if err != nil {
			t.Fatal(err)
		}
		reqs += float64(c.Requests - 8)
		visited += float64(c.Visited - 8*4)
		n++
	}
	reqs, visited = reqs/n, visited/n
	law := secondRound(8, 1.0/8, 4, true)
	wantReqs, wantRows := 8*law.prob, 8*law.rows
	if math.Abs(reqs/wantReqs-1) > 0.25 || math.Abs(visited/wantRows-1) > 0.25 {
		t.Errorf("second rounds: %.4f requests and %.4f rows a question over %.0f; the judge's law %.4f and %.4f", reqs, visited, n, wantReqs, wantRows)
	}
	pred, err := in.Judge(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if j := pred.Seeded.Questions[k].RequestsPerQuestion - 8; math.Abs(j/wantReqs-1) > 0.1 {
		t.Errorf("the judge's newest-8 asks %.4f requests past the first round; its law %.4f", j, wantReqs)
	}
	t.Logf("second rounds: %.4f requests, %.4f rows a question over %.0f sizes; the law %.4f, %.4f", reqs, visited, n, wantReqs, wantRows)
}
