package advise

import (
	"context"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// feed is a notification feed read far more than it is written: 200,000
// users, 1,000 notifications a second, each user's newest 30 opened 3,360
// times a second. The feed returns 100,800 rows a second, five times the
// account's 20,000 requests/s target in rows, but in 3,360 requests (a
// page each) under a partition per user.
const feed = `
name: feed
seed: 3
population:
  entities: 200k
  start: 2025-06-10T00:00:00Z
  interval: 1ms
  payload: 256B
  fields:
    user: {kind: id, count: 200000, prefix: u, width: 6}
questions:
  - {name: feed, known: [user], want: newest, limit: 30, pick: {user: uniform}}
schemes:
  - {name: user, partition_key: "{user}", row_key: "{inverted_ticks}"}
workload:
  rate: 4360/s
  mix:
    - {op: insert, weight: 1000}
    - {question: feed, weight: 3360}
`

// The account's target counts requests (Azure's "20,000 transactions per
// second"), a query page once, never the rows a page returns: the feed is
// recommended under a partition per user, its rows returned a second far
// over 20,000 and its requests well under.
func TestAccountCountsRequestsNotRows(t *testing.T) {
	sc, errs := scenario.Parse("feed.yaml", []byte(feed))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := adviseParsed(t, sc, Defaults())
	r := a.Recommended
	if a.Infeasible != nil || r == nil || r.PartitionKey != "{user}" {
		t.Fatalf("recommended %+v, infeasible %+v: want the user's own partition", r, a.Infeasible)
	}
	q, _ := costOf(t, r, "feed")
	returned := q.PerSec * q.RowsPerQuestion
	if returned < 5*azure.AccountRequestsPerSec || r.Predicted.AccountRequestsPerSec > 0.3*azure.AccountRequestsPerSec {
		t.Errorf("the feed returns %v rows/s in %v requests/s at the account: want over %d rows in under %v requests",
			returned, r.Predicted.AccountRequestsPerSec, 5*azure.AccountRequestsPerSec, 0.3*azure.AccountRequestsPerSec)
	}
	for _, c := range a.Ranked {
		for _, p := range c.Problems {
			if strings.Contains(a.Input.Words(p), "entities/s an account") {
				t.Errorf("%s: %q", c.Spec.Name, a.Input.Words(p))
			}
		}
	}
}

// When another question cannot be served (every like of a year, 16
// billion rows), the feed is not named beside it: its 100,800 rows a
// second are 3,360 requests, and the question no design serves is said
// with how long it takes.
func TestUnservableIsNotCountedInRows(t *testing.T) {
	src := strings.NewReplacer(
		"    user: {kind: id, count: 200000, prefix: u, width: 6}\n", "    user: {kind: id, count: 200000, prefix: u, width: 6}\n    kind: {kind: choice, values: [like, comment]}\n",
		"pick: {user: uniform}}\n", "pick: {user: uniform}}\n  - {name: every-like, known: [kind], want: all}\n",
		"rate: 4360/s", "rate: 4361/s",
		"    - {question: feed, weight: 3360}\n", "    - {question: feed, weight: 3360}\n    - {question: every-like, weight: 1}\n",
	).Replace(feed)
	if !strings.Contains(src, "every-like, weight: 1") {
		t.Fatal("the feed's lines moved")
	}
	sc, errs := scenario.Parse("feed.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := adviseParsed(t, sc, Defaults())
	inf := a.Infeasible
	if inf == nil || len(inf.Questions) != 1 || !strings.HasPrefix(inf.Questions[0], "every-like takes ") {
		t.Fatalf("infeasible %+v: want every-like alone", inf)
	}
	for _, want := range []string{"days a question under every scheme", "billion rows visited a question", "a count or summary kept beside the data"} {
		if !strings.Contains(inf.Reason, want) {
			t.Errorf("missing %q in %q", want, inf.Reason)
		}
	}
}

// The question no design serves is an exception beside the design for
// the rest of the load: the feed's own partition per user is
// recommended, every-like marked with its cost under it (a table scan of
// the year's 32 billion rows), and the proof runs the rest's load
// without it.
func TestRecommendedWithExceptions(t *testing.T) {
	a, src := adviseWithExceptions(t)
	if !a.WithExceptions() || a.Recommended.PartitionKey != "{user}" || a.Split == nil || a.Split.Peak >= a.Peak {
		t.Fatalf("recommended %+v, infeasible %+v: want the user's partition for the rest", a.Recommended, a.Infeasible)
	}
	ex := a.Infeasible.Exceptions
	if len(ex) != 1 || ex[0].Question != "every-like" || ex[0].RowsVisited < 1e10 || !(ex[0].EntitiesPerSec > 0) || ex[0].Plan == "" || !strings.Contains(ex[0].Why, "a count or summary") {
		t.Errorf("exceptions %+v", ex)
	}
	p, err := a.Plan(context.Background(), ProofOptions{RecommendedOnly: true})
	if err != nil || p == nil {
		t.Fatal(err)
	}
	out, err := ProofScenario([]byte(src), a, p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "every-like") || !strings.Contains(string(out), "question: feed") {
		t.Errorf("the proof's scenario:\n%s", out)
	}
	if _, errs := scenario.Parse("proof.yaml", out); len(errs) > 0 {
		t.Errorf("the proof's scenario does not parse: %v", errs)
	}
}

// adviseWithExceptions advises the feed with a question no design serves
// (every-like, known only by its kind): the advice and its file.
func adviseWithExceptions(t *testing.T) (*Advice, string) {
	t.Helper()
	src := strings.NewReplacer(
		"    user: {kind: id, count: 200000, prefix: u, width: 6}\n", "    user: {kind: id, count: 200000, prefix: u, width: 6}\n    kind: {kind: choice, values: [like, comment]}\n",
		"pick: {user: uniform}}\n", "pick: {user: uniform}}\n  - {name: every-like, known: [kind], want: all}\n",
		"rate: 4360/s", "rate: 4361/s",
		"    - {question: feed, weight: 3360}\n", "    - {question: feed, weight: 3360}\n    - {question: every-like, weight: 1}\n",
	).Replace(feed)
	sc, errs := scenario.Parse("feed.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return adviseParsed(t, sc, Defaults()), src
}
