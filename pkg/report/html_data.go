package report

import (
	"cmp"
	"slices"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// The HTML report embeds what its charts draw, not the whole report: the
// busiest partitions in full, the load spread over every partition as a
// curve of at most spreadPoints points, the heatmap's named rows and one
// row for the rest, and the seconds of the run binned to at most
// pageSeconds points. Its size follows what the page shows, not how
// many partitions the run touched; the JSON report keeps every partition.

// Bounds of what the page embeds per run.
const (
	// pagePartitions is how many of the busiest partitions it embeds in
	// full (the charts draw the first 40; the table lists htmlPartitions).
	pagePartitions = 100
	// unitsPartitions is how many of the busiest by peak RU/s it adds.
	unitsPartitions = 40
	// spreadPoints bounds the load spread curve.
	spreadPoints = 400
	// heatmapRows is how many partitions the heatmap names; the rest are
	// one row, their mean.
	heatmapRows = 20
	// pageSeconds bounds the points of the charts over time.
	pageSeconds = 600
)

// pageData is the data block of the page.
type pageData struct {
	Runs []pageRun `json:"runs"`
}

// pageRun is what the page draws of one run.
type pageRun struct {
	Scheme     string                  `json:"scheme"`
	DurationS  float64                 `json:"duration_s"`
	Run        pageRunInfo             `json:"run"`
	Totals     metrics.Counts          `json:"totals"`
	Operations map[string]pageLatency  `json:"operations"`
	Questions  map[string]pageQuestion `json:"questions,omitempty"`
	// Intervals are the run's seconds, IntervalS seconds each (more than
	// one when a long run's seconds are binned).
	Intervals []Interval `json:"intervals"`
	IntervalS float64    `json:"interval_s"`
	// Partitions are the busiest pagePartitions partitions, the busiest
	// unitsPartitions by peak RU/s and those a threshold judged, busiest
	// first; PartitionCount counts every partition of the run.
	Partitions     []pagePartition `json:"partitions"`
	PartitionCount int             `json:"partition_count"`
	// BusiestPeak is the highest peak entities/s of a partition.
	BusiestPeak float64 `json:"busiest_peak"`
	// Spread is every partition's peak entities/s, busiest first, as at
	// most spreadPoints [share of the partitions in %, peak] points.
	Spread  [][2]float64 `json:"spread"`
	Heatmap *pageHeatmap `json:"heatmap,omitempty"`
	Find    *Find        `json:"find,omitempty"`
}

type pageRunInfo struct {
	PartitionTarget float64 `json:"partition_target"`
	PartitionUnits  float64 `json:"partition_request_units,omitempty"`
}

type pageLatency struct {
	Latency Latency `json:"latency_ms"`
}

type pageQuestion struct {
	Ops                    int64   `json:"ops"`
	Failed                 int64   `json:"failed"`
	Plan                   string  `json:"plan"`
	Scope                  string  `json:"scope,omitempty"`
	RequestsPerQuestion    float64 `json:"requests_per_question"`
	RowsVisitedPerQuestion float64 `json:"rows_visited_per_question"`
	Latency                Latency `json:"latency_ms"`
}

type pagePartition struct {
	PartitionKey           string   `json:"partition_key"`
	Entities               int64    `json:"entities"`
	EntitiesPerSec         float64  `json:"entities_per_sec"`
	PeakEntitiesPerSec     float64  `json:"peak_entities_per_sec"`
	RequestUnitsPerSec     *float64 `json:"request_units_per_sec,omitempty"`
	PeakRequestUnitsPerSec *float64 `json:"peak_request_units_per_sec,omitempty"`
}

// pageHeatmap is the heatmap as drawn: entities per bin of the named
// partitions, then, when there are more partitions, of the rest on
// average (Other, over OtherCount partitions).
type pageHeatmap struct {
	BinSeconds float64   `json:"bin_s"`
	Partitions []string  `json:"partitions"`
	Entities   [][]int64 `json:"entities"`
	Other      []float64 `json:"other,omitempty"`
	OtherCount int       `json:"other_count,omitempty"`
}

// pageOf is what the page draws of r.
func pageOf(r *Report) pageRun {
	pr := pageRun{Scheme: r.Scheme, DurationS: r.DurationS, Run: pageRunInfo{r.Run.PartitionTarget, r.Run.PartitionUnits},
		Totals: r.Totals.Counts, Operations: map[string]pageLatency{}, PartitionCount: r.PartitionCount(), Find: r.Find}
	for op, s := range r.Operations {
		pr.Operations[op] = pageLatency{s.Latency}
	}
	if len(r.Questions) > 0 {
		pr.Questions = map[string]pageQuestion{}
		for n, q := range r.Questions {
			pr.Questions[n] = pageQuestion{Ops: q.Ops, Failed: q.Failed, Plan: q.Plan, Scope: q.Scope, RequestsPerQuestion: q.RequestsPerQuestion,
				RowsVisitedPerQuestion: q.RowsVisitedPerQuestion, Latency: q.Latency}
		}
	}
	pr.Intervals, pr.IntervalS = pageIntervals(r.Intervals, pageSeconds)
	pr.Partitions = pagePartitionsOf(r)
	if p, ok := r.PeakPartition(); ok {
		pr.BusiestPeak = p.PeakEntitiesPerSec
	}
	pr.Spread = spreadOf(r.Partitions, spreadPoints)
	pr.Heatmap = pageHeatmapOf(r, heatmapRows)
	return pr
}

// pagePartitionsOf are the partitions the page draws in full, in report
// order: the busiest pagePartitions, the busiest unitsPartitions by peak
// RU/s, and those a threshold judged.
func pagePartitionsOf(r *Report) []pagePartition {
	keep := map[string]bool{}
	for _, p := range r.Partitions[:min(len(r.Partitions), pagePartitions)] {
		keep[p.PartitionKey] = true
	}
	byUnits := slices.Clone(r.Partitions)
	slices.SortStableFunc(byUnits, func(a, b Partition) int { return cmp.Compare(peakUnits(b), peakUnits(a)) })
	for _, p := range byUnits[:min(len(byUnits), unitsPartitions)] {
		keep[p.PartitionKey] = keep[p.PartitionKey] || p.PeakRequestUnitsPerSec != nil
	}
	for _, t := range r.Thresholds {
		if t.Partition != "" {
			keep[t.Partition] = true
		}
	}
	out := make([]pagePartition, 0, len(keep))
	for _, p := range r.Partitions {
		if keep[p.PartitionKey] {
			out = append(out, pagePartition{PartitionKey: p.PartitionKey, Entities: p.Entities, EntitiesPerSec: p.EntitiesPerSec,
				PeakEntitiesPerSec: p.PeakEntitiesPerSec, RequestUnitsPerSec: p.RequestUnitsPerSec, PeakRequestUnitsPerSec: p.PeakRequestUnitsPerSec})
		}
	}
	return out
}

// spreadOf is the peak entities/s of every partition but the
// cross-partition row, busiest first, as at most n points [x, peak]: x is
// the partition's place as a share (0 to 100%) of them, a peak below 0.1
// is drawn at 0.1 (the chart's axis is logarithmic), and the last
// partition is always a point.
func spreadOf(parts []Partition, n int) [][2]float64 {
	peaks := make([]float64, 0, len(parts))
	for _, p := range parts {
		if p.PartitionKey != metrics.CrossPartition {
			peaks = append(peaks, p.PeakEntitiesPerSec)
		}
	}
	slices.SortFunc(peaks, func(a, b float64) int { return cmp.Compare(b, a) })
	out := [][2]float64{}
	if len(peaks) == 0 {
		return out
	}
	step := max(1, (len(peaks)+n-2)/(n-1))
	x := func(i int) float64 {
		if len(peaks) == 1 {
			return 0
		}
		return 100 * float64(i) / float64(len(peaks)-1)
	}
	for i := 0; i < len(peaks); i += step {
		out = append(out, [2]float64{x(i), max(peaks[i], 0.1)})
	}
	if last := len(peaks) - 1; (last)%step != 0 {
		out = append(out, [2]float64{x(last), max(peaks[last], 0.1)})
	}
	return out
}
