package judge

import (
	"context"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
)

// A table scan is one query whose pages follow each other (each waits for
// the continuation token of the one before), never a fan-out: under
// {order} (a partition per order), the last minute's orders are a scan
// of the table, its rounds its requests, and its modelled time at least their read latency one after
// another. A point read stays one round; the 25 hash buckets of
// {hash(order) % 25}, each scanned, go out at once (a round per page).
func TestTableScanPagesFollowEachOther(t *testing.T) {
	in := readyInput(t, "order-screen")
	judge := func(pk string) []QuestionCost {
		sch, err := keygen.CompileScheme(in.Pop, keygen.SchemeSpec{Name: "s", PartitionKey: pk, RowKey: "{order}"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := in.JudgeAt(context.Background(), sch, in.DepthSize(1_000_000, 2*time.Second, 10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		return f.Questions
	}
	lat := float64(in.Opts.Model.Latency.Read) / float64(time.Millisecond)
	for _, q := range judge("{order}") {
		switch q.Name {
		case "last-minute":
			if q.Label != "scan (table)" || q.RequestsPerQuestion < 25 || q.RoundsPerQuestion != q.RequestsPerQuestion || q.Ms < q.RequestsPerQuestion*lat {
				t.Errorf("%s: %s, %.1f requests in %.1f rounds, %.1f ms (a read %.1f ms)", q.Name, q.Label, q.RequestsPerQuestion, q.RoundsPerQuestion, q.Ms, lat)
			}
		case "order":
			if q.RoundsPerQuestion != 1 {
				t.Errorf("%s: %.1f rounds, want 1", q.Name, q.RoundsPerQuestion)
			}
		}
	}
	for _, q := range judge("{hash(order) % 25}") {
		if q.Name == "last-minute" && (q.Label != "scan" || q.RoundsPerQuestion*25 > q.RequestsPerQuestion*1.01) {
			t.Errorf("25 buckets scanned at once: %s, %.1f requests in %.1f rounds", q.Label, q.RequestsPerQuestion, q.RoundsPerQuestion)
		}
	}
}

// perEntityScenario has a PartitionKey of its own per entity, a sequence
// ({order}) or a guid ({id}), and questions known by a field outside the
// keys: each is a scan of the table.
const perEntityScenario = `
name: per-entity
seed: 31
population:
  entities: 30000
  interval: 10ms
  fields:
    order: {kind: sequence}
    id: {kind: guid}
    depot: {kind: choice, values: [north, south, east]}
questions:
  - {name: of-depot, known: [depot], want: all}
  - {name: newest-of-depot, known: [depot], want: newest, limit: 1}
schemes:
  - {name: by-order, partition_key: "{order}", row_key: "r"}
  - {name: by-guid, partition_key: "{id}", row_key: "r"}
workload:
  rate: 120
  mix:
    - {op: insert, weight: 100}
    - {question: of-depot, weight: 5}
    - {question: newest-of-depot, weight: 5}
`

// A table scan over a partition per entity crosses every partition the
// seeded table holds, all 30,000 of them, each holding its one entity: a
// page ends at each boundary, so it is 30,000 requests, as the exact
// model pages it, not the 18,964 (30,000·(1-1/e)) that 30,000 partitions
// filled at random would take.
func TestScanOfEntityPartitionsAgreesWithTheModel(t *testing.T) {
	in := prepare(t, "per-entity", []byte(perEntityScenario))
	checkAgainstModel(t, "per-entity", in)
	for _, s := range in.Own {
		p, err := in.Judge(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		m := question.NewModel(in.Pop, s, in.Seeded)
		for k, q := range in.Questions {
			var e keygen.Entity
			in.Pop.Entity(0, &e)
			_, c, err := m.Ask(context.Background(), question.Derive(q, s), &e, question.BoundsOf(in.Pop, in.Seeded))
			if err != nil {
				t.Fatal(err)
			}
			if j := p.Seeded.Questions[k].PartitionsPerQuestion; c.Partitions != 30000 || !near(j, float64(c.Partitions), 1) {
				t.Errorf("%s under %s: judged %.1f partitions, the model %d, want 30,000", q.Name, s.Name, j, c.Partitions)
			}
		}
	}
}
