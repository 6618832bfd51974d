package plan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/scenario"
)

const threeSchemes = `
name: three
population:
  entities: 100
  fields:
    device: {kind: id, count: 10, prefix: d, width: 2}
schemes:
  - name: constant
    partition_key: "all"
    row_key: "{i:08}"
  - name: by-device
    partition_key: "{device}"
    row_key: "{i:08}"
  - name: hash-buckets
    partition_key: "{device}"
    row_key: "{i:08}"
workload:
  duration: 1s
  mix:
    - {op: point_read, weight: 1}
`

// SelectSchemes is the one rule for choosing schemes by name: each row a
// name and the indexes it chooses.
func TestSelectSchemesChoosesByName(t *testing.T) {
	s := parseThree(t)
	for _, tc := range []struct {
		name string
		want []int
	}{
		{"", []int{0, 1, 2}},       // no name: every scheme, in order
		{"constant", []int{0}},     // the first
		{"hash-buckets", []int{2}}, // the last
	} {
		got, err := SelectSchemes(s, tc.name)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("SelectSchemes(%q) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// An unknown name is refused with the scenario's schemes and the closest
// one, in words a library owns: no command-line flag.
func TestSelectSchemesRefusesUnknownName(t *testing.T) {
	s := parseThree(t)
	got, err := SelectSchemes(s, "by-devise")
	var unknown *scenario.UnknownScheme
	if got != nil || !errors.As(err, &unknown) || !errors.Is(err, scenario.ErrInvalid) {
		t.Fatalf("SelectSchemes(by-devise) = %v, %v; want an UnknownScheme", got, err)
	}
	msg := fmt.Sprint(err)
	for _, want := range []string{`"by-devise"`, "did you mean by-device", "constant, by-device, hash-buckets"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "--") {
		t.Errorf("error %q names a flag", msg)
	}
}

func parseThree(t *testing.T) *scenario.Scenario {
	t.Helper()
	s, errs := scenario.Parse("three.yaml", []byte(threeSchemes))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return s
}
