package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// opFields says which optional operation fields apply to which operations.
var opFields = map[string][]string{
	"select":            {"point_read", "range_query", "partition_scan", "table_scan"},
	"rows":              {"range_query"},
	"from":              {"range_query"},
	"across_partitions": {"range_query"},
	"index":             {"range_query", "partition_scan"},
	"filter":            {"range_query", "partition_scan", "table_scan"},
	"max_pages":         {"range_query", "partition_scan", "table_scan"},
	"size":              {"batch"},
	"kind":              {"batch"},
	"etag":              {"update"},
	"question":          {"question"},
}

var propertyNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,254}$`)

// validateWorkload checks the run's length, workers, timeout, stages,
// target partitions and every operation of the mix, and that a mix which
// only reads or changes entities has a seed phase that writes some.
func (s *Scenario) validateWorkload(add func(error)) {
	w := s.Workload
	s.validatePacing(add)
	for i, tp := range w.TargetPartitions {
		if err := keygen.ValidateKey([]byte(tp)); err != nil {
			add(s.errAt(fmt.Sprintf("workload.target_partitions[%d]", i), "%v", err))
		}
	}
	if len(w.Mix) == 0 {
		add(s.errAt("workload", "workload.mix needs at least one operation, like '- op: point_read'"))
	}
	needsData, writes := false, false
	for i, op := range w.Mix {
		if !s.validateMixOp(i, op, add) {
			continue
		}
		switch op.Op {
		case "insert", "batch":
			writes = true
		case "upsert_merge", "upsert_replace", "update", "delete", "point_read", "range_query", "partition_scan", "question":
			needsData = true
		}
	}
	if needsData && !writes && s.given("population.entities") && s.Population.Entities == 0 {
		add(s.errAt("population.entities", "the mix reads or changes existing entities but the seed phase writes none and nothing inserts: set entities > 0"))
	}
}

// validatePacing checks how long and how hard the run goes: a duration,
// stages or an operation cap; workers in range; a timeout; stages of some
// length whose sum is the duration, if one is given; and a starting rate
// other than an explicit 0 with stages.
func (s *Scenario) validatePacing(add func(error)) {
	w := s.Workload
	if w.Duration <= 0 && w.MaxOperations == 0 {
		add(s.errAt("workload.duration", "the run needs a duration > 0 (like 30s), stages, or max_operations"))
	}
	if w.Workers < 1 || w.Workers > MaxWorkers {
		add(s.errAt("workload.workers", "%d workers: use between 1 and %d", w.Workers, MaxWorkers))
	}
	if w.Timeout <= 0 {
		add(s.errAt("workload.timeout", "the request timeout must be > 0, like 10s"))
	}
	var staged time.Duration
	for i, st := range w.Stages {
		if st.Duration <= 0 {
			add(s.errAt(fmt.Sprintf("workload.stages[%d].duration", i), "a stage needs a duration > 0, like 30s"))
		}
		staged += st.Duration.D()
	}
	if len(w.Stages) > 0 && s.given("workload.duration") && w.Duration.D() != staged {
		add(s.errAt("workload.duration", "%v, but the stages last %v: a staged run lasts as long as its stages; leave duration out (--duration scales the stages)", w.Duration.D(), staged))
	}
	if len(w.Stages) > 0 && s.given("workload.rate") && w.Rate == 0 {
		add(s.errAt("workload.rate", "rate 0 with stages: give the starting rate, or leave rate out to start from 0"))
	}
}

// validateMixOp checks operation i of the mix: a known operation, only the
// fields that apply to it, a weight, and its own fields' ranges. It
// reports false when the operation is unknown (nothing else is checked).
func (s *Scenario) validateMixOp(i int, op Operation, add func(error)) bool {
	base := fmt.Sprintf("workload.mix[%d]", i)
	if !slices.Contains(Ops, op.Op) {
		add(s.errAt(base+".op", "%q is not an operation; use one of %s", op.Op, strings.Join(Ops, ", ")))
		return false
	}
	for field, ops := range opFields {
		if s.given(base+"."+field) && !slices.Contains(ops, op.Op) {
			add(s.errAt(base+"."+field, "%s does not apply to %s (only to %s): remove it", field, op.Op, strings.Join(ops, ", ")))
		}
	}
	if !(op.Weight > 0) {
		add(s.errAt(base+".weight", "the weight must be > 0, like weight: 1"))
	}
	if op.Op == "range_query" && (op.Rows < 1 || op.Rows > azure.PageRows) {
		add(s.errAt(base+".rows", "%d rows: use between 1 and %d (one page)", op.Rows, azure.PageRows))
	}
	if op.Op == "range_query" && op.From != "entity" && op.From != "start" {
		add(s.errAt(base+".from", "%q: use entity (from the picked entity's RowKey) or start (from the start of its partition)", op.From))
	}
	if op.MaxPages < 0 {
		add(s.errAt(base+".max_pages", "max_pages must be >= 0 (0 reads every page)"))
	}
	if op.Op == "batch" {
		if op.Size < 1 || op.Size > azure.TransactionEntities {
			add(s.errAt(base+".size", "%d: an entity group transaction holds 1 to %d operations", op.Size, azure.TransactionEntities))
		}
		if !slices.Contains([]string{"insert", "upsert_merge", "upsert_replace", "mixed"}, op.Kind) {
			add(s.errAt(base+".kind", "%q: use insert, upsert_merge, upsert_replace or mixed", op.Kind))
		}
	}
	for j, p := range op.Select {
		if !propertyNameRE.MatchString(p) {
			add(s.errAt(fmt.Sprintf("%s.select[%d]", base, j), "%q is not a property name: a property name starts with a letter or _ and holds letters, digits and _", p))
		}
	}
	return true
}
