package plan

import "github.com/tablestress/tablestress/pkg/keygen"

// batcher assembles entity group transactions out of new entities: an entity
// group transaction needs every entity in one partition, but consecutive new
// entities usually fall in different partitions. The batcher allocates new
// indices, buckets them by PartitionKey, and hands out a bucket once it holds
// the batch size, like a partition-aware write buffer in an application.
//
// It holds at most max(pendingFactor × size, pendingMin) entities; when that
// many are pending
// and none of their partitions has filled, it hands out the fullest bucket
// (with unique PartitionKeys that is one entity: batches are impossible, and
// the report shows it). Pending entities are not written until handed out.
// No bucket ever holds size entities between calls. A batcher belongs to one
// worker.
type batcher struct {
	plan    *Plan
	pending map[string][]int64
	count   int
	ent     keygen.Entity
	pk      []byte
}

const (
	pendingFactor = 4
	pendingMin    = 2048
)

func pendingLimit(size int) int { return max(pendingFactor*size, pendingMin) }

func newBatcher(p *Plan) batcher { return batcher{plan: p, pending: map[string][]int64{}} }

// next returns up to size new entities sharing a PartitionKey, or nil when
// no new index can be allocated.
func (b *batcher) next(size int) []int64 {
	for {
		if b.count >= pendingLimit(size) {
			best, n := "", 0
			for pk, group := range b.pending {
				if len(group) > n || (len(group) == n && pk < best) {
					best, n = pk, len(group)
				}
			}
			return b.take(best, size)
		}
		var i int64
		if t := b.plan.Targets; t != nil {
			var err error
			if i, err = t.Allocate(); err != nil {
				i = -1
			}
		} else {
			i = b.plan.Space.Allocate()
		}
		if i < 0 {
			if b.count == 0 {
				return nil
			}
			b.count = pendingLimit(size) // flush what is pending
			continue
		}
		b.plan.Pop.Entity(i, &b.ent)
		b.pk = b.plan.Scheme.PK.Append(b.pk[:0], &b.ent)
		group, ok := b.pending[string(b.pk)]
		if !ok {
			group = make([]int64, 0, size)
		}
		group = append(group, i)
		b.pending[string(b.pk)] = group
		b.count++
		if len(group) >= size {
			return b.take(string(b.pk), size)
		}
	}
}

func (b *batcher) take(pk string, size int) []int64 {
	group := b.pending[pk]
	n := min(len(group), size)
	out := append([]int64(nil), group[:n]...)
	if rest := group[n:]; len(rest) > 0 {
		b.pending[pk] = append(group[:0], rest...)
	} else {
		delete(b.pending, pk)
	}
	b.count -= n
	return out
}
