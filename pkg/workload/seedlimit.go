package workload

import (
	"context"
	"sync"
	"time"

	"github.com/tablestress/tablestress/pkg/azure"
	"golang.org/x/time/rate"
)

// SeedLimits pace the seed phase so that seeding a real account stays
// under its scalability targets instead of provoking throttling and
// retries. Zero fields do not limit.
type SeedLimits struct {
	// Requests bounds the requests per second to the account (a
	// transaction is one request).
	Requests float64
	// PartitionEntities bounds each partition's entities per second.
	PartitionEntities float64
}

// AzureSeedLimits are Azure Storage's scalability targets for tables: the
// account's requests per second (a transaction one request) and a
// partition's entities per second, from pkg/azure, where their source is.
var AzureSeedLimits = SeedLimits{Requests: azure.AccountRequestsPerSec, PartitionEntities: azure.PartitionEntitiesPerSec}

// seedPacer paces seed requests by SeedLimits on the run's clock. It is
// safe for concurrent use.
type seedPacer struct {
	limits  SeedLimits
	clock   Clock
	account *rate.Limiter // nil: no limit

	mu    sync.Mutex
	parts map[partLimitKey]*rate.Limiter
	calls int
}

// partLimitKey names a partition of one table (a Store) for its limiter.
type partLimitKey struct {
	store Store
	pk    string
}

// transactionEntities is the most entities one request carries (an entity
// group transaction): a partition limiter's burst holds at least that many.
const transactionEntities = 100

// sweepEvery is how many waits pass between sweeps of idle partition
// limiters, which keep the limiters' memory to the partitions being
// seeded now, not every partition of the population.
const sweepEvery = 4096

func newSeedPacer(l SeedLimits, clock Clock) *seedPacer {
	p := &seedPacer{limits: l, clock: clock, parts: map[partLimitKey]*rate.Limiter{}}
	if l.Requests > 0 {
		p.account = rate.NewLimiter(rate.Limit(l.Requests), max(1, int(l.Requests/10)))
	}
	return p
}

// partitionBurst is a partition limiter's burst: 0.1 s of its rate, but at
// least a full transaction.
func (p *seedPacer) partitionBurst() int {
	return max(transactionEntities, int(p.limits.PartitionEntities/10))
}

// wait blocks until a request of n entities to partition pk of store may
// go: one request of the account's budget and n entities of the
// partition's. It reports false when ctx ended first.
func (p *seedPacer) wait(ctx context.Context, store Store, pk string, n int) bool {
	if p == nil {
		return ctx.Err() == nil
	}
	now := p.clock.Now()
	var delay time.Duration
	if p.account != nil {
		delay = p.account.ReserveN(now, 1).DelayFrom(now)
	}
	if p.limits.PartitionEntities > 0 {
		delay = max(delay, p.partition(store, pk, now).ReserveN(now, min(n, p.partitionBurst())).DelayFrom(now))
	}
	return p.clock.Sleep(ctx, delay)
}

// partition returns pk's limiter, now and then forgetting limiters that
// are full again (a full limiter is the same as a new one).
func (p *seedPacer) partition(store Store, pk string, now time.Time) *rate.Limiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls++; p.calls%sweepEvery == 0 {
		burst := float64(p.partitionBurst())
		for k, l := range p.parts {
			if l.TokensAt(now) >= burst {
				delete(p.parts, k)
			}
		}
	}
	k := partLimitKey{store, pk}
	l := p.parts[k]
	if l == nil {
		l = rate.NewLimiter(rate.Limit(p.limits.PartitionEntities), p.partitionBurst())
		p.parts[k] = l
	}
	return l
}
