package scenario

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// PopulationSpec returns the keygen population of the scenario: the declared
// fields plus the default fields of every built-in scheme used, so that all
// schemes see the same entity stream.
func (s *Scenario) PopulationSpec() keygen.PopulationSpec {
	fields := make([]keygen.FieldSpec, 0, len(s.Population.Fields))
	for _, f := range s.Population.Fields {
		fields = append(fields, f.keygen())
	}
	for _, sc := range s.Schemes {
		if b, ok := keygen.LookupBuiltin(sc.Builtin); ok {
			fields = keygen.WithBuiltinFields(fields, b)
		}
	}
	return keygen.PopulationSpec{
		Seed:     s.Seed,
		Start:    s.Population.Start.Time,
		Interval: s.Population.Interval.D(),
		Fields:   fields,
		Payload:  keygen.PayloadSpec{Size: int(s.Population.Payload)},
	}
}

func (f Field) keygen() keygen.FieldSpec {
	s := keygen.FieldSpec{
		Name: f.Name, Kind: f.Kind, Values: f.Values, Weights: f.Weights, Count: int64(f.Count),
		Distribution: string(f.Distribution), Prefix: f.Prefix, Width: f.Width,
		Min: f.Min, Max: f.Max, Start: f.Start, Step: f.Step, Words: f.Words,
	}
	if f.Lifetime != nil {
		s.Lifetime = &keygen.LifetimeSpec{Span: f.Lifetime.Span.D(), Entities: f.Lifetime.Entities}
	}
	return s
}

// SchemeSpec returns the keygen spec of scheme i: the built-in's templates or
// the scenario's own.
func (s *Scenario) SchemeSpec(i int) keygen.SchemeSpec {
	sc := s.Schemes[i]
	if b, ok := keygen.LookupBuiltin(sc.Builtin); ok {
		spec := b.Spec
		spec.Name = sc.Name
		if sc.Description != "" {
			spec.Description = sc.Description
		}
		return spec
	}
	spec := keygen.SchemeSpec{Name: sc.Name, Description: sc.Description, PartitionKey: sc.PartitionKey, RowKey: sc.RowKey, Rows: sc.Rows}
	for _, ix := range sc.Indexes {
		spec.Indexes = append(spec.Indexes, keygen.IndexSpec{Name: ix.Name, PartitionKey: ix.PartitionKey, RowKey: ix.RowKey,
			Carries: ix.Carries.Fields, CarriesAll: ix.Carries.All})
	}
	return spec
}

// Compile builds the population and every scheme. A scenario that passed
// Validate always compiles.
func (s *Scenario) Compile() (*keygen.Population, []*keygen.Scheme, error) {
	pop, err := keygen.NewPopulation(s.PopulationSpec())
	if err != nil {
		return nil, nil, err
	}
	schemes := make([]*keygen.Scheme, len(s.Schemes))
	for i := range s.Schemes {
		if schemes[i], err = keygen.CompileScheme(pop, s.SchemeSpec(i)); err != nil {
			return nil, nil, err
		}
	}
	return pop, schemes, nil
}

// Scheme returns the index of the scheme called name.
func (s *Scenario) Scheme(name string) (int, error) {
	for i, sc := range s.Schemes {
		if sc.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(s.Schemes))
	for i, sc := range s.Schemes {
		names[i] = sc.Name
	}
	return 0, &UnknownScheme{Name: name, Scenario: s.DisplayName(), Schemes: names}
}

// UnknownScheme is asking a scenario for a scheme it does not have. It
// matches ErrInvalid.
type UnknownScheme struct {
	Name, Scenario string
	Schemes        []string
}

func (e *UnknownScheme) Error() string {
	msg := fmt.Sprintf("no scheme %q in %s", e.Name, e.Scenario)
	if best := textfit.Closest(e.Name, e.Schemes); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return msg + "; its schemes: " + strings.Join(e.Schemes, ", ")
}

// Unwrap makes UnknownScheme match ErrInvalid.
func (e *UnknownScheme) Unwrap() error { return ErrInvalid }

// schemeError locates a keygen error of scheme i at its template.
func (s *Scenario) schemeErrors(i int, err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok && !isOne(err) {
		var out []error
		for _, e := range joined.Unwrap() {
			out = append(out, s.schemeErrors(i, e)...)
		}
		return out
	}
	base := fmt.Sprintf("schemes[%d]", i)
	var se *keygen.SchemeError
	if !errors.As(err, &se) {
		return []error{s.errAt(base, "%v", err)}
	}
	path := base + "." + se.Field
	if s.Schemes[i].Builtin != "" {
		path = base + ".builtin"
	}
	var out []error
	for _, e := range flatten(se.Err) {
		if errors.Is(e, keygen.ErrScheme) {
			e = errors.New(strings.TrimPrefix(e.Error(), keygen.ErrScheme.Error()+": "))
		}
		var te *keygen.TemplateError
		if errors.As(e, &te) {
			p := s.pos.lookup(path)
			out = append(out, &Error{File: s.File, Line: p.line, Col: p.col + te.Offset + s.quoteShift(path), Path: path, Msg: te.Msg})
			continue
		}
		out = append(out, s.errAt(path, "%v", e))
	}
	return out
}

// isOne reports whether err is a single error that unwraps to several
// causes (a TemplateError), rather than a join of errors.
func isOne(err error) bool {
	var te *keygen.TemplateError
	return errors.As(err, &te) && te == err
}

// flatten lists the errors of a join, or err alone.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok && !isOne(err) {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// quoteShift is 1 when the value at path was written in quotes, so a template
// offset lands on the right column.
func (s *Scenario) quoteShift(path string) int {
	if s.quoted[path] {
		return 1
	}
	return 0
}
