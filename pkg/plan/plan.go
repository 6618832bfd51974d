package plan

import (
	"fmt"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// Plan is what every worker of one run shares: the entity stream, the key
// scheme, the set of existing entities and the operation mix. It decides
// which operation comes next and on which entities, without talking to a
// server, so the run and the `keys` analysis make the same choices.
type Plan struct {
	Pop    *keygen.Population
	Scheme *keygen.Scheme
	Space  *Keyspace
	Mix    *Mix
	// Questions are the scheme's plans for the scenario's questions, by
	// the scenario's order.
	Questions []*question.Plan
	Targets   *Targets // nil unless target_partitions or a shard restricts the partitions
	Seed      uint64
	// Member, when set, says which partitions this run covers (its shard
	// and target partitions); the seed phase writes only those.
	Member func(pk []byte) bool
}

// NewPlan compiles a scenario's workload for one scheme over a table seeded
// with entities [0, seeded).
func NewPlan(sc *scenario.Scenario, pop *keygen.Population, scheme *keygen.Scheme, seeded int64, seed uint64) (*Plan, error) {
	return NewShardPlan(sc, pop, scheme, seeded, seed, 0, 1)
}

// NewShardPlan is NewPlan for shard i of n (n = 1: the whole run).
func NewShardPlan(sc *scenario.Scenario, pop *keygen.Population, scheme *keygen.Scheme, seeded int64, seed uint64, shard, shards int) (*Plan, error) {
	names := make([]string, len(sc.Questions))
	for k, q := range sc.Questions {
		names[k] = q.Name
	}
	mix, err := NewMix(sc.Workload.Mix, string(sc.Workload.Distribution), scheme, names)
	if err != nil {
		return nil, err
	}
	qs, err := sc.CompileQuestions(pop)
	if err != nil {
		return nil, err
	}
	p := &Plan{Pop: pop, Scheme: scheme, Space: NewKeyspace(seeded), Mix: mix, Seed: seed}
	for _, q := range qs {
		p.Questions = append(p.Questions, question.Derive(q, scheme))
	}
	var accept func([]byte) bool
	if len(sc.Workload.TargetPartitions) > 0 {
		accept = Partitions(sc.Workload.TargetPartitions)
	}
	if shards > 1 {
		accept = both(accept, Shard(shard, shards))
		p.Seed ^= uint64(shard+1) * 0x9e3779b97f4a7c15 // each shard draws its own operations
	}
	if accept != nil {
		p.Member = accept
		p.Targets = NewTargets(p.Space, pop, scheme, accept, seeded)
		if p.Targets.Len() == 0 && !p.hasInserts() {
			return nil, fmt.Errorf("%w: none of the %d seeded entities falls in this run's partitions (target_partitions %v, shard %d of %d) under scheme %q",
				ErrNoTargetEntity, seeded, sc.Workload.TargetPartitions, shard, shards, scheme.Name)
		}
	}
	return p, nil
}

func (p *Plan) hasInserts() bool {
	for _, op := range p.Mix.Ops {
		if op.Kind == metrics.Insert || op.Kind == metrics.Batch {
			return true
		}
	}
	return false
}

// Step is one operation a worker is to perform.
type Step struct {
	Op *MixOp
	// Entity is the entity the operation addresses: picked among existing
	// ones, or newly allocated for inserts. -1 for table scans.
	Entity int64
	// Row selects the row of the entity: 0 for the main row, k for the
	// scheme's k-th secondary row (point reads spread over all rows).
	Row int
	// Batch holds the new entities of a batch, all in one partition.
	Batch []int64
	// Missing is set when the operation needs an existing entity and none
	// could be picked; the worker records it as failed without a request.
	Missing bool
	// Picked are a question's values drawn by its picks' own laws (indexes
	// into each picked field's values), which replace the entity's.
	Picked []int64
}

// Planner draws the steps of one worker. It is not safe for concurrent use;
// each worker owns one, seeded from (run seed, worker id), so a run with the
// same seed makes the same choices per worker.
type Planner struct {
	plan  *Plan
	st    keygen.Stream
	batch batcher
}

// NewPlanner returns the planner of worker w.
func (p *Plan) NewPlanner(w int) *Planner {
	return &Planner{plan: p, st: keygen.NewStream(p.Seed, uint64(w)+1), batch: newBatcher(p)}
}

// Stream is the worker's random stream, for backoff jitter.
func (pl *Planner) Stream() *keygen.Stream { return &pl.st }

// Next draws the next step.
func (pl *Planner) Next() Step {
	op := pl.plan.Mix.Pick(&pl.st)
	s := Step{Op: op, Entity: -1}
	switch op.Kind {
	case metrics.TableScan:
	case metrics.Insert:
		s.Entity = pl.allocate()
		s.Missing = s.Entity < 0
	case metrics.Batch:
		s.Batch = pl.batch.next(op.Spec.Size)
		s.Missing = len(s.Batch) == 0
	case metrics.Delete:
		s.Entity, s.Missing = pl.claim(op.Dist)
	case metrics.UpsertMerge, metrics.UpsertReplace:
		i, ok := pl.pick(op.Dist)
		if !ok {
			i = pl.allocate() // an upsert of a new entity is an insert
		}
		s.Entity, s.Missing = i, i < 0
	default: // point_read, range_query, partition_scan, update
		i, ok := pl.pick(op.Dist)
		s.Entity, s.Missing = i, !ok
		if op.Kind == metrics.PointRead && ok {
			s.Row = int(pl.st.Int64n(int64(pl.plan.Scheme.RowsPerEntity())))
		}
		if op.Kind == metrics.Question && ok {
			s.Picked = pl.plan.Questions[op.Question].Question.DrawPicks(&pl.st, nil)
		}
	}
	return s
}

func (pl *Planner) pick(d keygen.Distribution) (int64, bool) {
	if t := pl.plan.Targets; t != nil {
		return t.Pick(d, &pl.st)
	}
	return pl.plan.Space.Pick(d, &pl.st)
}

// claim picks an existing entity and removes it from the keyspace so no other
// worker deletes or reads it; Unclaim puts it back if the delete failed.
func (pl *Planner) claim(d keygen.Distribution) (int64, bool) {
	for try := 0; try < pickTries; try++ {
		i, ok := pl.pick(d)
		if !ok {
			return -1, true
		}
		if pl.plan.Space.Remove(i) {
			return i, false
		}
	}
	return -1, true
}

func (pl *Planner) allocate() int64 {
	if t := pl.plan.Targets; t != nil {
		i, err := t.Allocate()
		if err != nil {
			return -1
		}
		return i
	}
	return pl.plan.Space.Allocate()
}

// Written records that a new entity was acknowledged by the service.
func (p *Plan) Written(i int64) {
	if p.Space.Add(i) && p.Targets != nil {
		p.Targets.Added(i)
	}
}

// Unclaim puts back an entity whose delete did not succeed.
func (p *Plan) Unclaim(i int64) { p.Space.Add(i) }
