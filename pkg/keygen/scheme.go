package keygen

import (
	"errors"
	"fmt"
	"strings"
)

// SchemeSpec declares a key scheme: the PartitionKey and RowKey templates of
// an entity, optional secondary rows and optional index tables.
type SchemeSpec struct {
	Name        string
	Description string
	// PartitionKey and RowKey are templates (see Template).
	PartitionKey string
	RowKey       string
	// Rows are extra RowKeys of the same entity in the same partition, written
	// together with the main row in one entity group transaction so that
	// several dominant queries are served by point reads (the BIB:/AGE:
	// registrations of REST "Design a scalable partitioning strategy for
	// Azure Table storage", "Entity group transactions"; Azure Storage
	// "Table design patterns", "Intra-partition secondary index pattern").
	Rows []string
	// Indexes are index tables (PostsByCategory...): for every entity a row
	// pointing at the main row, in a separate table.
	Indexes []IndexSpec
}

// IndexSpec declares one index table. Its rows carry the main row's
// PartitionKey and RowKey as MainPartitionKey and MainRowKey, and the
// event time; a projection carries more of the entity, so a question that
// wants only what it carries reads no main row after it.
type IndexSpec struct {
	Name         string // table name suffix, like PostsByCategory
	PartitionKey string
	RowKey       string
	// Carries are the fields its rows carry besides the pointer (and the
	// entity's Seq, which a carrying row holds to name it); CarriesAll
	// makes each row a copy of the entity's (every field and the
	// payload).
	Carries    []string
	CarriesAll bool
}

// Projects reports whether the index rows carry anything beyond the
// pointer.
func (x IndexSpec) Projects() bool { return x.CarriesAll || len(x.Carries) > 0 }

// Scheme is a compiled SchemeSpec, immutable and safe for concurrent use.
type Scheme struct {
	Name        string
	Description string
	PK, RK      *Template
	Rows        []*Template
	Indexes     []Index
}

// Index is a compiled IndexSpec.
type Index struct {
	Name   string
	PK, RK *Template
	// Carries and CarriesAll are the spec's: the fields its rows carry.
	Carries    []string
	CarriesAll bool
	carried    []int // the population's field indexes of Carries
}

// Projects reports whether the index rows carry anything beyond the
// pointer.
func (x *Index) Projects() bool { return x.CarriesAll || len(x.Carries) > 0 }

// Carried reports whether the index rows carry field name.
func (x *Index) Carried(name string) bool {
	if x.CarriesAll {
		return true
	}
	for _, f := range x.Carries {
		if f == name {
			return true
		}
	}
	return false
}

// SchemeError says which template of which scheme is wrong. Field is the
// scenario field name: partition_key, row_key, rows[N], indexes[N].name,
// indexes[N].partition_key or indexes[N].row_key.
type SchemeError struct {
	Scheme string
	Field  string
	Err    error
}

func (e *SchemeError) Error() string {
	return fmt.Sprintf("scheme %q: %s: %v", e.Scheme, e.Field, e.Err)
}

// Unwrap returns the underlying template or key error.
func (e *SchemeError) Unwrap() error { return e.Err }

// CompileScheme compiles a scheme's templates over the population and checks
// statically that none can produce a forbidden character.
// It reports every problem of every template, each a *SchemeError (joined
// with errors.Join when there are several).
func CompileScheme(p *Population, s SchemeSpec) (*Scheme, error) {
	sc := &Scheme{Name: s.Name, Description: s.Description}
	var errs []error
	compile := func(field, src string) *Template {
		t, err := p.Compile(src)
		if err == nil {
			err = t.checkChars()
		}
		if err != nil {
			errs = append(errs, &SchemeError{s.Name, field, err})
			return nil
		}
		return t
	}
	sc.PK = compile("partition_key", s.PartitionKey)
	sc.RK = compile("row_key", s.RowKey)
	for i, r := range s.Rows {
		sc.Rows = append(sc.Rows, compile(fmt.Sprintf("rows[%d]", i), r))
	}
	seen := map[string]bool{}
	for i, ix := range s.Indexes {
		field := fmt.Sprintf("indexes[%d]", i)
		if !tableSuffixOK(ix.Name) {
			errs = append(errs, &SchemeError{s.Name, field + ".name", fmt.Errorf("%w: %q must be 1-40 letters or digits, starting with a letter (it is appended to the table name)", ErrScheme, ix.Name)})
		} else if seen[ix.Name] {
			errs = append(errs, &SchemeError{s.Name, field + ".name", fmt.Errorf("%w: index %q is declared twice: give each index its own name", ErrScheme, ix.Name)})
		}
		seen[ix.Name] = true
		pk := compile(field+".partition_key", ix.PartitionKey)
		rk := compile(field+".row_key", ix.RowKey)
		carried, err := p.carried(ix.Carries)
		if err != nil {
			errs = append(errs, &SchemeError{s.Name, field + ".carries", err})
		}
		sc.Indexes = append(sc.Indexes, Index{Name: ix.Name, PK: pk, RK: rk, Carries: ix.Carries, CarriesAll: ix.CarriesAll, carried: carried})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return sc, nil
}

// carried is the field indexes of the fields an index carries, each a
// declared field named once.
func (p *Population) carried(names []string) ([]int, error) {
	var out []int
	seen := map[string]bool{}
	for _, n := range names {
		k, ok := p.byName[n]
		switch {
		case !ok:
			return nil, fmt.Errorf("%w: %q is not a field; an index row can carry a declared field (%s), or write carries: all", ErrScheme, n, strings.Join(p.Fields(), ", "))
		case seen[n]:
			return nil, fmt.Errorf("%w: %q is carried twice: list it once", ErrScheme, n)
		}
		seen[n] = true
		out = append(out, k)
	}
	return out, nil
}

func tableSuffixOK(s string) bool {
	if len(s) < 1 || len(s) > 40 {
		return false
	}
	for i, c := range s {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Keys holds one entity's rendered keys. Reuse it to avoid allocation.
type Keys struct {
	PK, RK []byte
	Rows   [][]byte    // secondary RowKeys, one per Scheme.Rows
	Index  []IndexKeys // one per Scheme.Indexes
}

// IndexKeys are the keys of an entity's row in one index table.
type IndexKeys struct{ PK, RK []byte }

// Keys renders every key of entity e into k.
func (s *Scheme) Keys(e *Entity, k *Keys) {
	k.PK = s.PK.Append(k.PK[:0], e)
	k.RK = s.RK.Append(k.RK[:0], e)
	if len(s.Rows) > 0 {
		if len(k.Rows) != len(s.Rows) {
			k.Rows = make([][]byte, len(s.Rows))
		}
		for i, t := range s.Rows {
			k.Rows[i] = t.Append(k.Rows[i][:0], e)
		}
	}
	if len(s.Indexes) > 0 {
		if len(k.Index) != len(s.Indexes) {
			k.Index = make([]IndexKeys, len(s.Indexes))
		}
		for i, ix := range s.Indexes {
			k.Index[i].PK = ix.PK.Append(k.Index[i].PK[:0], e)
			k.Index[i].RK = ix.RK.Append(k.Index[i].RK[:0], e)
		}
	}
}

// RowsPerEntity is how many rows of the main table one entity occupies.
func (s *Scheme) RowsPerEntity() int { return 1 + len(s.Rows) }
