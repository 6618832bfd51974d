package judge

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// prepare prepares scenario source src with the default options.
func prepare(t *testing.T, name string, src []byte) *Input {
	t.Helper()
	sc, errs := scenario.Parse(name, src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in, err := Prepare(sc, Options{Horizon: DefaultHorizon, Model: model.Default()})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func readyInput(t *testing.T, name string) *Input {
	t.Helper()
	src, err := os.ReadFile("../../scenarios/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return prepare(t, name, src)
}

// modelCost is a question's mean cost on the exact model of the seeded
// table (question.Model, which answers as the service does), over n
// questions picked by its distribution and picks; questions alike in
// their known values are asked once.
func modelCost(t *testing.T, in *Input, m *question.Model, k int, p *question.Plan, n int) (reqs, visited, returned float64) {
	return modelCostAt(t, in, m, k, p, in.Seeded, n)
}

// modelCostAt is modelCost on a model of the table's first size
// entities.
func modelCostAt(t *testing.T, in *Input, m *question.Model, k int, p *question.Plan, size int64, n int) (reqs, visited, returned float64) {
	t.Helper()
	_, dist := in.questionRate(k)
	q := in.Questions[k]
	st := keygen.NewStream(17, keygen.NameHash(q.Name))
	b := question.BoundsOf(in.Pop, size)
	cache := map[string]question.Cost{}
	var e keygen.Entity
	for i := 0; i < n; i++ {
		in.Pop.Entity(dist.Pick(&st, size), &e)
		q.ApplyPicks(&e, q.DrawPicks(&st, nil), size-1)
		key := ""
		cacheable := !single(q) && q.WindowLength() == 0 && !q.KnowsTime()
		if cacheable {
			for _, f := range q.Fields() {
				v, _ := in.Pop.Value(&e, f)
				key += strconv.FormatInt(v.Num, 10) + v.Str + "\x00"
			}
		}
		c, ok := cache[key]
		if !ok || !cacheable {
			_, cost, err := m.Ask(context.Background(), p, &e, b)
			if err != nil {
				t.Fatal(err)
			}
			c = cost
			if cacheable {
				cache[key] = c
			}
		}
		reqs += float64(c.Requests)
		visited += float64(c.Visited)
		returned += float64(c.Returned)
	}
	return reqs / float64(n), visited / float64(n), returned / float64(n)
}

// near reports whether a prediction is within 5% of the model's figure,
// or within abs of it.
func near(pred, exact, abs float64) bool {
	return math.Abs(pred-exact) <= math.Max(0.05*exact, abs)
}

// On the seeded table the judge's laws give what the exact model of the
// seeded rows gives, question by question, for every scheme of the ready
// scenarios (requests, rows visited and rows returned per question, a
// walk over time buckets, a scan, a fan-out, an index, a secondary row).
func TestSeededAgreesWithTheModel(t *testing.T) {
	for _, name := range []string{"iot-telemetry", "iot-skewed", "ecommerce-orders", "event-logs", "multi-tenant", "blog-posts"} {
		in := readyInput(t, name)
		checkAgainstModel(t, name, in)
	}
	checkAgainstModel(t, "feeds", prepare(t, "feeds", []byte(feedsScenario)))
}

func checkAgainstModel(t *testing.T, name string, in *Input) {
	t.Helper()
	for _, s := range in.Own {
		p, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		m := question.NewModel(in.Pop, s, in.Seeded)
		for k, q := range in.Questions {
			plan := question.Derive(q, s)
			n := 3000
			if q.WindowLength() > 0 || (plan.Kind == question.Scan && single(q)) {
				n = 300 // not cached, and each question a scan
			}
			reqs, visited, returned := modelCost(t, in, m, k, plan, n)
			j := p.Seeded.Questions[k]
			if !near(j.RequestsPerQuestion, reqs, 0.05) || !near(j.RowsVisitedPerQuestion, visited, 1) || !near(j.RowsPerQuestion, returned, 0.5) {
				t.Errorf("%s, %s under %s (%s): judged %.2f requests, %.1f visited, %.1f returned; the model %.2f, %.1f, %.1f", name, q.Name, s.Name, plan.Label(),
					j.RequestsPerQuestion, j.RowsVisitedPerQuestion, j.RowsPerQuestion, reqs, visited, returned)
			}
		}
	}
}

// feedsScenario is a notification feed whose one-by-id question reads a
// secondary row, read evenly by user (a pick), with an index table that
// carries the entity.
var feedsScenario = strings.TrimSpace(`
name: feeds
seed: 12
population:
  entities: 30000
  interval: 10ms
  payload: 16B
  fields:
    user: {kind: id, count: 3000, distribution: zipf(1.0)}
    kind: {kind: choice, values: [like, follow, mention]}
    id: {kind: guid}
questions:
  - {name: feed, known: [user], want: newest, limit: 20, pick: {user: uniform}}
  - {name: feed-by-entity, known: [user], want: newest, limit: 20}
  - {name: one, known: [user, id], want: one}
  - {name: kind, known: [kind], want: newest, limit: 30}
  - {name: kind-minute, known: [kind], want: all, window: minute}
schemes:
  - name: copies
    partition_key: "{user}"
    row_key: "T_{inverted_ticks}"
    rows: ["ID_{id}"]
    indexes:
      - {name: ByKind, partition_key: "{kind}_{time:yyyy-MM-dd-HH-mm}_{hash(id) % 3}", row_key: "{inverted_ticks}", carries: all}
  - name: users
    partition_key: "{hash(id) % 4}"
    row_key: "{id}"
    indexes:
      - {name: ByUser, partition_key: "{user}", row_key: "{inverted_ticks}"}
workload:
  rate: 200
  mix:
    - {op: insert, weight: 100}
    - {question: feed, weight: 20}
    - {question: feed-by-entity, weight: 20}
    - {question: one, weight: 20}
    - {question: kind, weight: 20}
    - {question: kind-minute, weight: 1}
`)

// A RowKey whose computed prefix pins a known value the PartitionKey does
// not (an order's rows, {order}_{inverted_ticks}, in one of 4 hash buckets
// of the orders) is a range over that value's rows alone: the judge gives
// what the exact model gives, not the bucket's every row.
func TestRowKeyPrefixAgreesWithTheModel(t *testing.T) {
	src := `
name: forever
seed: 21
population:
  entities: 30000
  interval: 10ms
  fields:
    order: {kind: id, prefix: O, count: 5000}
    depot: {kind: choice, values: [north, south, east]}
questions:
  - {name: events, known: [order], want: all}
  - {name: newest, known: [order], want: newest, limit: 3}
  - {name: of-depot, known: [order, depot], want: all}
schemes:
  - {name: hashed, partition_key: "{hash(order) % 4}", row_key: "{order}_{inverted_ticks}"}
  - {name: by-depot, partition_key: "{depot}", row_key: "{inverted_ticks}"}
workload:
  rate: 120
  mix:
    - {op: insert, weight: 100}
    - {question: events, weight: 5}
    - {question: newest, weight: 5}
    - {question: of-depot, weight: 5}
`
	checkAgainstModel(t, "forever", prepare(t, "forever", []byte(src)))
}

// An event-time span of days is written in whole seconds' days: a
// lifetime derived from rates (72h and a few hundred nanoseconds of a
// float's error) is "3d", not "3.00000000625d"; shorter spans keep
// their milliseconds.
func TestSpanText(t *testing.T) {
	for d, want := range map[time.Duration]string{72*time.Hour + 540: "3d", 365 * 24 * time.Hour: "365d", 36 * time.Hour: "1.5d", 200*time.Second + 500*time.Millisecond: "3m20.5s"} {
		if got := spanText(d); got != want {
			t.Errorf("spanText(%v) = %q, want %q", d, got, want)
		}
	}
}
