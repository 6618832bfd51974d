package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/threshold"
)

// MaxWorkers is the most workers Validate accepts. Azure's limits it
// enforces (a transaction's entities and bytes, a page's rows) are read
// from pkg/azure.
const MaxWorkers = 10_000

// Ops lists the operation names in report order.
var Ops = []string{"point_read", "range_query", "partition_scan", "table_scan", "insert", "upsert_merge", "upsert_replace", "update", "delete", "batch", "question"}

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
		if _, err := keygen.NewPopulation(keygen.PopulationSpec{Interval: p.Interval.D(), Fields: []keygen.FieldSpec{f.keygen()}}); err != nil {
			if m, ok := errors.AsType[*keygen.MemberError](err); ok {
				path += "." + m.Member
			}
			add(s.errAt(path, "%s", strings.TrimPrefix(err.Error(), "keygen: ")))
		}
	}
}

// validateSchemes checks that there is a scheme, that each is a known
// built-in or a named pair of templates with a unique name, and that each
// well-formed one compiles, generates only valid keys, and fits the mix's
// batches and indexes; key collisions are warnings.
func (s *Scenario) validateSchemes(add func(error)) {
	if len(s.Schemes) == 0 {
		add(s.errAt("schemes", "at least one key scheme is needed, like '- builtin: device-date' or '- name: mine, partition_key: \"{device}\", row_key: \"{inverted_ticks}\"'"))
		return
	}
	names := map[string]int{}
	valid := make([]bool, len(s.Schemes)) // worth compiling
	for i := range s.Schemes {
		var named bool
		valid[i], named = s.validateSchemeShape(i, add)
		if !named {
			continue
		}
		sc := s.Schemes[i]
		base := fmt.Sprintf("schemes[%d]", i)
		if sc.Name == "" {
			add(s.errAt(base, "a scheme with its own templates needs a name: add name: (what reports call it)"))
		} else if j, dup := names[sc.Name]; dup {
			add(s.errAt(base+".name", "scheme name %q is already used by schemes[%d]: give each scheme its own name", sc.Name, j))
		}
		names[sc.Name] = i
	}
	pop, err := keygen.NewPopulation(s.PopulationSpec())
	if err != nil {
		return // the field errors were reported above
	}
	for i := range s.Schemes {
		if valid[i] {
			s.checkScheme(pop, i, add)
		}
	}
}

// schemeLabel names scheme i in messages: `scheme "name"`, or, when it
// has no name (an error of its own), "the unnamed schemes[i]", so that
// its other problems are still reported, and read, at once.
func (s *Scenario) schemeLabel(i int) string {
	if n := s.Schemes[i].Name; n != "" {
		return fmt.Sprintf("scheme %q", n)
	}
	return fmt.Sprintf("the unnamed schemes[%d]", i)
}

// validateSchemeShape checks that scheme i is a known built-in without
// templates of its own, or has both key templates. valid says it is worth
// compiling; named that its name is worth checking (not for an unknown
// built-in, nor for a scheme lacking a template).
func (s *Scenario) validateSchemeShape(i int, add func(error)) (valid, named bool) {
	sc := s.Schemes[i]
	base := fmt.Sprintf("schemes[%d]", i)
	switch {
	case sc.Builtin != "":
		if _, ok := keygen.LookupBuiltin(sc.Builtin); !ok {
			add(s.errAt(base+".builtin", "%q is not a built-in scheme; built-ins are %s", sc.Builtin, strings.Join(keygen.BuiltinNames(), ", ")))
			return false, false
		}
		if sc.PartitionKey != "" || sc.RowKey != "" || len(sc.Rows) > 0 || len(sc.Indexes) > 0 {
			add(s.errAt(base+".builtin", "a built-in scheme brings its own templates: remove partition_key/row_key/rows/indexes, or drop builtin to write your own"))
			return false, true
		}
		return true, true
	case !s.given(base+".partition_key") || !s.given(base+".row_key"):
		add(s.errAt(base, "a scheme needs builtin, or both partition_key and row_key templates"))
		return false, false
	}
	return true, true
}

// checkScheme compiles scheme i over pop and checks a sample of its keys:
// errors are reported at the template that caused them, repeated keys
// become a warning (their inserts would fail with 409), and the mix's
// batches and indexes must fit the scheme.
func (s *Scenario) checkScheme(pop *keygen.Population, i int, add func(error)) {
	sc, err := keygen.CompileScheme(pop, s.SchemeSpec(i))
	if err != nil {
		for _, e := range s.schemeErrors(i, err) {
			add(e)
		}
		return
	}
	res, err := sc.Check(pop, max(int64(s.Population.Entities), 1))
	if err != nil {
		for _, e := range s.schemeErrors(i, err) {
			add(e)
		}
		return
	}
	at := s.pos.lookup(fmt.Sprintf("schemes[%d]", i))
	if res.Collisions > 0 {
		s.warnings = append(s.warnings, fmt.Sprintf("%s:%d:%d: %s: %d of %d sampled entities repeat an earlier (PartitionKey, RowKey): %s; their inserts will fail with 409 EntityAlreadyExists",
			s.File, at.line, at.col, s.schemeLabel(i), res.Collisions, res.Checked, res.CollisionExample))
	}
	s.validateBatchFit(i, sc, add)
}

// indexNames says which index tables sc has: "its indexes: A, B", or that
// it has none.
func indexNames(sc *keygen.Scheme) string {
	if len(sc.Indexes) == 0 {
		return "it has none: add one under the scheme's indexes, or remove index"
	}
	names := make([]string, len(sc.Indexes))
	for i, ix := range sc.Indexes {
		names[i] = ix.Name
	}
	return "its indexes: " + strings.Join(names, ", ")
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
		if n := op.Size * rows; n > azure.TransactionEntities {
			add(s.errAt(path, "%d entities × %d rows per entity under %s is %d operations; an entity group transaction holds at most %d: use size: %d at most",
				op.Size, rows, s.schemeLabel(i), n, azure.TransactionEntities, azure.TransactionEntities/rows))
		} else if b := n * entityBytes; b > azure.TransactionBytes {
			add(s.errAt(path, "%d rows of about %d bytes is %d bytes; an entity group transaction is at most %d MiB: use size: %d at most, or a smaller payload",
				n, entityBytes, b, azure.TransactionBytes>>20, max(azure.TransactionBytes/(rows*entityBytes), 1)))
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
			add(s.errAt(fmt.Sprintf("workload.mix[%d].index", j), "%s has no index table %q; %s", s.schemeLabel(i), op.Index, indexNames(sc)))
		}
	}
}
