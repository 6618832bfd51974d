package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator"
)

// seed --keep-table prepares a table; run --skip-seed then uses it without
// writing the population again (the service receives no seed writes), and
// refuses a table seeded for another run.
// reuseSampleSlack bounds the entities read back beside the count.
const reuseSampleSlack = 100

func TestSkipSeedReusesPreparedTable(t *testing.T) {
	in, err := emulator.Start("127.0.0.1:0", emulator.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		in.Close(ctx)
	}()
	conn := in.ConnectionString()
	scen := "../../scenarios/quickstart.yaml"
	code, out, errs := runCLI(t, "seed", scen, "--target", conn, "--table", "tsprepared", "--keep-table", "--entities", "3000", "--quiet")
	if code != exitOK || !strings.Contains(out, "seeded table tsprepared: 3,000 entities") {
		t.Fatalf("seed: exit %d\n%s\n%s", code, out, errs)
	}
	served := func() int64 { // entities the service served or wrote, every partition
		var n int64
		if ts := in.Stats().Tables["tsprepared"]; ts != nil {
			for _, ps := range ts.Partitions {
				n += ps.Entities
			}
		}
		return n
	}
	in.ResetStats()
	rep := filepath.Join(t.TempDir(), "r.json")
	code, out, errs = runCLI(t, "run", scen, "--target", conn, "--table", "tsprepared", "--skip-seed", "--entities", "3000",
		"--duration", "1s", "--warmup", "0s", "--rate", "50", "--quiet", "--out", rep)
	if code != exitOK && code != exitThreshold {
		t.Fatalf("run --skip-seed: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "seeded before, 3,000 rows counted") {
		t.Errorf("the report does not say the table was seeded before:\n%s", out)
	}
	var doc struct {
		Seed struct {
			Reused bool  `json:"reused"`
			Rows   int64 `json:"rows"`
		} `json:"seed"`
		Totals struct{ Ops, Entities int64 } `json:"totals"`
	}
	if data, err := os.ReadFile(rep); err != nil || json.Unmarshal(data, &doc) != nil || !doc.Seed.Reused || doc.Seed.Rows != 3000 || doc.Totals.Ops == 0 {
		t.Errorf("report: %+v (%v)", doc, err)
	}
	// Besides what the run's operations served, the service served the
	// 3,000 rows counted and the sampled entities read back: seeding again
	// would have added 3,000 writes.
	if other := served() - doc.Totals.Entities; other < 3000 || other > 3000+reuseSampleSlack {
		t.Errorf("the service served %d entities besides the run's %d: want the count of 3,000 and a sample, not another seeding", other, doc.Totals.Entities)
	}
	// Another seed means other entities: refused, naming the cause.
	code, _, errs = runCLI(t, "run", scen, "--target", conn, "--table", "tsprepared", "--skip-seed", "--entities", "3000", "--seed", "99",
		"--duration", "1s", "--warmup", "0s", "--quiet")
	if code != exitFailure || !strings.Contains(errs, "it was seeded with another scenario, seed or --entities") {
		t.Errorf("a table seeded for another seed: exit %d\n%s", code, errs)
	}
	if code, _, errs := runCLI(t, "run", scen, "--skip-seed"); code != exitUsage || !strings.Contains(errs, "--skip-seed needs --table") {
		t.Errorf("--skip-seed without --table: exit %d %s", code, errs)
	}
}
