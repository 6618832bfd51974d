package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/threshold"
)

// Limits enforced by Validate.
const (
	MaxWorkers    = 10_000
	MaxBatchOps   = 100     // Azure: at most 100 operations per entity group transaction
	MaxBatchBytes = 4 << 20 // Azure: at most 4 MiB per entity group transaction
	MaxRangeRows  = 1000    // one page
)

// Ops lists the operation names in report order.
var Ops = []string{"point_read", "range_query", "partition_scan", "table_scan", "insert", "upsert_merge", "upsert_replace", "update", "delete", "batch", "question"}

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

// Warnings returns what Validate found questionable but not invalid (such as
// key collisions), as FILE:LINE:COL: messages.
func (s *Scenario) Warnings() []string { return s.warnings }

// Validate checks everything decoding cannot: ranges, combinations, and that
// every key scheme compiles and generates only valid keys. It returns every
// problem at once.
func (s *Scenario) Validate() []error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	s.warnings = nil
	s.validatePopulation(add)
	s.validateSchemes(add)
	s.validateWorkload(add)
	s.validateQuestions(add)
	ops := append(append([]string{}, Ops...), s.questionOps()...)
	for i, th := range s.Thresholds {
		t := th.Expr
		if strings.TrimSpace(t) == "" {
			add(s.errAt(fmt.Sprintf("thresholds[%d]", i), "empty threshold; write it like 'p99(point_read) < 20ms'"))
		} else if _, err := threshold.Parse(t, ops); err != nil {
			add(s.errAt(fmt.Sprintf("thresholds[%d]", i), "%s", strings.TrimPrefix(err.Error(), "threshold: bad expression: ")))
		}
	}
	SortErrors(errs)
	return errs
}

// ErrorAt returns a problem about the value at path (like "embedded.model"),
// located where the file gives it: for checks made outside this package,
// such as the embedded service's own settings.
func (s *Scenario) ErrorAt(path string, err error) error { return s.errAt(path, "%v", err) }

// SortErrors orders errors by line and column.
func SortErrors(errs []error) {
	slices.SortStableFunc(errs, func(a, b error) int {
		ea, _ := a.(*Error)
		eb, _ := b.(*Error)
		if ea == nil || eb == nil {
			return 0
		}
		if ea.Line != eb.Line {
			return ea.Line - eb.Line
		}
		return ea.Col - eb.Col
	})
}

func (s *Scenario) validatePopulation(add func(error)) {
	p := s.Population
	if int(p.Payload) > keygen.MaxPayload {
		add(s.errAt("population.payload", "%d bytes is too large: an entity is at most 1 MiB, so the payload is at most %d bytes", p.Payload, keygen.MaxPayload))
	}
	for _, f := range p.Fields {
		path := "population.fields." + f.Name
		if _, err := keygen.NewPopulation(keygen.PopulationSpec{Fields: []keygen.FieldSpec{f.keygen()}}); err != nil {
			add(s.errAt(path, "%s", strings.TrimPrefix(err.Error(), "keygen: ")))
		}
	}
}

func (s *Scenario) validateSchemes(add func(error)) {
	if len(s.Schemes) == 0 {
		add(s.errAt("schemes", "at least one key scheme is needed, like '- builtin: device-date' or '- name: mine, partition_key: \"{device}\", row_key: \"{inverted_ticks}\"'"))
		return
	}
	names := map[string]int{}
	valid := make([]bool, len(s.Schemes)) // worth compiling
	for i, sc := range s.Schemes {
		base := fmt.Sprintf("schemes[%d]", i)
		if sc.Builtin != "" {
			if _, ok := keygen.LookupBuiltin(sc.Builtin); !ok {
				add(s.errAt(base+".builtin", "%q is not a built-in scheme; built-ins are %s", sc.Builtin, strings.Join(keygen.BuiltinNames(), ", ")))
				continue
			}
			if sc.PartitionKey != "" || sc.RowKey != "" || len(sc.Rows) > 0 || len(sc.Indexes) > 0 {
				add(s.errAt(base+".builtin", "a built-in scheme brings its own templates: remove partition_key/row_key/rows/indexes, or drop builtin to write your own"))
			} else {
				valid[i] = true
			}
		} else if !s.given(base+".partition_key") || !s.given(base+".row_key") {
			add(s.errAt(base, "a scheme needs builtin, or both partition_key and row_key templates"))
			continue
		} else {
			valid[i] = true
		}
		if sc.Name == "" {
			add(s.errAt(base, "a scheme with its own templates needs a name"))
		} else if j, dup := names[sc.Name]; dup {
			add(s.errAt(base+".name", "scheme name %q is already used by schemes[%d]", sc.Name, j))
		}
		names[sc.Name] = i
	}
	pop, err := keygen.NewPopulation(s.PopulationSpec())
	if err != nil {
		return // the field errors were reported above
	}
	for i := range s.Schemes {
		if !valid[i] {
			continue
		}
		sc, err := keygen.CompileScheme(pop, s.SchemeSpec(i))
		if err != nil {
			for _, e := range s.schemeErrors(i, err) {
				add(e)
			}
			continue
		}
		res, err := sc.Check(pop, max(int64(s.Population.Entities), 1))
		if err != nil {
			for _, e := range s.schemeErrors(i, err) {
				add(e)
			}
			continue
		}
		at := s.pos.lookup(fmt.Sprintf("schemes[%d]", i))
		if res.Collisions > 0 {
			s.warnings = append(s.warnings, fmt.Sprintf("%s:%d:%d: scheme %q: %d of %d sampled entities repeat an earlier (PartitionKey, RowKey): %s; their inserts will fail with 409 EntityAlreadyExists",
				s.File, at.line, at.col, sc.Name, res.Collisions, res.Checked, res.CollisionExample))
		}
		s.validateBatchFit(i, sc, add)
	}
}

// validateBatchFit checks that batch operations fit an entity group
// transaction under each scheme (secondary rows multiply the operations).
func (s *Scenario) validateBatchFit(i int, sc *keygen.Scheme, add func(error)) {
	rows := sc.RowsPerEntity()
	entityBytes := int(s.Population.Payload) + 1024 // keys and fields, generously
	for j, op := range s.Workload.Mix {
		if op.Op != "batch" || op.Size < 1 {
			continue
		}
		path := fmt.Sprintf("workload.mix[%d].size", j)
		if n := op.Size * rows; n > MaxBatchOps {
			add(s.errAt(path, "%d entities × %d rows per entity under scheme %q is %d operations; an entity group transaction holds at most 100", op.Size, rows, sc.Name, n))
		} else if b := n * entityBytes; b > MaxBatchBytes {
			add(s.errAt(path, "%d rows of about %d bytes is %d bytes; an entity group transaction is at most 4 MiB", n, entityBytes, b))
		}
	}
	for j, op := range s.Workload.Mix {
		if op.Index == "" {
			continue
		}
		found := false
		for _, ix := range sc.Indexes {
			found = found || ix.Name == op.Index
		}
		if !found {
			add(s.errAt(fmt.Sprintf("workload.mix[%d].index", j), "scheme %q has no index table %q", sc.Name, op.Index))
		}
	}
}

func (s *Scenario) validateWorkload(add func(error)) {
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
			add(s.errAt(fmt.Sprintf("workload.stages[%d].duration", i), "a stage needs a duration > 0"))
		}
		staged += st.Duration.D()
	}
	if len(w.Stages) > 0 && s.given("workload.duration") && w.Duration.D() != staged {
		add(s.errAt("workload.duration", "%v, but the stages last %v: a staged run lasts as long as its stages; leave duration out (--duration scales the stages)", w.Duration.D(), staged))
	}
	if len(w.Stages) > 0 && s.given("workload.rate") && w.Rate == 0 {
		add(s.errAt("workload.rate", "rate 0 with stages: give the starting rate, or leave rate out to start from 0"))
	}
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
		base := fmt.Sprintf("workload.mix[%d]", i)
		if !slices.Contains(Ops, op.Op) {
			add(s.errAt(base+".op", "%q is not an operation; use one of %s", op.Op, strings.Join(Ops, ", ")))
			continue
		}
		for field, ops := range opFields {
			if s.given(base+"."+field) && !slices.Contains(ops, op.Op) {
				add(s.errAt(base+"."+field, "%s does not apply to %s (only to %s)", field, op.Op, strings.Join(ops, ", ")))
			}
		}
		if !(op.Weight > 0) {
			add(s.errAt(base+".weight", "the weight must be > 0"))
		}
		switch op.Op {
		case "insert", "batch":
			writes = true
		case "upsert_merge", "upsert_replace", "update", "delete", "point_read", "range_query", "partition_scan", "question":
			needsData = true
		}
		if op.Op == "range_query" && (op.Rows < 1 || op.Rows > MaxRangeRows) {
			add(s.errAt(base+".rows", "%d rows: use between 1 and %d (one page)", op.Rows, MaxRangeRows))
		}
		if op.Op == "range_query" && op.From != "entity" && op.From != "start" {
			add(s.errAt(base+".from", "%q: use entity (from the picked entity's RowKey) or start (from the start of its partition)", op.From))
		}
		if op.MaxPages < 0 {
			add(s.errAt(base+".max_pages", "max_pages must be >= 0 (0 reads every page)"))
		}
		if op.Op == "batch" {
			if op.Size < 1 || op.Size > MaxBatchOps {
				add(s.errAt(base+".size", "%d: an entity group transaction holds 1 to 100 operations", op.Size))
			}
			if !slices.Contains([]string{"insert", "upsert_merge", "upsert_replace", "mixed"}, op.Kind) {
				add(s.errAt(base+".kind", "%q: use insert, upsert_merge, upsert_replace or mixed", op.Kind))
			}
		}
		for j, p := range op.Select {
			if !propertyNameRE.MatchString(p) {
				add(s.errAt(fmt.Sprintf("%s.select[%d]", base, j), "%q is not a property name", p))
			}
		}
	}
	if needsData && !writes && s.given("population.entities") && s.Population.Entities == 0 {
		add(s.errAt("population.entities", "the mix reads or changes existing entities but the seed phase writes none and nothing inserts: set entities > 0"))
	}
}
