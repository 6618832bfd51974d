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

// rankRound is the executor's rule (question.Plan's again) summed over
// every order of the rows, by recursion: rows come one by one, each in
// bucket j with chance p_j; the bucket of kind i is asked again when its
// s-th row comes while the rows the other buckets' shares hold newer than
// it (min(s, theirs) each) leave its rank below n, for the rows it falls
// short by. A bucket whose share is full draws no more rows that count,
// so the next row that counts is drawn among the others.
func rankRound(n, s int, kinds []bucketKind, i int) second {
	var ps []float64
	for j, k := range kinds {
		m := int(k.mult)
		if j == i {
			m--
		}
		for range m {
			ps = append(ps, k.p)
		}
	}
	var walk func(own, sum int, counts []int, pr float64) second
	walk = func(own, sum int, counts []int, pr float64) second {
		if own == s {
			return second{pr, pr * float64(n-s-sum)}
		}
		live := kinds[i].p
		for j, p := range ps {
			if counts[j] < s {
				live += p
			}
		}
		out := walk(own+1, sum, counts, pr*kinds[i].p/live)
		for j, p := range ps {
			if counts[j] == s || sum+1 >= n-s {
				continue // capped, or the rank reaches n: not asked
			}
			counts[j]++
			o := walk(own, sum+1, counts, pr*p/live)
			counts[j]--
			out.prob, out.rows = out.prob+o.prob, out.rows+o.rows
		}
		return out
	}
	return walk(0, 0, make([]int, len(ps)), 1)
}

// mergedRound's law against the executor's rule summed over every order
// of the rows (rankRound): alike buckets, and a skewed group (a hash of
// three values filling three buckets unevenly, shares asked as for 8);
// one bucket holding every row is asked again for all but its share; a
// group short of the answer returns each bucket's rows past its share.
func TestSecondRound(t *testing.T) {
	for _, tc := range []struct {
		n, s  int
		kinds []bucketKind
	}{
		{8, 4, []bucketKind{{4, 0.25}}},
		{12, 5, []bucketKind{{3, 1.0 / 3}}},
		{10, 4, []bucketKind{{1, 0.6}, {1, 0.3}, {1, 0.1}}},
		{9, 3, []bucketKind{{2, 0.3}, {2, 0.2}}},
	} {
		for i := range tc.kinds {
			got, want := mergedRound(tc.n, tc.s, tc.kinds, i), rankRound(tc.n, tc.s, tc.kinds, i)
			if math.Abs(got.prob-want.prob) > 1e-4 || math.Abs(got.rows-want.rows) > 1e-3 || want.prob < 0.01 {
				t.Errorf("n %d, s %d, %v, kind %d: %+v; the executor's rule %+v", tc.n, tc.s, tc.kinds, i, got, want)
			}
		}
	}
	if all := mergedRound(100, 15, []bucketKind{{1, 1}}, 0); math.Abs(all.prob-1) > 1e-9 || math.Abs(all.rows-85) > 1e-9 {
		t.Errorf("one bucket: %+v; want asked again for the 85 rows after its share", all)
	}
	if short := shortRound(10, 1, 4); math.Abs(short.rows-6) > 1e-9 {
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
	law := mergedRound(8, 4, []bucketKind{{8, 1.0 / 8}}, 0)
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
