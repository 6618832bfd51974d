package advise

import (
	"strings"
	"testing"
)

// depotLatest is parcel tracking whose dashboard asks a depot's newest
// scan 6,000 times a second, one of 20 zipf-skewed depots taking 28% of
// the asks: whatever the keys, that depot's newest scan is in one
// partition (and, spread over hash buckets, each bucket is asked for its
// newest one), so its reads alone take about 1,668 entities/s of it.
const depotLatest = `name: depot-latest
seed: 5
population:
  entities: 100k
  start: 2025-06-10T00:00:00Z
  interval: 1ms
  payload: 256B
  fields:
    parcel: {kind: id, prefix: P, lifetime: {span: 72h, entities: 10}}
    depot: {kind: id, count: 20, prefix: D, width: 2, distribution: zipf(1.0)}
questions:
  - {name: history, known: [parcel], want: all, pick: {parcel: uniform}}
  - {name: depot-latest, known: [depot], want: newest, limit: 1}
schemes:
  - {name: parcel, partition_key: "{parcel}", row_key: "{inverted_ticks}"}
workload:
  rate: 7500/s
  mix:
    - {op: insert, weight: 1000}
    - {question: history, weight: 500}
    - {question: depot-latest, weight: 6000}
`

// A question whose reads alone make a partition hot under every design
// is an exception: the rest (the parcel's history and the writes) is
// recommended its design, a partition per parcel, and the exception says
// what the question's reads take of which partition, against what, and
// what would change it: a lower rate (within 1,400 of 1,668 entities/s),
// a count kept beside the data, or a cache. No smaller limit is offered:
// it asks one row.
func TestQuestionHotByItsReadsIsAnException(t *testing.T) {
	sc := parseVariant(t, "depot-latest.yaml", []byte(depotLatest))
	a := adviseParsed(t, sc, Defaults())
	r := a.Recommended
	if !a.WithExceptions() || r.PartitionKey != "{parcel}" || len(r.Indexes) != 0 {
		t.Fatalf("recommended %+v, infeasible %+v: want a partition per parcel, with exceptions", r, a.Infeasible)
	}
	ex := a.Infeasible.Exceptions
	if len(ex) != 1 || ex[0].Question != "depot-latest" {
		t.Fatalf("exceptions %+v: want depot-latest", ex)
	}
	for _, want := range []string{"depot-latest makes every scheme hot by its own reads", `its reads alone take 1,668 entities/s of partition "`,
		"at least that much of one partition under every design, over the 1,400 (70% of 2,000)", "a lower rate, at most 5,037 times a second",
		summaryWay, cacheWay} {
		if !strings.Contains(ex[0].Why, want) {
			t.Errorf("missing %q in %q", want, ex[0].Why)
		}
	}
	if strings.Contains(ex[0].Why, "a limit of") {
		t.Errorf("a smaller limit offered for one row: %q", ex[0].Why)
	}
}

// Asked for a depot's newest 200 scans 50 times a second instead, the
// dashboard's reads alone take 2,800 entities/s of the busiest depot's
// partition under a design of one partition per depot, but spread over 4
// hash buckets each asked for its share they are within the headroom
// (hotBy over under some candidates, not all):
// the design is recommended and the question is no exception.
func TestHeavyQuestionSomeDesignServesIsNoException(t *testing.T) {
	sc := parseVariant(t, "depot-latest.yaml", []byte(depotLatest), "limit: 1}", "limit: 200}",
		"rate: 7500/s", "rate: 1550/s", "weight: 6000", "weight: 50")
	a := adviseParsed(t, sc, Defaults())
	r := a.Recommended
	if a.Infeasible != nil || r == nil || len(r.Indexes) != 1 || !strings.Contains(r.Indexes[0].PartitionKey, "% 4") {
		t.Fatalf("recommended %+v, infeasible %+v: want an index over 4 hash buckets, no exceptions", r, a.Infeasible)
	}
	in, err := Prepare(sc, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	heavy := false
	for _, c := range a.Ranked {
		_, over := in.hotBy(c.Prediction, 1)
		heavy = heavy || over
	}
	if !heavy {
		t.Errorf("depot-latest's reads alone are within the headroom under every design: want some over it")
	}
	if names, _ := in.hotQuestions(a.Ranked); len(names) != 0 {
		t.Errorf("hot questions %v: want none", names)
	}
}
