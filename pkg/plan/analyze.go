package plan

import (
	"math"
	"slices"
	"sort"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// Analysis is what `tablestress keys` measures of one scheme besides the
// judge's figures and findings (pkg/judge, which decides): example keys,
// how the seeded rows and the operations of a simulated workload spread
// over partitions, and what the simulation measures of inserts, batches
// and range queries, with no server involved. It decides nothing.
type Analysis struct {
	Scheme     string       `json:"scheme"`
	Examples   []KeyExample `json:"examples"`
	Population Distribution `json:"population"`
	Workload   Distribution `json:"workload"`
	Ops        int          `json:"ops"`
	Rate       float64      `json:"rate"`
	// AppendShare and PrependShare are the shares of the inserts whose
	// PartitionKey sorts after (before) every existing one, ExtendShare
	// the larger.
	AppendShare  float64 `json:"inserts_appending"`
	PrependShare float64 `json:"inserts_prepending"`
	ExtendShare  float64 `json:"inserts_extending_key_range"`
	InsertRate   float64 `json:"insert_entities_per_sec"`
	// BatchFill is the entities an entity group transaction got on
	// average, of BatchAsked asked (0 without batches); RangeFound the
	// share of the rows range queries asked for that their partitions
	// held (0 without range queries).
	BatchFill  float64      `json:"batch_fill,omitempty"`
	BatchAsked float64      `json:"batch_asked,omitempty"`
	RangeFound float64      `json:"range_rows_found,omitempty"`
	PerOp      []OpAnalysis `json:"operations"`
	Collisions int          `json:"rowkey_collisions_in_sample"`
}

// KeyExample is one entity's keys.
type KeyExample struct {
	Entity       int64    `json:"entity"`
	PartitionKey string   `json:"partition_key"`
	RowKey       string   `json:"row_key"`
	Rows         []string `json:"secondary_rows,omitempty"`
}

// Distribution summarises entities per partition.
type Distribution struct {
	Entities     int64   `json:"entities"`
	Partitions   int     `json:"partitions"`
	Max          int64   `json:"max"`
	Mean         float64 `json:"mean"`
	P99          int64   `json:"p99"`
	Busiest      string  `json:"busiest"`
	BusiestShare float64 `json:"busiest_share"`
	Gini         float64 `json:"gini"`
}

// OpAnalysis is the simulated workload of one operation kind.
type OpAnalysis struct {
	Op         string  `json:"op"`
	Ops        int     `json:"ops"`
	Entities   int64   `json:"entities"`
	Partitions float64 `json:"partitions_per_op"`
	Note       string  `json:"note,omitempty"`
}

// Analyze simulates ops operations of the scenario's workload under scheme,
// with every write acknowledged at once, and measures how the entities they
// touch spread over partitions; rate (operations per second) turns the
// inserts into entities/s.
func Analyze(sc *scenario.Scenario, pop *keygen.Population, scheme *keygen.Scheme, ops int, rate float64) (*Analysis, error) {
	seeded := int64(sc.Population.Entities)
	plan, err := NewPlan(sc, pop, scheme, seeded, sc.Seed)
	if err != nil {
		return nil, err
	}
	a := &Analysis{Scheme: scheme.Name, Ops: ops, Rate: rate}
	res, _ := scheme.Check(pop, max(seeded, 1))
	a.Collisions = res.Collisions
	sim := a.seeded(plan, seeded)
	planners := make([]*Planner, 8)
	for w := range planners {
		planners[w] = plan.NewPlanner(w)
	}
	for n := 0; n < ops; n++ {
		sim.step(planners[n%len(planners)].Next())
	}
	if err := sim.answer(); err != nil {
		return nil, err
	}
	a.workload(sim)
	return a, nil
}

// seeded summarises the seeded population (entities [0, seeded)) of the
// plan into a.Population and a.Examples, and returns the simulation of a
// workload starting on it.
func (a *Analysis) seeded(plan *Plan, seeded int64) *simulation {
	sizes := map[string]int64{}
	var e keygen.Entity
	var k keygen.Keys
	var minPK, maxPK string
	rows := int64(plan.Scheme.RowsPerEntity())
	for i := int64(0); i < seeded; i++ {
		plan.Pop.Entity(i, &e)
		plan.Scheme.Keys(&e, &k)
		pk := string(k.PK)
		sizes[pk] += rows
		if i == 0 || keyorder.Less(pk, minPK) {
			minPK = pk
		}
		if i == 0 || keyorder.Less(maxPK, pk) {
			maxPK = pk
		}
		if i < 5 {
			ex := KeyExample{Entity: i, PartitionKey: pk, RowKey: string(k.RK)}
			for _, r := range k.Rows {
				ex.Rows = append(ex.Rows, string(r))
			}
			a.Examples = append(a.Examples, ex)
		}
	}
	a.Population = summarize(sizes)
	sortedPKs := make([]string, 0, len(sizes))
	for pk := range sizes {
		sortedPKs = append(sortedPKs, pk)
	}
	slices.SortFunc(sortedPKs, keyorder.Compare) // the service's order, as a range query meets them
	return &simulation{plan: plan, sizes: sizes, sorted: sortedPKs, load: map[string]int64{}, perOp: map[metrics.Op]*OpAnalysis{}, minPK: minPK, maxPK: maxPK, seeded: seeded > 0}
}

// workload summarises the simulated workload into a: its spread over
// partitions, the inserts' rate at a.Rate, whether inserts only extend
// the key range, and each operation kind's figures.
func (a *Analysis) workload(sim *simulation) {
	a.Workload = summarize(sim.load)
	if a.Ops > 0 && a.Rate > 0 {
		a.InsertRate = float64(sim.insertEntities) * a.Rate / float64(a.Ops)
	}
	if sim.inserts > 0 {
		a.AppendShare, a.PrependShare = float64(sim.appends)/float64(sim.inserts), float64(sim.prepends)/float64(sim.inserts)
		a.ExtendShare = math.Max(a.AppendShare, a.PrependShare)
	}
	if o := sim.perOp[metrics.Batch]; o != nil && o.Ops > 0 {
		a.BatchFill, a.BatchAsked = float64(sim.batchGot)/float64(o.Ops), float64(sim.batchWanted)/float64(o.Ops)
	}
	if sim.rangeWanted > 0 {
		a.RangeFound = float64(sim.rangeAvailable) / float64(sim.rangeWanted)
	}
	for kind := range metrics.NumOps {
		if o := sim.perOp[kind]; o != nil {
			o.Partitions /= math.Max(float64(o.Ops), 1)
			a.PerOp = append(a.PerOp, *o)
		}
	}
}

// summarize computes the spread of per-partition counts.
func summarize(counts map[string]int64) Distribution {
	d := Distribution{Partitions: len(counts)}
	if len(counts) == 0 {
		return d
	}
	vals := make([]int64, 0, len(counts))
	for pk, c := range counts {
		vals = append(vals, c)
		d.Entities += c
		if c > d.Max || (c == d.Max && pk < d.Busiest) {
			d.Max, d.Busiest = c, pk
		}
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	d.Mean = float64(d.Entities) / float64(len(vals))
	d.P99 = vals[min(len(vals)-1, int(math.Ceil(0.99*float64(len(vals))))-1)]
	if d.Entities > 0 {
		d.BusiestShare = float64(d.Max) / float64(d.Entities)
		d.Gini = gini(vals, d.Entities)
	}
	return d
}

// gini is the Gini coefficient of sorted non-negative values summing to
// total: 0 when every partition carries the same load, approaching 1 when one
// carries all of it. G = 2·Σ i·x_(i) / (n·Σx) − (n+1)/n with 1-based ranks.
func gini(sorted []int64, total int64) float64 {
	n := float64(len(sorted))
	if n < 2 || total == 0 {
		return 0
	}
	var weighted float64
	for i, v := range sorted {
		weighted += float64(i+1) * float64(v)
	}
	return 2*weighted/(n*float64(total)) - (n+1)/n
}
