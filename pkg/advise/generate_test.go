package advise

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// adviseSource advises scenario source src with the default options.
func adviseSource(t *testing.T, name, src string) *Advice {
	t.Helper()
	sc, errs := scenario.Parse(name, []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return adviseParsed(t, sc, Defaults())
}

// adviseParsed advises a parsed scenario with opts.
func adviseParsed(t *testing.T, sc *scenario.Scenario, opts Options) *Advice {
	t.Helper()
	in, err := Prepare(sc, opts)
	if err != nil {
		t.Fatal(err)
	}
	a, err := in.Advise(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// planOf is question name's plan label under pick r.
func planOf(t *testing.T, r *Pick, name string) string {
	t.Helper()
	for _, q := range r.Predicted.Questions {
		if q.Name == name {
			return q.Label
		}
	}
	t.Fatalf("no question %s", name)
	return ""
}

// kindFeed is a feed whose two kinds each take 2,000 writes a second:
// more than a partition takes, so an index by kind needs hash buckets of
// its own (and a time bucket: it grows past the bound in minutes).
const kindFeed = `
population:
  entities: 20k
  interval: 250us
  fields:
    user: {kind: id, count: 20000}
    kind: {kind: choice, values: [like, follow]}
    id: {kind: guid}
questions:
  - {name: feed, known: [user], want: newest, limit: 20}
  - {name: kind-newest, known: [kind], want: newest, limit: 50}
schemes:
  - {name: user, partition_key: "{user}", row_key: "{inverted_ticks}"}
workload:
  rate: 4010
  mix:
    - {op: insert, weight: 4000}
    - {question: feed, weight: 9}
    - {question: kind-newest, weight: 1}
`

// Index tables are judged as tables of their own: the index by kind
// spreads each kind over hash buckets and a minute's time bucket, and the
// main table is keyed by the most-asked question's field (the feed's
// user), its time bucket the coarsest that keeps a user's partition
// under the bound (a month). Its mirror, the main table by kind in the
// same buckets and an index by user, costs the same: kind-newest asks
// the 2 buckets of the index for their shares of the 50, as it asks the
// main table's, so the two are the recommendation and the runner-up.
func TestIndexJudgedAsATable(t *testing.T) {
	a := adviseSource(t, "kind-feed.yaml", kindFeed)
	var r, mirror *Pick
	for _, p := range []*Pick{a.Recommended, a.RunnerUp} {
		switch {
		case p == nil || len(p.Indexes) != 1:
		case strings.HasPrefix(p.PartitionKey, "{user}"):
			r = p
		case strings.HasPrefix(p.PartitionKey, "{kind}") && strings.HasPrefix(p.Indexes[0].PartitionKey, "{user}"):
			mirror = p
		}
	}
	if r == nil || mirror == nil {
		t.Fatalf("recommended %+v, runner-up %+v: want the main table by user with an index by kind, and its mirror", a.Recommended, a.RunnerUp)
	}
	kn := func(p *Pick) judge.QuestionCost {
		for _, q := range p.Predicted.Questions {
			if q.Name == "kind-newest" {
				return q
			}
		}
		t.Fatalf("%s: no kind-newest", p.Name)
		return judge.QuestionCost{}
	}
	if x, m := kn(r), kn(mirror); math.Abs(x.RowsVisitedPerQuestion-m.RowsVisitedPerQuestion) > 1e-6*m.RowsVisitedPerQuestion || m.RowsVisitedPerQuestion >= 100 {
		t.Errorf("kind-newest visits %.2f rows through the index, %.2f through the main table; want the same, each bucket asked for its share of the 50", x.RowsVisitedPerQuestion, m.RowsVisitedPerQuestion)
	}
	ix := r.Indexes[0]
	if !strings.HasPrefix(ix.PartitionKey, "{kind}") || !strings.Contains(ix.PartitionKey, "{hash(") || !strings.Contains(ix.PartitionKey, "{time:") {
		t.Errorf("index %+v: want kind over hash and time buckets", ix)
	}
	if p := planOf(t, r, "kind-newest"); p != "index "+ix.Name {
		t.Errorf("kind-newest: %s", p)
	}
	if in := a.Input; r.Predicted.BusiestEntitiesPerSec > in.Opts.Headroom*in.PartitionTarget() || !in.bounded(r.Predicted) {
		t.Errorf("busiest %v entities/s, largest partition %v rows", r.Predicted.BusiestEntitiesPerSec, r.Predicted.LargestPartitionRows)
	}
}

// A help desk scans a minute of its tickets (a partition picked among a
// year's) 30 times a second: over 8 hash buckets each scan visits 3,000
// rows, within what one pass can read, but each runs its partition
// server a fifth of a second into debt and the servers refuse 45% of the
// requests. The search for buckets goes on past the pass limit, though
// the refused share stays at all the requests over the first doublings
// (the pass shrinks), to the fewest buckets whose scans keep the
// refusals under MaxThrottled.
func TestBucketsSearchedPastTheRefusalsOfPassDebt(t *testing.T) {
	src, err := os.ReadFile("testdata/tickets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := adviseSource(t, "tickets", string(src))
	r := a.Recommended
	if r == nil {
		t.Fatal("nothing recommended")
	}
	p := r.Candidate.Prediction
	if r.Candidate.SearchedBuckets <= 8 || p.ThrottledShare > MaxThrottled {
		t.Errorf("recommended %s (%d buckets searched), %.2f%% of the requests refused: want more than 8 buckets, under %.0f%%", r.Candidate.Spec.PartitionKey, r.Candidate.SearchedBuckets, 100*p.ThrottledShare, 100*MaxThrottled)
	}
	if f := r.Candidate.Fewer; f == nil || f.Prediction.ThrottledShare <= MaxThrottled {
		t.Errorf("the candidate with a bucket fewer is not over the refusals: %+v", f)
	}
}
