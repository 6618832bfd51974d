package workload

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/outcome"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
)

// writeRefusing is a Service whose stores refuse every write with 403
// AuthorizationPermissionMismatch once on is set: an identity that may
// read but not write.
type writeRefusing struct {
	TableService
	on *atomic.Bool
}

func (s writeRefusing) Store(name string) Store {
	return refusingStore{s.TableService.Store(name), s.on}
}

type refusingStore struct {
	Store
	on *atomic.Bool
}

var mismatch = table.Result{Outcome: outcome.New(403, "AuthorizationPermissionMismatch"), FailedIndex: -1,
	Err: errors.New("403 AuthorizationPermissionMismatch: This request is not authorized to perform this operation using this permission")}

func (s refusingStore) refuse(do func() table.Result) table.Result {
	if s.on.Load() {
		return mismatch
	}
	return do()
}

func (s refusingStore) Insert(ctx context.Context, e []byte) table.Result {
	return s.refuse(func() table.Result { return s.Store.Insert(ctx, e) })
}
func (s refusingStore) Upsert(ctx context.Context, e []byte, m table.UpdateMode) table.Result {
	return s.refuse(func() table.Result { return s.Store.Upsert(ctx, e, m) })
}
func (s refusingStore) Update(ctx context.Context, e []byte, m table.UpdateMode, etag string) table.Result {
	return s.refuse(func() table.Result { return s.Store.Update(ctx, e, m, etag) })
}
func (s refusingStore) Delete(ctx context.Context, pk, rk, etag string) table.Result {
	return s.refuse(func() table.Result { return s.Store.Delete(ctx, pk, rk, etag) })
}
func (s refusingStore) Submit(ctx context.Context, a []table.Action) table.Result {
	return s.refuse(func() table.Result { return s.Store.Submit(ctx, a) })
}

// A write refused for want of permission stops the run at once, with the
// refusal as its cause: not after --down-after of refusals, and with no
// retry of the refused write. With --reconnect the run goes on through
// them and counts them.
func TestDeniedWriteStopsRunAtOnce(t *testing.T) {
	for _, reconnect := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			mc := model.Default()
			mc.Latency.On = false
			srv := newServer(t, mc, faults.Config{})
			on := new(atomic.Bool)
			svc := writeRefusing{TableService{Service: bubbled(t, srv, 16)}, on}
			sp := spec(t, readScenario(t, "quickstart.yaml"), plan.Overrides{Duration: 3 * time.Second, Warmup: durationOf(0), Entities: int64Of(2000)})
			c := Config{Spec: sp, Service: svc, Reconnect: reconnect}
			c.Events.Phase = func(p Phase) { on.Store(p == PhaseRun) }
			res, err := Run(context.Background(), c)
			s := res.Summary
			if s == nil {
				t.Fatalf("reconnect %v: no summary: %v", reconnect, err)
			}
			refused := s.Totals.Status["403 AuthorizationPermissionMismatch"]
			if reconnect {
				if err != nil || s.Duration() != 3*time.Second || refused < 100 {
					t.Errorf("reconnect: err %v, measured %v, %d refusals; want the whole run, counting them", err, s.Duration(), refused)
				}
				return
			}
			if !errors.Is(err, ErrRefused) || !strings.Contains(res.Failure, "the target refused the run: ") ||
				!strings.Contains(res.Failure, "AuthorizationPermissionMismatch") {
				t.Fatalf("err %v, failure %q", err, res.Failure)
			}
			// At 800 operations/s (a quarter of them writes), the first
			// write comes within milliseconds; the stop is at once, not
			// at the next second's tick nor after 5 s of refusals.
			if d := s.Duration(); d >= 100*time.Millisecond || refused == 0 || s.Totals.Retries != 0 {
				t.Errorf("measured %v, %d refusals, %d retries: want a stop within the first write's millisecond, without retries", d, refused, s.Totals.Retries)
			}
		})
	}
}

func int64Of(n int64) *int64 { return &n }
