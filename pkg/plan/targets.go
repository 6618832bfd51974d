package plan

import (
	"errors"
	"sync"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// ErrNoTargetEntity means no entity of the population falls in the target
// partitions within the search limit.
var ErrNoTargetEntity = errors.New("plan: no entity maps to the target partitions")

// targetSearch bounds how far allocation looks for the next entity in a
// target partition.
const targetSearch = 1 << 20

// Targets pins operations to named partitions (REST "Design a scalable
// partitioning strategy for Azure Table storage", "Table partition stress
// testing", step 3: "target a single partition"). It keeps the list of
// entity indices that fall in the target partitions; picks choose a
// position in that list with the request distribution, and inserts take
// the next new index whose PartitionKey is a target (skipped indices are
// never written).
//
// Safe for concurrent use: the list is guarded by a mutex, which is taken
// once per pick or insert.
type Targets struct {
	space  *Keyspace
	pop    *keygen.Population
	sch    *keygen.Scheme
	accept func(pk []byte) bool

	mu   sync.Mutex
	list []int64
	ent  keygen.Entity
	keys keygen.Keys
}

// NewTargets scans the seeded entities [0, seeded) for the partitions
// accept admits: named target partitions, a shard's share, or both.
func NewTargets(space *Keyspace, pop *keygen.Population, sch *keygen.Scheme, accept func(pk []byte) bool, seeded int64) *Targets {
	t := &Targets{space: space, pop: pop, sch: sch, accept: accept}
	for i := int64(0); i < seeded; i++ {
		if t.member(i) {
			t.list = append(t.list, i)
		}
	}
	return t
}

// member reports whether entity i's PartitionKey is a target. Callers hold mu
// or own t exclusively.
func (t *Targets) member(i int64) bool {
	t.pop.Entity(i, &t.ent)
	t.keys.PK = t.sch.PK.Append(t.keys.PK[:0], &t.ent)
	return t.accept(t.keys.PK)
}

// Partitions returns an accept function for named partitions.
func Partitions(names []string) func(pk []byte) bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return func(pk []byte) bool { return set[string(pk)] }
}

// Shard returns an accept function for shard i of n: the partitions whose
// PartitionKey hashes (FNV-1a) to i modulo n, so n processes take disjoint
// sets of partitions that together make the whole run.
func Shard(i, n int) func(pk []byte) bool {
	return func(pk []byte) bool {
		h := uint64(14695981039346656037)
		for _, c := range pk {
			h ^= uint64(c)
			h *= 1099511628211
		}
		return h%uint64(n) == uint64(i)
	}
}

// both accepts what a and b accept; a nil function accepts everything.
func both(a, b func([]byte) bool) func([]byte) bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(pk []byte) bool { return a(pk) && b(pk) }
}

// Len returns how many target-partition entities are in the list.
func (t *Targets) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.list)
}

// Pick draws an existing entity of the target partitions. After pickTries
// draws on missing entities it takes the next existing one in the list
// (wrapping around); it returns false only when none exists.
func (t *Targets) Pick(d keygen.Distribution, st *keygen.Stream) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := int64(len(t.list))
	if n == 0 {
		return 0, false
	}
	var at int64
	for try := 0; try < pickTries; try++ {
		if at = d.Pick(st, n); t.space.Exists(t.list[at]) {
			return t.list[at], true
		}
	}
	for k := int64(1); k < n; k++ { // the nearest existing one after the last draw
		if i := t.list[(at+k)%n]; t.space.Exists(i) {
			return i, true
		}
	}
	return 0, false
}

// Allocate returns the next new index whose PartitionKey is a target.
func (t *Targets) Allocate() (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for n := 0; n < targetSearch; n++ {
		i := t.space.Allocate()
		if i < 0 {
			break
		}
		if t.member(i) {
			return i, nil
		}
	}
	return 0, ErrNoTargetEntity
}

// Added records an acknowledged insert of a target entity.
func (t *Targets) Added(i int64) {
	t.mu.Lock()
	t.list = append(t.list, i)
	t.mu.Unlock()
}

// Spread returns up to k entities of the list, evenly spread over it.
func (t *Targets) Spread(k int) []int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(t.list)
	var out []int64
	for j := 0; j < k && j < n; j++ {
		out = append(out, t.list[j*(n-1)/max(min(k, n)-1, 1)])
	}
	return out
}
