package filter

import (
	"slices"
	"testing"
)

// Names lists every property a filter reads, once, whatever its nesting.
func TestNames(t *testing.T) {
	for src, want := range map[string][]string{
		"status eq 'error'": {"status"},
		"not (a lt 5 or b) and (a ge 1 and PartitionKey eq 'p')": {"a", "b", "PartitionKey"},
		"true":                            nil,
		"Flag and not Other":              {"Flag", "Other"},
		"x eq 1 or (x eq 2 and y eq 'z')": {"x", "y"},
	} {
		n, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := Names(n); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}
