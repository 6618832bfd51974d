package workload

import (
	"context"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// walks is a scenario whose questions walk time-bucket partitions: readings
// ten minutes apart span days (1,500 of them ten days), and one scheme spreads each device's day
// over four hash buckets; another spreads a device over 8 buckets of its
// status, which three values weighted 80/15/5 fill unevenly, so a fan-out
// by shares asks a bucket again (question.Share), and a third does so in
// an index table, whose rows point at the main rows read after them.
const walks = `
seed: 11
population:
  entities: 3000
  start: 2025-03-01T20:00:00Z
  interval: 10m
  payload: 16B
  fields:
    device: {kind: id, count: 6, prefix: dev-, width: 2}
    status: {kind: choice, values: [ok, warn, fail], weights: [80, 15, 5]}
questions:
  - {name: newest, known: [device], want: newest, limit: 80}
  - {name: oldest, known: [device], want: oldest, limit: 30}
  - {name: day, known: [device], want: all, window: day}
  - {name: last-3h, want: newest, window: 3h}
  - {name: failures, known: [status], want: newest, limit: 15}
schemes:
  - builtin: device-date
  - name: device-day-buckets
    partition_key: "{device}_{time:yyyy-MM-dd}_{hash(guid) % 4}"
    row_key: "{inverted_ticks}"
  - name: hour-buckets
    partition_key: "{time:yyyy-MM-dd-HH}-{hash(device) % 3}"
    row_key: "{ticks}"
  - name: status-buckets
    partition_key: "{device}-{hash(status) % 8}"
    row_key: "{inverted_ticks}"
  - name: status-index
    partition_key: "{guid}"
    row_key: "{guid}"
    indexes:
      - {name: ByDevice, partition_key: "{device}-{hash(status) % 8}", row_key: "{inverted_ticks}"}
workload:
  mix:
    - {question: newest}
`

// On a table seeded and not written to, every scheme's plan answers every
// question of the ready scenarios (and of walks) exactly as the population
// model says, in the asked order, through the SDK and the embedded service:
// a wrong merge or a missed bucket fails it.
func TestQuestionsAnswerExactlyOnTheService(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := TableService{Service: open(t, in.ConnectionString(), 4), Local: in}
	// Entities seeded: enough for every question to walk several time
	// buckets or find more matches than it asks for; event-logs' questions
	// return every row (the SDK decodes each, slowly under -race).
	files := map[string]int64{"iot-telemetry.yaml": 1500, "ecommerce-orders.yaml": 1500, "multi-tenant.yaml": 1500, "event-logs.yaml": 600, "blog-posts.yaml": 1500}
	for f, n := range files {
		t.Run(f, func(t *testing.T) { checkAnswers(t, svc, lean(readScenario(t, f)), n) })
	}
	t.Run("walks", func(t *testing.T) { checkAnswers(t, svc, walks, 1500) })
	t.Run("feeds", func(t *testing.T) { checkAnswers(t, svc, feeds, 1500) })
}

// feeds is a notification feed whose one-by-id question reads a secondary
// row of the entity's partition, and whose index tables carry the entity
// (or the fields a question selects and filters on), so no point read
// follows them.
const feeds = `
seed: 12
population:
  entities: 1500
  interval: 1s
  payload: 16B
  fields:
    user: {kind: id, count: 30, distribution: zipf(1.0)}
    kind: {kind: choice, values: [like, follow, mention]}
    id: {kind: guid}
questions:
  - {name: feed, known: [user], want: newest, limit: 20}
  - {name: one, known: [user, id], want: one}
  - {name: kind, known: [kind], want: newest, limit: 30}
  - {name: kind-of-user, known: [kind, user], want: newest, limit: 5, select: [user]}
schemes:
  - name: copies
    partition_key: "{user}"
    row_key: "T_{inverted_ticks}"
    rows: ["ID_{id}"]
    indexes:
      - {name: ByKind, partition_key: "{kind}_{hash(id) % 3}", row_key: "{inverted_ticks}", carries: all}
  - name: users
    partition_key: "{hash(id) % 4}"
    row_key: "{id}"
    indexes:
      - {name: ByKindUser, partition_key: "{kind}", row_key: "{inverted_ticks}", carries: [user]}
workload:
  mix:
    - {question: feed}
`

var payloadRE = regexp.MustCompile(`(?m)^  payload: .*$`)

// lean drops a scenario's payload: the answers and their costs in rows
// and requests do not depend on it, and the SDK decodes every entity of a
// scan (slowly under -race).
func lean(src string) string { return payloadRE.ReplaceAllString(src, "  payload: 0B") }

// checkAnswers seeds n entities of the scenario under each scheme and asks
// each question for a few picked entities.
func checkAnswers(t *testing.T, svc TableService, src string, n int64) {
	sp := spec(t, src, plan.Overrides{Entities: &n})
	if len(sp.Scenario.Questions) == 0 {
		t.Fatal("the scenario asks no question")
	}
	qs, err := sp.Scenario.CompileQuestions(sp.Pop)
	if err != nil {
		t.Fatal(err)
	}
	for i, sch := range sp.Schemes {
		name := FreshTableName(sp.Scenario.DisplayName())
		c := Config{Spec: sp, Scheme: i, Service: svc, Table: name, SeedOnly: true, Keep: true}
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		plan, err := plan.NewPlan(sp.Scenario, sp.Pop, sch, n, sp.Seed)
		if err != nil {
			t.Fatal(err)
		}
		x := askingExecutor(svc, plan, name)
		for k, q := range qs {
			p := plan.Questions[k]
			for _, i := range picks(t, sp.Scenario, q.Name, n) {
				var e keygen.Entity
				sp.Pop.Entity(i, &e)
				rows, err := p.Execute(context.Background(), newAskSource(x), &e, question.BoundsOf(sp.Pop, n))
				if err != nil {
					t.Fatalf("%s under %s: %v", q.Name, sch.Name, err)
				}
				got := make([]int64, len(rows))
				for r, row := range rows {
					got[r] = row.Seq
				}
				want := expected(q, sp.Pop, &e, n)
				if q.Want == question.All {
					slices.Sort(got)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s under %s (%s) for entity %d: %d entities %v..., want %d %v...", q.Name, sch.Name, p.Label(), i, len(got), got[:min(len(got), 6)], len(want), want[:min(len(want), 6)])
				}
			}
		}
	}
}

// askingExecutor is a worker's executor over the scheme's seeded tables.
func askingExecutor(svc TableService, pl *plan.Plan, table string) *executor {
	st := keygen.NewStream(1, 1)
	reg := metrics.NewRegistry(metrics.Options{Start: time.Now()})
	x := &executor{plan: pl, main: svc.Store(table), a: attempts{rec: reg.NewRecorder(), retry: plan.NewRetrier(scenario.Retry{Kind: "none"}), st: &st, clock: clock.Wall{}}}
	for _, ix := range pl.Scheme.Indexes {
		x.indexes = append(x.indexes, svc.Store(table+ix.Name))
	}
	return x
}

// picks are the entities a question is asked for: the first, the last,
// and three its request distribution picks.
func picks(t *testing.T, sc *scenario.Scenario, name string, n int64) []int64 {
	d, err := keygen.ParseDistribution(questionDistribution(sc, name))
	if err != nil {
		t.Fatal(err)
	}
	st := keygen.NewStream(5, keygen.NameHash(name))
	return []int64{0, n - 1, d.Pick(&st, n), d.Pick(&st, n), d.Pick(&st, n)}
}

// questionDistribution is the request distribution the mix asks a
// question with: its first mix entry's own, else the workload's.
func questionDistribution(sc *scenario.Scenario, name string) string {
	for _, op := range sc.Workload.Mix {
		if op.Op == "question" && op.Question == name && op.Distribution != "" {
			return string(op.Distribution)
		}
	}
	return string(sc.Workload.Distribution)
}

// expected is the answer the population gives on a table holding
// entities [0, n) and nothing else, whatever the scheme, found by brute
// force: the indexes of the entities with the picked entity's value of
// every known field (and its event time when known), inside the window
// (ending at the newest entity's event time, or the picked one's for
// anchor: picked), newest first (event time grows with the index) for newest and one,
// oldest first for oldest and all, cut to the limit.
func expected(q *question.Question, pop *keygen.Population, picked *keygen.Entity, n int64) []int64 {
	last := question.BoundsOf(pop, n).Last // now: a window ends there unless anchored at the picked entity
	matches := func(e *keygen.Entity) bool {
		for _, f := range q.Fields() {
			if !pop.Equal(picked, e, f) {
				return false
			}
		}
		t := keygen.Ticks(e.Time)
		if q.KnowsTime() && t != keygen.Ticks(picked.Time) {
			return false
		}
		w, ok := q.WindowOf(picked.Time, last)
		return !ok || w.Contains(t)
	}
	var out []int64
	full := func() bool {
		return (q.Ordered() && q.Limit > 0 && len(out) >= q.Limit) || (q.Want == question.One && len(out) > 0)
	}
	var e keygen.Entity
	newest := q.Want == question.Newest || q.Want == question.One
	for k := int64(0); k < n && !full(); k++ {
		i := k
		if newest {
			i = n - 1 - k
		}
		pop.Entity(i, &e)
		if matches(&e) {
			out = append(out, i)
		}
	}
	return out
}
