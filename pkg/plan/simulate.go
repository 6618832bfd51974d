package plan

import (
	"context"
	"fmt"
	"slices"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/question"
)

// simulation accumulates the partition load of planned steps for Analyze.
type simulation struct {
	plan         *Plan
	sizes        map[string]int64 // rows per partition, kept current
	sorted       []string         // distinct seeded PartitionKeys, sorted
	load         map[string]int64 // entities touched per partition
	perOp        map[metrics.Op]*OpAnalysis
	minPK, maxPK string
	seeded       bool

	inserts, appends, prepends  int
	insertEntities              int64
	rangeWanted, rangeAvailable int64
	batchWanted, batchGot       int64

	// asked are the questions asked, answered at the end (answer).
	asked []askedStep

	ent  keygen.Entity
	keys keygen.Keys
}

func (s *simulation) keysOf(i int64) {
	s.plan.Pop.Entity(i, &s.ent)
	s.plan.Scheme.Keys(&s.ent, &s.keys)
}

func (s *simulation) touch(op *OpAnalysis, pk string, n int64) {
	s.load[pk] += n
	op.Entities += n
	op.Partitions++
}

// inserted accounts a new entity's rows and watches whether its
// PartitionKey extends the key range (append-only or prepend-only).
func (s *simulation) inserted(op *OpAnalysis, i int64) {
	s.keysOf(i)
	pk := string(s.keys.PK)
	rows := int64(s.plan.Scheme.RowsPerEntity())
	if _, exists := s.sizes[pk]; !exists {
		if !s.seeded || keyorder.Less(s.maxPK, pk) {
			s.appends++
		} else if keyorder.Less(pk, s.minPK) {
			s.prepends++
		}
	}
	if !s.seeded || keyorder.Less(s.maxPK, pk) {
		s.maxPK = pk
	}
	if !s.seeded || keyorder.Less(pk, s.minPK) {
		s.minPK = pk
	}
	s.seeded = true
	s.inserts++
	s.insertEntities += rows
	s.sizes[pk] += rows
	s.touch(op, pk, rows)
	s.plan.Written(i)
}

// step accounts one planned step: the entities it touches, per partition
// and per operation kind.
func (s *simulation) step(st Step) {
	kind := st.Op.Kind
	op := s.perOp[kind]
	if op == nil {
		op = &OpAnalysis{Op: kind.String()}
		s.perOp[kind] = op
	}
	op.Ops++
	if st.Missing {
		return
	}
	switch kind {
	case metrics.Insert:
		s.inserted(op, st.Entity)
	case metrics.Batch:
		s.batch(op, st)
	case metrics.RangeQuery:
		s.rangeQuery(op, st)
	case metrics.TableScan:
		s.scan(op, s.sorted, st.Op.Spec.MaxPages)
	case metrics.Question:
		s.ask(op, st)
	default: // point_read, update, upserts, delete, partition_scan
		s.keysOf(st.Entity)
		pk := string(s.keys.PK)
		c, _ := OpCost(kind, st.Op.Spec, float64(s.sizes[pk]), s.plan.Scheme)
		if kind == metrics.Delete {
			s.sizes[pk] -= int64(s.plan.Scheme.RowsPerEntity())
		}
		s.touch(op, pk, int64(c.Entities))
	}
}

// ask notes one of the application's questions, asked once the
// simulation has written every entity (answer).
func (s *simulation) ask(op *OpAnalysis, st Step) {
	s.asked = append(s.asked, askedStep{op: op, entity: st.Entity, question: st.Op.Question, bound: s.plan.Space.Bound(), picked: st.Picked})
}

// askedStep is a question the simulation asked: of which entity, and how
// many entities the table held then.
type askedStep struct {
	op       *OpAnalysis
	entity   int64
	question int
	bound    int64
	picked   []int64
}

// answer accounts the questions asked: the rows each one's plan visits in
// each partition (what the service charges a partition), on a model of
// the table holding every entity the simulation wrote, each question
// seeing the rows of the entities written by the time it was asked (a
// question of an entity written during the run finds it). Deletes are not
// modelled: a question still visits a deleted entity's rows.
func (s *simulation) answer() error {
	if len(s.asked) == 0 {
		return nil
	}
	m := question.NewModel(s.plan.Pop, s.plan.Scheme, s.plan.Space.Bound())
	for _, a := range s.asked {
		plan := s.plan.Questions[a.question]
		s.plan.Pop.Entity(a.entity, &s.ent)
		plan.Question.ApplyPicks(&s.ent, a.picked, a.bound-1)
		load, cost, err := m.AskLoad(context.Background(), plan, &s.ent, question.BoundsOf(s.plan.Pop, a.bound))
		if err != nil {
			return fmt.Errorf("question %q: %w", plan.Question.Name, err)
		}
		for part, l := range load {
			s.load[part] += int64(l.Visited)
			a.op.Entities += int64(l.Visited)
		}
		a.op.Partitions += float64(cost.Partitions)
	}
	return nil
}

// batch accounts a batch of new entities: one partition, whatever the
// number of entities.
func (s *simulation) batch(op *OpAnalysis, st Step) {
	s.batchWanted += int64(st.Op.Spec.Size)
	s.batchGot += int64(len(st.Batch))
	parts := op.Partitions
	for _, i := range st.Batch {
		s.inserted(op, i)
	}
	op.Partitions = parts + 1
}

// rangeQuery accounts a range query: the rows it finds of those it asks
// for in the picked entity's partition (of the main table, or of an index
// table), or every partition it spans across partitions.
func (s *simulation) rangeQuery(op *OpAnalysis, st Step) {
	spec := st.Op.Spec
	s.keysOf(st.Entity)
	if spec.Across {
		s.rangeAcross(op, st, spec.Rows, spec.MaxPages)
		return
	}
	pk := string(s.keys.PK)
	if st.Op.Index >= 0 {
		pk = st.Op.Spec.Index + "/" + string(s.keys.Index[st.Op.Index].PK)
	}
	c, _ := OpCost(metrics.RangeQuery, spec, float64(s.sizes[string(s.keys.PK)]), s.plan.Scheme)
	avail := int64(c.Entities)
	s.rangeWanted += int64(spec.Rows)
	s.rangeAvailable += avail
	s.touch(op, pk, avail)
}

// scan accounts a query reading the partitions pks in key order, up to
// maxPages pages of 1,000 entities (0: all of them).
func (s *simulation) scan(op *OpAnalysis, pks []string, maxPages int) {
	remaining := int64(-1)
	if maxPages > 0 {
		remaining = int64(maxPages) * azure.PageRows
	}
	for _, pk := range pks {
		if remaining == 0 {
			break
		}
		n := s.sizes[pk]
		if remaining > 0 {
			n = min(n, remaining)
			remaining -= n
		}
		s.load[pk] += n
		op.Entities += n
		op.Partitions++
	}
}

// rangeAcross accounts a PartitionKey range query from the picked entity's
// PartitionKey to that of the entity rows later: every seeded partition whose
// key sorts in between is visited.
func (s *simulation) rangeAcross(op *OpAnalysis, st Step, span, maxPages int) {
	lo := string(s.keys.PK)
	j := min(st.Entity+int64(span), s.plan.Space.Bound()-1)
	s.keysOf(j)
	hi := string(s.keys.PK)
	if keyorder.Less(hi, lo) {
		lo, hi = hi, lo
	}
	from, _ := slices.BinarySearchFunc(s.sorted, lo, keyorder.Compare)
	to, _ := slices.BinarySearchFunc(s.sorted, hi, keyorder.Compare)
	if to < len(s.sorted) && s.sorted[to] == hi {
		to++
	}
	s.scan(op, s.sorted[from:to], maxPages)
}
