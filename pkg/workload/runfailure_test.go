package workload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/plan"
)

// Every way Run can fail before the run phase lands in the Result's
// Failure, worded as the error Run returns: the caller may print either.
func TestRunFailureIsTheError(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := embedded(t, in, 4)
	if r := svc.CreateTable(context.Background(), "notours"); r.Err != nil {
		t.Fatal(r.Err)
	}
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string // in the error
	}{
		{"no such scheme", func(c *Config) { c.Scheme = 3 }, "scheme 3 of 1"},
		{"a bad table name", func(c *Config) { c.Table = "1-bad" }, "Azure table names are 3-63 letters"},
		{"skipping the seed without a table", func(c *Config) { c.SkipSeed = true }, ErrSkipSeedNeedsTable.Error()},
		{"a shard without a table", func(c *Config) { c.Shard, c.Shards = 1, 2 }, ErrShardNeedsTable.Error()},
		{"a table the run did not create", func(c *Config) { c.Table = "notours" }, "was not created by this run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc, plan.Overrides{Duration: time.Second})
			tc.change(&c)
			res, err := Run(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one saying %q", err, tc.want)
			}
			if res == nil || res.Failure != err.Error() {
				t.Errorf("Failure %q, want the error %q", res.Failure, err)
			}
		})
	}
}

// A seed phase that fails (here: skipped on a table that was never
// seeded) is the run's Failure too.
func TestRunFailureOfSeedPhase(t *testing.T) {
	in := startEmbedded(t, model.Off(), faults.Config{})
	svc := embedded(t, in, 4)
	c := config(t, fmt.Sprintf(accountingScenario, "rate: 100", "none"), svc, plan.Overrides{Duration: time.Second})
	c.Table, c.Reuse, c.SkipSeed = "neverseeded", true, true // nothing to count: the seed check fails
	res, err := Run(context.Background(), c)
	if err == nil || res.Failure != err.Error() {
		t.Fatalf("err %v, Failure %q: want the error as the Failure", err, res.Failure)
	}
	if !errors.Is(err, ErrNotSeeded) {
		t.Errorf("err %v, want ErrNotSeeded", err)
	}
}
