package model

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// ParseList reads compare's list of models: each row a list and the specs
// Parse reads.
func TestParseListReadsModels(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"azure", []string{"azure"}},
		{"azure,cosmos(ru=10000)", []string{"azure", "cosmos,ru=10000"}},
		{" azure(latency=off) , cosmos(ru=40000,physical=8) ,off", []string{"azure,latency=off", "cosmos,ru=40000,physical=8", "off"}},
	} {
		if got, err := ParseList(tc.in); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseList(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// Bad input names the item at fault and what would be right: each row a
// list and the message it gets.
func TestParseListRefusesBadItems(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"azure,,cosmos", `model: "azure,,cosmos": an empty model; write models like azure,cosmos(ru=10000)`},
		{"azure,", `model: "azure,": an empty model`},
		{"cosmos(ru=10000", `model: "cosmos(ru=10000": write a model's overrides in one pair of parentheses after its name`},
		{"cosmos)ru=1(", `model: "cosmos)": a ')' without its '('`},
		{"cosmos(ru=(1))", `model: "cosmos(ru=(1))": write a model's overrides in one pair of parentheses`},
		{"azure,cosmos(ru=1", `model: "cosmos(ru=1": write a model's overrides in one pair`},
		{"dynamo", `model: "dynamo": start with azure, cosmos or off`},
		{"azure,cosmos(partition=5)", `model: "cosmos(partition=5)": "partition=5": partition belongs to azure, not cosmos`},
	} {
		_, err := ParseList(tc.in)
		if !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseList(%q) = %v; want an error starting %q", tc.in, err, tc.want)
		}
	}
}
