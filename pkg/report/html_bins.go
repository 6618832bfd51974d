package report

// pageIntervals are the run's seconds as the page draws them: each second
// when there are at most n, else bins of k seconds (the fewest that make
// at most n bins), each with its seconds' counts summed and the highest of
// their latency percentiles (and no hottest partition); and the seconds a
// bin spans.
func pageIntervals(ivs []Interval, n int) ([]Interval, float64) {
	k := max(1, (len(ivs)+n-1)/n)
	out := make([]Interval, 0, (len(ivs)+k-1)/k)
	for i, iv := range ivs {
		if i%k == 0 {
			out = append(out, Interval{Second: iv.Second})
		}
		b := &out[len(out)-1]
		b.Counts.Add(iv.Counts)
		b.P50, b.P90, b.P99, b.Max = max(b.P50, iv.P50), max(b.P90, iv.P90), max(b.P99, iv.P99), max(b.Max, iv.Max)
	}
	return out, float64(k)
}

// pageHeatmapOf is r's heatmap as the page draws it: the first rows of
// its partitions by name, and, when the run touched more partitions, one
// more row: the mean entities per bin of all the others, what the
// intervals measured in the bin less what the named rows served. Nil when
// r has no heatmap.
func pageHeatmapOf(r *Report, rows int) *pageHeatmap {
	h := r.Heatmap
	if h == nil || len(h.Partitions) == 0 {
		return nil
	}
	shown := min(rows, len(h.Partitions), len(h.Entities))
	ph := &pageHeatmap{BinSeconds: h.BinSeconds, Partitions: h.Partitions[:shown], Entities: h.Entities[:shown]}
	bins := 0
	for _, row := range h.Entities {
		bins = max(bins, len(row))
	}
	rest := r.PartitionCount() - shown
	if rest <= 0 || bins == 0 || !(h.BinSeconds > 0) {
		return ph
	}
	total := make([]int64, bins)
	for _, iv := range r.Intervals {
		if b := int(float64(iv.Second) / h.BinSeconds); b < bins {
			total[b] += iv.Entities
		}
	}
	ph.Other, ph.OtherCount = make([]float64, bins), rest
	for b := range total {
		named := int64(0)
		for _, row := range ph.Entities {
			if b < len(row) {
				named += row[b]
			}
		}
		ph.Other[b] = float64(max(total[b]-named, 0)) / float64(rest)
	}
	return ph
}
