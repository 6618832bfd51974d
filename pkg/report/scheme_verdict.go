package report

import (
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// SchemeVerdict names a scheme's problem in one line, for comparisons: a
// hot partition, throttling at the range partition of append-only keys,
// range queries spanning many partitions or finding few rows, batches that
// cannot fill, conflicts; or "ok".
func SchemeVerdict(r *Report) string {
	var v []string
	hots := HotPartitions(r)
	over := len(hots)
	hot := ""
	if over > 0 {
		hot = displayKey(hots[0].PartitionKey)
	}
	throttledShare := 0.0
	if r.Totals.Requests > 0 {
		throttledShare = float64(r.Totals.Throttled) / float64(r.Totals.Requests)
	}
	switch {
	case over == 1:
		v = append(v, "hot partition "+hot)
	case over > 1:
		v = append(v, fmt.Sprintf("%d hot partitions", over))
	}
	switch {
	case throttledShare > 0.01 && 2*r.Totals.Status["429 TooManyRequests"] > r.Totals.Throttled:
		// Cosmos DB refuses by request units, not entities: a table's or a
		// physical partition's RU/s, or a logical partition's.
		v = append(v, fmt.Sprintf("%.0f%% throttled by request units (429)", 100*throttledShare))
	case throttledShare > 0.01 && over == 0:
		// Throttled without any partition over its target: the shared
		// limit of a range partition or server (append-only keys), the
		// account, or the rows queries iterated, which the client does
		// not count.
		v = append(v, "throttled below the partition target (range partition, server limit or rows iterated by queries)")
	case throttledShare > 0.01:
		v = append(v, fmt.Sprintf("%.0f%% throttled", 100*throttledShare))
	}
	if b, ok := r.Operations[metrics.Batch.String()]; ok && b.Ops > 0 && b.Requests > 0 {
		perBatch := float64(b.Entities) / float64(max(b.Requests-b.Errors-b.Throttled, 1))
		if perBatch < 2 {
			v = append(v, "batches impossible (one entity per partition)")
		}
	}
	if q, ok := r.Operations[metrics.RangeQuery.String()]; ok && q.Answered() > 0 {
		if perQuery := float64(q.Entities) / float64(q.Answered()); perQuery < 2 { // of the answered: a failed query found nothing
			v = append(v, "range queries find "+fixed(perQuery, 1)+" entities")
		}
		if cp := crossPartition(r); cp != nil && cp.Requests > 0 && float64(q.Pages)/float64(q.Ops) > 2 {
			v = append(v, "range queries need "+fixed(float64(q.Pages)/float64(q.Ops), 1)+" pages")
		}
	}
	v = append(v, failedVerdict(r)...)
	if c := r.Totals.Status["409 EntityAlreadyExists"]; c > 0 {
		v = append(v, fmt.Sprintf("%s key collisions (409)", num(c)))
	}
	if r.Totals.Dropped > 0 {
		v = append(v, fmt.Sprintf("%s dropped", num(r.Totals.Dropped)))
	}
	if len(v) == 0 {
		return "ok"
	}
	return strings.Join(v, "; ")
}

func crossPartition(r *Report) *Partition {
	for i := range r.Partitions {
		if r.Partitions[i].PartitionKey == "*" {
			return &r.Partitions[i]
		}
	}
	return nil
}

// HotPartitions are the partitions over target (Partition.OverTarget, the
// one rule: see metrics.OverTarget).
func HotPartitions(r *Report) []Partition {
	var out []Partition
	for _, p := range r.Partitions {
		if p.OverTarget {
			out = append(out, p)
		}
	}
	return out
}
