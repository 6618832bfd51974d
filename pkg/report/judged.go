package report

import (
	"slices"
	"strings"
)

// A partitions table lists the busiest partitions by entities, which need
// not be those the report judges: the partition whose figure a threshold
// observed (max_partition_peak: the partition of the highest peak, named
// by Threshold.Partition) and the partitions over their target, which the
// verdict and partitions_over_target count. The table shows those too,
// after the busiest, and says why.

// maxHotRows bounds the partitions over target a table adds below the
// busiest; the verdict counts them all.
const maxHotRows = 10

// judgedRows are the partitions a table adds below the n busiest of r:
// why is what the note under the table says of each.
type judgedRows struct {
	rows []Partition
	why  []string
}

// partitionRows are the partitions a table of the n busiest shows: the
// first n, then each partition a threshold judged and each partition over
// its target (up to maxHotRows) that is not among them.
func partitionRows(r *Report, n int) ([]Partition, judgedRows) {
	rows := append([]Partition(nil), r.Partitions[:min(n, len(r.Partitions))]...)
	var extra judgedRows
	add := func(p Partition, why string) {
		if !slices.ContainsFunc(rows, func(q Partition) bool { return q.PartitionKey == p.PartitionKey }) {
			rows = append(rows, p)
			extra.rows, extra.why = append(extra.rows, p), append(extra.why, displayKey(p.PartitionKey)+", "+why)
		}
	}
	for _, t := range r.Thresholds {
		for _, p := range r.Partitions {
			if t.Partition != "" && p.PartitionKey == t.Partition {
				add(p, "whose figure "+t.Expr+" judges")
				break
			}
		}
	}
	hot := HotPartitions(r)
	for _, p := range hot[:min(len(hot), maxHotRows)] {
		add(p, "over its target")
	}
	return rows, extra
}

// judgedNote says which rows a table of the busiest partitions holds beyond
// them, and why; "" when none.
func judgedNote(extra judgedRows) string {
	if len(extra.why) == 0 {
		return ""
	}
	return "below the busiest by entities: " + strings.Join(extra.why, "; ")
}

// observedIn is " in partition PARTITION" for a threshold on one
// partition's figure, "" otherwise.
func observedIn(t Threshold) string {
	if t.Partition == "" {
		return ""
	}
	return " in partition " + displayKey(t.Partition)
}
