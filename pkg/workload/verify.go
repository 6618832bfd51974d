package workload

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// ledger remembers every write the service acknowledged during the run, so
// the run can read them back (--verify): for each entity written, the
// versions acknowledged (concurrent writers may race, any acknowledged one
// may be the last), and whether its last acknowledged change was a delete.
// Safe for concurrent use.
type ledger struct {
	mu      sync.Mutex
	entries map[int64]*ledgerEntry
}

type ledgerEntry struct {
	versions []int64
	deleted  bool
}

func newLedger() *ledger { return &ledger{entries: map[int64]*ledgerEntry{}} }

// wrote records an acknowledged write of entity i with version v.
func (l *ledger) wrote(i, v int64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	e := l.entries[i]
	if e == nil {
		e = &ledgerEntry{}
		l.entries[i] = e
	}
	if e.deleted {
		e.versions = e.versions[:0]
	}
	e.deleted = false
	e.versions = append(e.versions, v)
	l.mu.Unlock()
}

// removed records an acknowledged delete of entity i.
func (l *ledger) removed(i int64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	e := l.entries[i]
	if e == nil {
		e = &ledgerEntry{}
		l.entries[i] = e
	}
	e.deleted, e.versions = true, e.versions[:0]
	l.mu.Unlock()
}

// VerifyResult is what reading back the acknowledged writes found.
type VerifyResult struct {
	Checked    int64    `json:"checked"`
	Missing    int64    `json:"missing"`     // acknowledged writes not in the table
	Mismatched int64    `json:"mismatched"`  // present with a version no acknowledged write had
	Resurrect  int64    `json:"resurrected"` // acknowledged deletes still in the table
	Unreadable int64    `json:"unreadable"`  // could not be read back (errors after retries)
	Examples   []string `json:"examples,omitempty"`
}

// OK reports whether every acknowledged write was found as written.
func (v *VerifyResult) OK() bool { return v.Missing+v.Mismatched+v.Resurrect+v.Unreadable == 0 }

// verify reads back the main row of every entity in the ledger with workers
// in parallel; throttled reads are retried patiently.
func (l *ledger) verify(ctx context.Context, p *plan.Plan, s Store, workers int, clk Clock) *VerifyResult {
	ids := make([]int64, 0, len(l.entries))
	for i := range l.entries {
		ids = append(ids, i)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	v := &verifier{l: l, plan: p, store: s, clock: clk, res: &VerifyResult{}}
	work := clock.NewQueue[int64](clk, 1)
	wg := clock.NewGroup(clk)
	for w := 0; w < max(workers, 1); w++ {
		wg.Go(func() { v.worker(ctx, w, work) })
	}
	for _, i := range ids {
		if !work.Send(ctx, i) {
			break
		}
	}
	work.Close()
	wg.Wait()
	return v.res
}

// verifier is the read-back of a ledger; its workers share it.
type verifier struct {
	l     *ledger
	plan  *plan.Plan
	store Store
	clock Clock
	mu    sync.Mutex // guards res
	res   *VerifyResult
}

// worker is verify's worker w: it checks the entities it receives until
// work is closed.
func (v *verifier) worker(ctx context.Context, w int, work clock.Queue[int64]) {
	var ent keygen.Entity
	var keys keygen.Keys
	st := keygen.NewStream(v.plan.Seed^0x7e41f7, uint64(w))
	for {
		i, ok := work.Recv()
		if !ok {
			return
		}
		v.plan.Pop.Entity(i, &ent)
		v.plan.Scheme.Keys(&ent, &keys)
		v.check(ctx, &st, i, string(keys.PK), string(keys.RK))
	}
}

// check reads entity i back (PartitionKey pk, RowKey rk) and counts what it
// finds against the ledger.
func (v *verifier) check(ctx context.Context, st *keygen.Stream, i int64, pk, rk string) {
	var page table.Page
	r := retry(ctx, nil, v.clock, DefaultSeedRetry, st, func(ctx context.Context) table.Result {
		var r table.Result
		page, r, _ = v.store.Query(ctx, table.Query{Filter: table.FilterPoint(pk, rk), Select: []string{"Version"}, Top: 1}).Next(ctx)
		return r
	}, nil)
	e := v.l.entries[i]
	v.mu.Lock()
	v.res.Checked++
	v.mu.Unlock()
	switch {
	case r.Outcome.Class != outcome.OK:
		v.note(&v.res.Unreadable, "entity %d (%s, %s): %v", i, pk, rk, r.Err)
	case e.deleted && len(page.Entities) > 0:
		v.note(&v.res.Resurrect, "entity %d (%s, %s) was deleted but is still there", i, pk, rk)
	case e.deleted:
	case len(page.Entities) == 0:
		v.note(&v.res.Missing, "entity %d (%s, %s) was acknowledged but is missing", i, pk, rk)
	default:
		var got struct{ Version int64 }
		_ = json.Unmarshal(page.Entities[0], &got)
		found := false
		for _, ver := range e.versions {
			found = found || ver == got.Version
		}
		if !found {
			v.note(&v.res.Mismatched, "entity %d (%s, %s) has version %d, acknowledged %v", i, pk, rk, got.Version, e.versions)
		}
	}
}

// note counts a finding in counter, keeping the first ten as examples.
func (v *verifier) note(counter *int64, format string, a ...any) {
	v.mu.Lock()
	*counter++
	if len(v.res.Examples) < 10 {
		v.res.Examples = append(v.res.Examples, fmt.Sprintf(format, a...))
	}
	v.mu.Unlock()
}
