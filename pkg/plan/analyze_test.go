package plan

import (
	"math"
	"testing"

	"github.com/tablestress/tablestress/pkg/scenario"
)

func TestGini(t *testing.T) {
	tests := []struct {
		vals []int64
		want float64
	}{
		{[]int64{5, 5, 5, 5}, 0},    // perfectly even
		{[]int64{0, 0, 0, 4}, 0.75}, // one of four carries everything: (n-1)/n
		{[]int64{1, 2, 3, 4}, 0.25}, // Σ|xi-xj|/(2n²μ) = 20/(2·16·2.5)
		{[]int64{7}, 0},             // a single partition
	}
	for _, tt := range tests {
		var total int64
		for _, v := range tt.vals {
			total += v
		}
		if got := gini(tt.vals, total); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("gini(%v) = %v, want %v", tt.vals, got, tt.want)
		}
	}
}

// analyzeSource analyzes the first scheme of the scenario file src.
func analyzeSource(t *testing.T, src string, ops int, rate float64) *Analysis {
	t.Helper()
	s, errs := scenario.Parse("t.yaml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	pop, schemes, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(s, pop, schemes[0], ops, rate)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func analyze(t *testing.T, builtin, mix string, ops int, rate float64) *Analysis {
	t.Helper()
	s, pop, sch := testScenario(t, builtin, "  mix:\n"+mix)
	a, err := Analyze(s, pop, sch, ops, rate)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAnalyzeHotPartitionVersusHashBuckets(t *testing.T) {
	hot := analyze(t, "constant", "    - {op: insert}\n", 10_000, 6000)
	if hot.Workload.Partitions != 1 || hot.Workload.BusiestShare != 1 {
		t.Errorf("constant: %+v", hot.Workload)
	}
	spread := analyze(t, "hash-buckets", "    - {op: insert}\n", 10_000, 6000)
	if spread.Workload.Partitions != 16 || spread.Workload.BusiestShare > 0.08 || spread.Workload.Gini > 0.1 {
		t.Errorf("hash-buckets: %+v", spread.Workload)
	}
	if spread.ExtendShare >= 0.9 {
		t.Errorf("hash buckets: %v of the inserts extend the key range", spread.ExtendShare)
	}
}

func TestAnalyzeMonotonicKeys(t *testing.T) {
	up := analyze(t, "append-only", "    - {op: insert}\n", 2000, 6000)
	if up.AppendShare != 1 || up.ExtendShare != 1 || math.Abs(up.InsertRate-6000) > 1e-9 {
		t.Errorf("append-only: appending %v, share %v, rate %v", up.AppendShare, up.ExtendShare, up.InsertRate)
	}
	down := analyze(t, "prepend-only", "    - {op: insert}\n", 2000, 6000)
	if down.PrependShare < 0.9 || down.AppendShare >= 0.9 {
		t.Errorf("prepend-only: prepending %v, appending %v", down.PrependShare, down.AppendShare)
	}
	scattered := analyze(t, "guid", "    - {op: insert}\n", 2000, 6000)
	if scattered.ExtendShare > 0.05 {
		t.Errorf("guid keys: %v of the inserts extend the key range", scattered.ExtendShare)
	}
}

// Under GUID PartitionKeys a partition holds one entity: the simulation
// measures range queries finding at most 2% of the 50 rows they ask for
// (the one row, rounded up), and batches of one entity of the 50 asked.
func TestAnalyzeGuidPartitionsBreakRangesAndBatches(t *testing.T) {
	a := analyze(t, "guid", "    - {op: range_query, rows: 50}\n    - {op: batch, size: 50}\n", 2000, 100)
	if pop := a.Population; pop.Max != 1 || pop.Mean >= 2 {
		t.Errorf("guid: rows per partition max %d, mean %v; want one entity a partition", pop.Max, pop.Mean)
	}
	if math.Round(100*a.RangeFound) > 2 || a.RangeFound == 0 {
		t.Errorf("guid: range queries find %v of the rows asked, want at most 2%%", a.RangeFound)
	}
	if math.Abs(a.BatchFill-1) > 0.05 || a.BatchAsked != 50 {
		t.Errorf("guid: batches hold %v of %v asked, want 1.0 of 50", a.BatchFill, a.BatchAsked)
	}
	b := analyze(t, "device", "    - {op: range_query, rows: 5}\n", 1000, 100)
	if b.RangeFound < 0.5 {
		t.Errorf("device partitions hold 20 rows each; a 5-row range is satisfied, found %v", b.RangeFound)
	}
}

func TestAnalyzeCrossPartitionRange(t *testing.T) {
	// Day partitions with one entity a second: 2,000 entities span one day, so
	// a PartitionKey range over 100 entities touches one or two partitions.
	a := analyze(t, "date", "    - {op: range_query, rows: 100, across_partitions: true}\n", 500, 10)
	for _, o := range a.PerOp {
		if o.Op == "range_query" && (o.Partitions < 1 || o.Partitions > 2) {
			t.Errorf("date range touches %.2f partitions per query", o.Partitions)
		}
	}
	g := analyze(t, "guid", "    - {op: range_query, rows: 100, across_partitions: true, max_pages: 0}\n", 200, 10)
	for _, o := range g.PerOp {
		if o.Op == "range_query" && o.Partitions < 20 {
			t.Errorf("a GUID PartitionKey range should visit many partitions, got %.1f", o.Partitions)
		}
	}
}

func TestAnalyzePopulationSkew(t *testing.T) {
	a := analyze(t, "natural", "    - {op: point_read}\n", 5000, 1000)
	if a.Population.Partitions != 5 || a.Population.Busiest != "Engineering" || math.Abs(a.Population.BusiestShare-0.8) > 0.03 {
		t.Errorf("natural grouping: %+v", a.Population)
	}
	if len(a.Examples) != 5 || a.Examples[0].PartitionKey == "" {
		t.Errorf("examples: %+v", a.Examples)
	}
}

// A scheme where most partitions hold one entity but one holds a thousand
// is not one partition per entity: the population's summary says both.
func TestAnalyzeMostlySingletonPartitions(t *testing.T) {
	src := `population:
  entities: 20000
  fields:
    customer: {kind: id, count: 1000000, distribution: "hotspot(0.000001,0.05)"}
schemes:
  - {name: bucketed, partition_key: "{customer}-{hash(i) % 2}", row_key: "{i:08}"}
workload:
  mix: [{op: point_read}]
`
	a := analyzeSource(t, src, 1000, 100)
	if a.Population.Max < 200 || a.Population.Mean >= 2 || a.Population.P99 > 2 {
		t.Errorf("want most partitions of one entity (mean under 2 rows, p99 at most 2) and the busiest of 200 or more: %+v", a.Population)
	}
}

// keys puts a question's load on the partitions it reads: under a GUID
// RowKey the newest readings of the one device scan its whole partition,
// as the rows written by the time it is asked, every time it is asked.
func TestAnalyzeQuestionLoad(t *testing.T) {
	analyzeMix := func(mix string) *Analysis {
		t.Helper()
		src := `population:
  entities: 2000
  interval: 1s
  fields:
    device: {kind: id, count: 1, prefix: d-}
questions:
  - {name: newest, known: [device], want: newest, limit: 50}
schemes:
  - {name: g, partition_key: "{device}", row_key: "{guid}"}
workload:
  mix: ` + mix + "\n"
		return analyzeSource(t, src, 200, 100)
	}
	opOf := func(a *Analysis, name string) OpAnalysis {
		for _, o := range a.PerOp {
			if o.Op == name {
				return o
			}
		}
		t.Fatalf("no %s in %+v", name, a.PerOp)
		return OpAnalysis{}
	}

	a := analyzeMix("[{question: newest}]")
	q := opOf(a, "question")
	if q.Ops != 200 || q.Entities != 200*2000 || q.Partitions != 1 || a.Workload.Max != 200*2000 {
		t.Errorf("questions alone: %+v, busiest %d rows; want 200 scans of the 2,000 rows", q, a.Workload.Max)
	}

	a = analyzeMix("[{question: newest}, {op: insert}]")
	q, ins := opOf(a, "question"), opOf(a, "insert")
	if lo, hi := int64(q.Ops)*2000, int64(q.Ops)*(2000+ins.Entities); q.Entities <= lo || q.Entities >= hi {
		t.Errorf("with inserts: questions visited %d rows; want more than %d (the seeded rows) and fewer than %d (the rows at the end, each time)", q.Entities, lo, hi)
	}
}

// A question's pick draws the value it asks for by its own law, replacing
// the picked entity's: every question of single(2) reads user u002's
// partition, whichever entity the request distribution picks.
func TestQuestionPicksItsValue(t *testing.T) {
	src := `population:
  entities: 2000
  interval: 1s
  fields:
    user: {kind: id, count: 10, prefix: u, width: 3}
questions:
  - {name: feed, known: [user], want: newest, limit: 5, pick: {user: single(2)}}
schemes:
  - {name: u, partition_key: "{user}", row_key: "{inverted_ticks}"}
workload:
  mix: [{question: feed}]
`
	a := analyzeSource(t, src, 300, 10)
	if a.Workload.Partitions != 1 || a.Workload.Busiest != "u002" || a.Workload.Entities != 300*5 {
		t.Errorf("questions read %d partitions, busiest %q, %d entities; want only u002, 5 rows each", a.Workload.Partitions, a.Workload.Busiest, a.Workload.Entities)
	}
}
