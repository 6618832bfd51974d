package keygen

import (
	"errors"
	"strings"
	"testing"
)

// Check renders the first CheckSample entities and as many spread evenly
// over the rest, and names the template of the first invalid key: a
// secondary row or an index table's key, with the entity that made it.
func TestCheckSamplesAndNamesTheTemplate(t *testing.T) {
	p := mustPop(t, FieldSpec{Name: "w", Kind: "choice", Values: []string{strings.Repeat("x", 300)}})
	s, err := CompileScheme(p, SchemeSpec{Name: "fine", PartitionKey: "p", RowKey: "{i}", Rows: []string{"A{i}"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ n, checked int64 }{{5, 5}, {CheckSample, CheckSample}, {CheckSample + 7, CheckSample + 7}, {5 * CheckSample, 2 * CheckSample}, {5*CheckSample + 3, 2*CheckSample + 1}} {
		res, err := s.Check(p, tc.n)
		if err != nil || int64(res.Checked) != tc.checked || res.Collisions != 0 {
			t.Errorf("n %d: checked %d (%+v, %v), want %d", tc.n, res.Checked, res, err, tc.checked)
		}
	}
	for _, tc := range []struct {
		spec SchemeSpec
		want string
	}{
		{SchemeSpec{Name: "r", PartitionKey: "p", RowKey: "{i}", Rows: []string{"A{i}", "B{w}{w}"}}, `rows[1]: entity 0: `},
		{SchemeSpec{Name: "ix", PartitionKey: "p", RowKey: "{i}", Indexes: []IndexSpec{{Name: "T", PartitionKey: "t", RowKey: "{i}"}, {Name: "U", PartitionKey: "{w}{w}", RowKey: "{i}"}}}, `indexes[1].partition_key: entity 0: `},
		{SchemeSpec{Name: "ir", PartitionKey: "p", RowKey: "{i}", Indexes: []IndexSpec{{Name: "T", PartitionKey: "t", RowKey: "{i}{w}{w}"}}}, `indexes[0].row_key: entity 0: `},
	} {
		s, err := CompileScheme(p, tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec.Name, err)
			continue
		}
		_, err = s.Check(p, 10)
		var se *SchemeError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a SchemeError with %q", tc.spec.Name, err, tc.want)
		}
	}
}
