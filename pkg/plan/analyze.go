package plan

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// Analysis is what `tablestress keys` shows of one scheme besides the
// judge's figures (pkg/judge: the busiest partition, the account, the
// questions): example keys, how the seeded rows and the operations of a
// simulated workload spread over partitions, and what the simulation
// shows of batches, ranges and monotonic keys, with no server involved.
type Analysis struct {
	Scheme      string       `json:"scheme"`
	Examples    []KeyExample `json:"examples"`
	Population  Distribution `json:"population"`
	Workload    Distribution `json:"workload"`
	Ops         int          `json:"ops"`
	Rate        float64      `json:"rate"`
	Monotonic   string       `json:"monotonic,omitempty"`
	ExtendShare float64      `json:"inserts_extending_key_range"`
	InsertRate  float64      `json:"insert_entities_per_sec"`
	PerOp       []OpAnalysis `json:"operations"`
	Collisions  int          `json:"rowkey_collisions_in_sample"`
	Verdicts    []string     `json:"verdicts"`
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
	a.Verdicts = verdicts(a, sim)
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
		up, down := float64(sim.appends)/float64(sim.inserts), float64(sim.prepends)/float64(sim.inserts)
		a.ExtendShare = math.Max(up, down)
		switch {
		case up >= 0.9:
			a.Monotonic = "append-only"
		case down >= 0.9:
			a.Monotonic = "prepend-only"
		}
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

func verdicts(a *Analysis, sim *simulation) []string {
	var v []string
	if a.Monotonic != "" {
		msg := fmt.Sprintf("%s PartitionKeys: %.0f%% of inserts extend the key range, so they all land on one range partition server", a.Monotonic, 100*a.ExtendShare)
		if a.InsertRate > 0 {
			msg += fmt.Sprintf(" (%s entities/s at %s ops/s vs its %s/s)", textfit.Rate(a.InsertRate), textfit.Rate(a.Rate), textfit.Int(azure.PartitionEntitiesPerSec))
		}
		v = append(v, msg)
	}
	if pop, rows := a.Population, int64(sim.plan.Scheme.RowsPerEntity()); pop.Partitions > 0 && pop.Mean < 2*float64(rows) && pop.Entities > 100 {
		// Most partitions hold one entity; that is the whole story only
		// when no partition holds more than a couple.
		if pop.Max <= 2*rows {
			v = append(v, "one partition per entity: no entity group transactions and no range queries within a partition")
		} else {
			v = append(v, fmt.Sprintf("most partitions hold one entity (mean %.1f rows) while the busiest holds %s rows: batches and range queries work only in the few large partitions",
				pop.Mean, textfit.Int(pop.Max)))
		}
	}
	if o := sim.perOp[metrics.RangeQuery]; o != nil && sim.rangeWanted > 0 && float64(sim.rangeAvailable) < 0.5*float64(sim.rangeWanted) {
		v = append(v, fmt.Sprintf("range queries find at most %.0f%% of the rows they ask for: partitions are smaller than the range", 100*float64(sim.rangeAvailable)/float64(sim.rangeWanted)))
	}
	if o := sim.perOp[metrics.Batch]; o != nil && sim.batchWanted > 0 && float64(sim.batchGot) < 0.5*float64(sim.batchWanted) {
		v = append(v, fmt.Sprintf("batches hold %.1f entities on average of %.0f asked: too few new entities share a partition", float64(sim.batchGot)/float64(o.Ops), float64(sim.batchWanted)/float64(o.Ops)))
	}
	if a.Collisions > 0 {
		v = append(v, fmt.Sprintf("%s RowKey collisions in the sample: those inserts fail with 409", textfit.Int(int64(a.Collisions))))
	}
	if a.Workload.Gini > 0.6 && a.Workload.Partitions > 1 {
		v = append(v, fmt.Sprintf("skewed load: Gini %.2f over %s partitions", a.Workload.Gini, textfit.Int(int64(a.Workload.Partitions))))
	}
	return v
}
