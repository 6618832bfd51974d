package plan

import (
	"fmt"
	"slices"
	"sort"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// MixOp is one compiled entry of the operation mix.
type MixOp struct {
	// Spec is the scenario's operation, with defaults applied.
	Spec scenario.Operation
	// Dist picks existing entities for this operation.
	Dist keygen.Distribution
	// Index is the position of Spec.Index in the scheme's index tables, or -1.
	Index int
	// Kind is the operation.
	Kind metrics.Op
	// Question is the index of the question a question operation asks
	// (in the scenario's questions), or -1.
	Question int
}

// Mix picks operations with probability weight/sum. It is immutable and safe
// for concurrent use.
type Mix struct {
	Ops []*MixOp
	cum []float64
}

// NewMix compiles the scenario's mix for a scheme. def is the workload's
// request distribution; an operation's own distribution overrides it.
// questions names the scenario's questions, which question operations ask.
func NewMix(ops []scenario.Operation, def string, scheme *keygen.Scheme, questions []string) (*Mix, error) {
	m := &Mix{}
	total := 0.0
	for i, op := range ops {
		mo, err := CompileOp(i, op, def, questions)
		if err != nil {
			return nil, err
		}
		if op.Index != "" {
			for k, ix := range scheme.Indexes {
				if ix.Name == op.Index {
					mo.Index = k
				}
			}
			if mo.Index < 0 {
				return nil, fmt.Errorf("workload.mix[%d]: scheme %q has no index table %q", i, scheme.Name, op.Index)
			}
		}
		if !(op.Weight > 0) {
			return nil, fmt.Errorf("workload.mix[%d]: weight must be > 0", i)
		}
		total += op.Weight
		m.Ops = append(m.Ops, mo)
		m.cum = append(m.cum, total)
	}
	if len(m.Ops) == 0 {
		return nil, fmt.Errorf("workload.mix is empty")
	}
	for i := range m.cum {
		m.cum[i] /= total
	}
	return m, nil
}

// CompileOp compiles entry i of the mix, op, as far as no scheme is
// needed: its request distribution (def unless it has its own), its kind
// and, for a question operation, the question (by its index in
// questions). Its Index is -1: NewMix finds the scheme's index table.
func CompileOp(i int, op scenario.Operation, def string, questions []string) (*MixOp, error) {
	spec := def
	if op.Distribution != "" {
		spec = string(op.Distribution)
	}
	d, err := keygen.ParseDistribution(spec)
	if err != nil {
		return nil, fmt.Errorf("workload.mix[%d]: %w", i, err)
	}
	kind, err := metrics.ParseOp(op.Op)
	if err != nil {
		return nil, fmt.Errorf("workload.mix[%d]: %w", i, err)
	}
	mo := &MixOp{Spec: op, Dist: d, Index: -1, Kind: kind, Question: -1}
	if kind == metrics.Question {
		mo.Question = slices.Index(questions, op.Question)
		if mo.Question < 0 {
			return nil, fmt.Errorf("workload.mix[%d]: no question %q", i, op.Question)
		}
	}
	return mo, nil
}

// Pick returns an operation with probability proportional to its weight.
func (m *Mix) Pick(st *keygen.Stream) *MixOp {
	if len(m.Ops) == 1 {
		return m.Ops[0]
	}
	u := st.Float64()
	k := sort.SearchFloat64s(m.cum, u)
	for k < len(m.cum)-1 && m.cum[k] <= u {
		k++
	}
	return m.Ops[k]
}
