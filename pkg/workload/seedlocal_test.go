package workload

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// countingLocal is a Local that counts the transactions it takes (from
// the seed phase's concurrent writers).
type countingLocal struct {
	*emulator.Server
	loads, rows atomic.Int64
}

func (c *countingLocal) Load(ctx context.Context, table string, entities [][]byte) (outcome.Outcome, string) {
	c.loads.Add(1)
	return c.Server.Load(ctx, table, entities)
}

func (c *countingLocal) Rows(table string) (int, bool) {
	c.rows.Add(1)
	return c.Server.Rows(table)
}

// TestSeedLoadsInProcess seeds the same population with an index table
// through the SDK and through the in-process Loader, and checks that the
// Loader took every transaction (the service counted no other), counted
// the rows itself, and that both tables hold the same entities.
func TestSeedLoadsInProcess(t *testing.T) {
	const src = `
seed: 5
population:
  entities: 1500
  payload: 40B
  fields:
    device: {kind: id, count: 7, prefix: dev-, width: 2}
    category: {kind: choice, values: [a, b, c]}
schemes:
  - name: dev
    partition_key: "{device}"
    row_key: "{inverted_ticks}"
    indexes:
      - {name: bycat, partition_key: "{category}", row_key: "{device}_{inverted_ticks}"}
workload:
  duration: 1s
  workers: 8
  mix: [{op: point_read}]
`
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, model.Off(), faults.Config{})
		sdk := bubbled(t, srv, 16)
		local := &countingLocal{Server: srv}
		seeded := map[string]*Result{}
		for _, via := range []string{"sdk", "local"} {
			svc := TableService{Service: sdk, Measured: srv}
			if via == "local" {
				svc.Local = local
			}
			c := config(t, src, svc, plan.Overrides{})
			c.SeedOnly, c.Keep, c.Table = true, true, "seed"+via
			srv.ResetStats()
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatalf("%s: %v", via, err)
			}
			seeded[via] = res
			if via == "local" {
				// Load counts its transactions as a $batch is counted: all
				// of them, if none went over HTTP.
				var counted int64
				for _, ts := range srv.Stats().Tables {
					for _, p := range ts.Partitions {
						counted += p.Requests["202"] + p.Requests["204"]
					}
				}
				if counted != local.loads.Load() {
					t.Errorf("the service counted %d transactions, the Loader took %d", counted, local.loads.Load())
				}
			}
		}
		l, s := seeded["local"].Seed, seeded["sdk"].Seed
		if local.loads.Load() != l.Requests || l.Requests == 0 || local.rows.Load() == 0 {
			t.Errorf("the Loader took %d transactions and counted rows %d times; the seed sent %d requests", local.loads.Load(), local.rows.Load(), l.Requests)
		}
		if l.Rows != s.Rows || l.IndexRows != s.IndexRows || l.Rows != 1500 || seeded["local"].SeedCounted != seeded["sdk"].SeedCounted {
			t.Errorf("in process: %+v, counted %d; through the SDK: %+v, counted %d", l, seeded["local"].SeedCounted, s, seeded["sdk"].SeedCounted)
		}
		for _, suffix := range []string{"", "bycat"} {
			a, b := tableRows(t, sdk, "seedsdk"+suffix), tableRows(t, sdk, "seedlocal"+suffix)
			if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("table %q: %d entities through the SDK, %d in process, or they differ", suffix, len(a), len(b))
			}
		}
	})
}

// tableRows reads every entity of a table, in key order, without its
// ETag and Timestamp.
func tableRows(t *testing.T, svc *table.Service, name string) []map[string]any {
	t.Helper()
	pager := svc.Table(name).Query(context.Background(), table.Query{})
	var out []map[string]any
	for {
		page, res, more := pager.Next(context.Background())
		if res.Err != nil {
			t.Fatalf("reading %s: %v", name, res.Err)
		}
		for _, b := range page.Entities {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "odata.etag")
			delete(m, "Timestamp")
			out = append(out, m)
		}
		if !more {
			return out
		}
	}
}
