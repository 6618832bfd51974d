package keygen

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// compileField prepares each kind for drawing: an id's width is the digits
// of its largest value unless given and its distribution defaults to
// uniform, a sequence steps by 1, a slug has 3 words, a choice's weights
// become cumulative shares; and every mistake gets its full message.
func TestCompileFieldPreparesEachKind(t *testing.T) {
	for _, tc := range []struct {
		spec FieldSpec
		want string // the compiled field, as fieldSummary prints it
	}{
		{FieldSpec{Name: "d", Kind: "id", Count: 1000}, "numeric width 3 dist uniform seq false step 0 words 0 cum []"},
		{FieldSpec{Name: "d", Kind: "id", Count: 1, Width: 5, Distribution: "sequential"}, "numeric width 5 dist sequential seq true step 0 words 0 cum []"},
		{FieldSpec{Name: "n", Kind: "int", Min: -3, Max: 3, Width: 2}, "numeric width 2 dist <nil> seq false step 0 words 0 cum []"},
		{FieldSpec{Name: "s", Kind: "sequence"}, "numeric width 0 dist <nil> seq false step 1 words 0 cum []"},
		{FieldSpec{Name: "s", Kind: "sequence", Step: -2}, "numeric width 0 dist <nil> seq false step -2 words 0 cum []"},
		{FieldSpec{Name: "g", Kind: "slug"}, "text width 0 dist <nil> seq false step 0 words 3 cum []"},
		{FieldSpec{Name: "c", Kind: "choice", Values: []string{"a", "b", "c"}, Weights: []float64{1, 0, 3}}, "text width 0 dist <nil> seq false step 0 words 0 cum [0.25 0.25 1]"},
		{FieldSpec{Name: "c", Kind: "choice", Values: []string{"a", "b"}}, "text width 0 dist <nil> seq false step 0 words 0 cum [0.5 1]"},
		{FieldSpec{Name: "u", Kind: "guid"}, "text width 0 dist <nil> seq false step 0 words 0 cum []"},
	} {
		f, err := compileField(tc.spec, time.Second)
		if err != nil {
			t.Errorf("%+v: %v", tc.spec, err)
			continue
		}
		if got := fieldSummary(f); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.spec, got, tc.want)
		}
	}
	for _, tc := range []struct {
		spec FieldSpec
		want string
	}{
		{FieldSpec{Name: "c", Kind: "choice", Values: []string{"a", "b"}, Weights: []float64{1, -1}}, `keygen: bad field "c": weight -1 of "b" must be >= 0`},
		{FieldSpec{Name: "d", Kind: "id", Count: 3, Distribution: "zipf(0)"}, `keygen: bad field "d": distribution "zipf(0)": the exponent must be in (0, 10], like zipf(0.99) or zipf(1.2)`},
		{FieldSpec{Name: "d", Kind: "id", Count: 3, Distribution: "pareto"}, `keygen: bad field "d": distribution "pareto" is not a distribution; use one of ` + DistributionForms},
		{FieldSpec{Name: "n", Kind: "int", Width: 31}, `keygen: bad field "n": width must be between 0 and 30`},
		{FieldSpec{Name: "g", Kind: "guid", Width: -1}, `keygen: bad field "g": width must be between 0 and 30`},
		{FieldSpec{Name: "g", Kind: "slug", Words: -1}, `keygen: bad field "g": words must be between 1 and 8`},
		{FieldSpec{Name: "a b", Kind: "guid"}, `keygen: bad field "a b": a field name must start with a letter or _ and hold only letters, digits and _ (it becomes a property name)`},
		{FieldSpec{Name: "x"}, `keygen: bad field "x": kind is missing; use one of ` + strings.Join(FieldKinds, ", ")},
	} {
		_, err := compileField(tc.spec, time.Second)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v:\n got %v\nwant %s", tc.spec, err, tc.want)
		}
	}
}

// A bad distribution is both a field's error and a distribution's.
func TestFieldDistributionErrorWrapsBoth(t *testing.T) {
	_, err := compileField(FieldSpec{Name: "d", Kind: "id", Count: 3, Distribution: "zipf(0)"}, time.Second)
	if !errors.Is(err, ErrField) || !errors.Is(err, ErrDistribution) {
		t.Errorf("%v: wraps ErrField %v, ErrDistribution %v; want both", err, errors.Is(err, ErrField), errors.Is(err, ErrDistribution))
	}
}

// fieldSummary prints what compileField prepared.
func fieldSummary(f *field) string {
	kind := "text"
	if f.numeric {
		kind = "numeric"
	}
	dist := "<nil>"
	if f.dist != nil {
		dist = f.dist.String()
	}
	return fmt.Sprintf("%s width %d dist %s seq %v step %d words %d cum %v", kind, f.width, dist, f.seq, f.spec.Step, f.spec.Words, f.cum)
}
