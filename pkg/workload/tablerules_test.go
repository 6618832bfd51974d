package workload

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/plan"
)

// A run on an existing table needs its name; each row a run and the rule's
// answer.
func TestCheckTableNeedsANameForAnExistingTable(t *testing.T) {
	for _, tc := range []struct {
		table    string
		skipSeed bool
		shards   int
		want     error
	}{
		{"", false, 1, nil},                  // a fresh table
		{"", true, 1, ErrSkipSeedNeedsTable}, // skipping the seed of no table
		{"", false, 2, ErrShardNeedsTable},   // shards sharing no table
		{"", true, 4, ErrSkipSeedNeedsTable}, // both: the seed is said first
		{"seeded", true, 4, nil},             // named: both allowed
		{"", false, 0, nil},                  // no sharding
	} {
		if got := CheckTable(tc.table, tc.skipSeed, tc.shards); got != tc.want {
			t.Errorf("CheckTable(%q, %v, %d) = %v; want %v", tc.table, tc.skipSeed, tc.shards, got, tc.want)
		}
	}
	for _, err := range []error{ErrSkipSeedNeedsTable, ErrShardNeedsTable} {
		if strings.Contains(err.Error(), "--") {
			t.Errorf("%q names a command-line flag", err)
		}
	}
}

// Run refuses what CheckTable refuses, before it creates a table.
func TestRunAppliesCheckTable(t *testing.T) {
	sp := spec(t, fmt.Sprintf(rampScenario, ""), plan.Overrides{})
	for _, c := range []Config{{Spec: sp, SkipSeed: true}, {Spec: sp}} {
		if c.SkipSeed == false {
			c.Spec.Shards = 2
		}
		res, err := Run(t.Context(), c)
		if !errors.Is(err, ErrSkipSeedNeedsTable) && !errors.Is(err, ErrShardNeedsTable) || res.Failure != err.Error() || len(res.Tables) != 0 {
			t.Errorf("Run(skip seed %v, shards %d) = %+v, %v; want refused before any table", c.SkipSeed, c.Shards, res, err)
		}
	}
}
