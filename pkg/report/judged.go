package report

import "slices"

// A threshold that judges one partition's figure (max_partition_peak) names
// that partition (Threshold.Partition), and the partitions table beside it
// shows it: the table lists the busiest by entities, which need not be the
// partition of the highest peak.

// partitionRows are the partitions a table of the n busiest shows: the
// first n, then each partition a threshold judged that is not among them
// (extra lists those).
func partitionRows(r *Report, n int) (rows []Partition, extra []Threshold) {
	rows = append(rows, r.Partitions[:min(n, len(r.Partitions))]...)
	for _, t := range r.Thresholds {
		if t.Partition == "" || slices.ContainsFunc(rows, func(p Partition) bool { return p.PartitionKey == t.Partition }) {
			continue
		}
		for _, p := range r.Partitions {
			if p.PartitionKey == t.Partition {
				rows = append(rows, p)
				extra = append(extra, t)
				break
			}
		}
	}
	return rows, extra
}

// judgedNote says which rows a table of the busiest partitions holds beyond
// them, for the thresholds that judged them; "" when none.
func judgedNote(extra []Threshold) string {
	if len(extra) == 0 {
		return ""
	}
	s := "below the busiest by entities: "
	for i, t := range extra {
		if i > 0 {
			s += "; "
		}
		s += displayKey(t.Partition) + ", whose figure " + t.Expr + " judges"
	}
	return s
}

// observedIn is " in PARTITION" for a threshold on one partition's figure,
// "" otherwise.
func observedIn(t Threshold) string {
	if t.Partition == "" {
		return ""
	}
	return " in partition " + displayKey(t.Partition)
}
