package advise

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// A question no scheme answers within the bound makes the load
// infeasible, named with the cheapest plan there is; nothing is
// recommended.
func TestInfeasibleQuestionBound(t *testing.T) {
	opts := Defaults()
	opts.MaxQuestionRequests = 0.5
	a := adviseWith(t, "iot-telemetry", opts)
	if a.Infeasible == nil || len(a.Infeasible.Questions) != 2 || a.Recommended != nil {
		t.Fatalf("infeasible %+v, recommended %+v", a.Infeasible, a.Recommended)
	}
	if q := a.Infeasible.Questions[0]; !strings.Contains(q, "newest-by-device") || !strings.Contains(q, "1 request a question") {
		t.Errorf("%q", q)
	}
}

// Under Cosmos DB a table provisioned below what the workload is charged
// is infeasible at that throughput: it says the request units to
// provision (what the cheapest scheme is charged, over the headroom,
// rounded up to 100 RU/s) and advises at them.
func TestInfeasibleRequestUnits(t *testing.T) {
	opts := Defaults()
	var err error
	if opts.Model, err = model.Parse("cosmos,ru=400"); err != nil {
		t.Fatal(err)
	}
	a := adviseWith(t, "iot-telemetry", opts)
	inf := a.Infeasible
	if inf == nil || a.Split == nil || a.Recommended == nil {
		t.Fatalf("infeasible %+v, split %v", inf, a.Split != nil)
	}
	least := math.Inf(1)
	for _, c := range a.Ranked {
		least = math.Min(least, c.Prediction.Cosmos.TotalPerSec)
	}
	if want := math.Ceil(least/0.7/100) * 100; inf.RequestUnits != want || a.Split.Input.Opts.Model.Cosmos.RU != want {
		t.Errorf("request units needed %v (advised at %v), want %v", inf.RequestUnits, a.Split.Input.Opts.Model.Cosmos.RU, want)
	}
	if a.Split.Infeasible != nil {
		t.Errorf("at %v RU/s still infeasible: %+v", inf.RequestUnits, a.Split.Infeasible)
	}
	// The proof runs at the throughput advised.
	_, src := load(t, "iot-telemetry")
	out, err := ProofScenario(src, a, a.mustPlan(t, ProofOptions{RecommendedOnly: true}))
	if err != nil {
		t.Fatal(err)
	}
	sc, errs := scenario.Parse("proof.yaml", out)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if m, err := model.Parse(sc.Embedded.Model); err != nil || m.Cosmos.RU != inf.RequestUnits {
		t.Errorf("the proof runs under %q, want %v RU/s", sc.Embedded.Model, inf.RequestUnits)
	}
}

// everyOrder is an order store whose customers never retire and whose
// order page lists every order a customer ever placed: 10,000 customers
// at 2,500 orders/s (ecommerce-orders before its orders retired).
const everyOrder = `
name: every-order
seed: 13
population:
  entities: 20k
  interval: 400us
  payload: 256B
  fields:
    customer: {kind: id, count: 10000, prefix: cust-, width: 5}
    order: {kind: sequence, start: 100000}
questions:
  - {name: orders-of-customer, known: [customer], want: all}
  - {name: order, known: [order], want: one}
schemes:
  - builtin: constant
  - builtin: customer
  - builtin: customer-year
  - builtin: hash-buckets
workload:
  rate: 2800/s
  mix:
    - {op: insert, weight: 2500}
    - {op: point_read, weight: 280}
    - {op: partition_scan, weight: 20, max_pages: 1}
    - {question: orders-of-customer, weight: 2}
    - {question: order, weight: 1}
`

// A question no design serves is named with how long one question takes
// under the fastest design and what would change it: a customer of
// 10,000 has a year of orders at the horizon, 7.9 million rows, minutes
// of reading however rarely it is asked (a lower rate would not help, so
// it is not offered). The rows it returns a second are not weighed
// against the account, whose target counts requests.
func TestInfeasibleNamesTheQuestion(t *testing.T) {
	sc, errs := scenario.Parse("every-order.yaml", []byte(everyOrder))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := adviseParsed(t, sc, Defaults())
	inf := a.Infeasible
	if inf == nil || len(inf.Questions) != 1 || a.Recommended != nil || inf.Accounts != 0 {
		t.Fatalf("infeasible %+v, recommended %+v", inf, a.Recommended)
	}
	for _, want := range []string{"orders-of-customer takes ", "minutes a question under every scheme", "7,875,56", "rows visited a question at the horizon",
		"a window of ", "data kept for ", "a count or summary kept beside the data"} {
		if !strings.Contains(inf.Reason, want) {
			t.Errorf("missing %q in %q", want, inf.Reason)
		}
	}
	for _, not := range []string{"entities/s an account", "at most once every", "times a second"} {
		if strings.Contains(inf.Reason, not) {
			t.Errorf("%q in %q", not, inf.Reason)
		}
	}
	// At the horizon a customer of 10,000 that never retires holds a
	// year of its orders (on the seeded table, a few).
	c := candidate(t, a, "customer")
	q, seeded := c.Prediction.Questions[0], c.Prediction.Seeded.Questions[0]
	want := a.Input.InsertRate() * a.Input.Opts.Horizon.Seconds() / 10000
	if q.Name != "orders-of-customer" || q.RowsPerQuestion < 0.99*want || q.RowsPerQuestion > 1.01*want || seeded.RowsPerQuestion > 4 {
		t.Errorf("%s returns %v rows at the horizon (%v seeded), want about %v", q.Name, q.RowsPerQuestion, seeded.RowsPerQuestion, want)
	}
}

// A question that would take longer than the horizon is said in words,
// not as a count of milliseconds.
func TestTakesWords(t *testing.T) {
	year := 365 * 24 * time.Hour
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{7 * time.Minute, "takes 7 minutes a question"},
		{400 * 24 * time.Hour, "never completes"},
		{time.Duration(math.MaxInt64), "never completes"},
	} {
		if got := takesWords(c.d, year); !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: %q, want %q", c.d, got, c.want)
		}
	}
}

// When nothing serves the load, the candidates are ranked by how far
// over their limits they are, the nearest first: never first a scheme a
// thousand times further than another.
func TestInfeasibleRankedByHowFarOver(t *testing.T) {
	a := adviseOn(t, "account-limit")
	prev := 0.0
	for _, c := range a.Ranked {
		if len(c.Problems) == 0 {
			t.Fatalf("%s serves the full load", c.Spec.Name)
		}
		if c.Over < prev*(1-costTie) {
			t.Errorf("%s is %v over, after one %v over", c.Spec.Name, c.Over, prev)
		}
		prev = math.Max(prev, c.Over)
	}
	if inf := a.Infeasible; inf == nil || inf.Accounts != 3 || !strings.Contains(inf.Reason, "writes alone ask at least 30,000 requests/s") {
		t.Errorf("infeasible %+v: want 3 accounts for the writes", inf)
	}
}

// Ranking what cannot serve the load goes by how far over its limits
// each candidate is, not by how many problems it has: a scheme hot a
// thousand times over ranks after one a little over on two counts.
func TestRankByHowFarOver(t *testing.T) {
	in := adviseOn(t, "iot-telemetry").Input
	hot, account := judge.Finding{Kind: judge.HotPartition}, judge.Finding{Kind: judge.AccountRequests}
	far := &Candidate{Problems: []judge.Finding{hot}, Over: 1000, Prediction: &Prediction{}}
	near := &Candidate{Problems: []judge.Finding{hot, account}, Over: 1.1, Prediction: &Prediction{}}
	cs := []*Candidate{far, near}
	in.rank(cs)
	if cs[0] != near {
		t.Errorf("ranked the candidate %v over first, before one %v over", cs[0].Over, cs[1].Over)
	}
}
