package report

import (
	"cmp"
	"slices"

	"github.com/tablestress/tablestress/pkg/metrics"
)

// OtherPartitions sums the partitions a summarised report leaves out of
// its partitions list: how many, their counts added (so the list and
// this add up to what every partition counted), their entities per
// second together, the highest of their peaks and their statuses.
type OtherPartitions struct {
	Partitions int `json:"partitions"`
	metrics.Counts
	EntitiesPerSec     float64          `json:"entities_per_sec"`
	PeakEntitiesPerSec float64          `json:"peak_entities_per_sec"`
	Status             map[string]int64 `json:"status,omitempty"`
}

// add sums p into o.
func (o *OtherPartitions) add(p Partition) {
	o.Partitions++
	o.Counts.Add(p.Counts)
	o.EntitiesPerSec += p.EntitiesPerSec
	o.PeakEntitiesPerSec = max(o.PeakEntitiesPerSec, p.PeakEntitiesPerSec)
	for k, v := range p.Status {
		if o.Status == nil {
			o.Status = map[string]int64{}
		}
		o.Status[k] += v
	}
}

// merge adds another summary's partitions to o.
func (o *OtherPartitions) merge(x *OtherPartitions) {
	o.Partitions += x.Partitions
	o.Counts.Add(x.Counts)
	o.EntitiesPerSec += x.EntitiesPerSec
	o.PeakEntitiesPerSec = max(o.PeakEntitiesPerSec, x.PeakEntitiesPerSec)
	for k, v := range x.Status {
		if o.Status == nil {
			o.Status = map[string]int64{}
		}
		o.Status[k] += v
	}
}

// KeptPartitions is how many of the busiest partitions a summarised
// report lists (the HTML draws as many), besides those it always keeps.
const KeptPartitions = 100

// keptByUnits is how many of the busiest partitions by peak request
// units it keeps besides, for a target that charges them.
const keptByUnits = 40

// PartitionCount is how many partitions the run touched: those listed
// and those a summary sums.
func (r *Report) PartitionCount() int {
	n := len(r.Partitions)
	if r.OtherPartitions != nil {
		n += r.OtherPartitions.Partitions
	}
	return n
}

// Summarised returns r with its partitions list cut to what a reader
// looks at: the busiest keep by entities, the busiest by peak request
// units, the one of the highest peak, the most throttled, every one over
// its target, the requests spanning partitions and each partition a
// threshold judged, in r's order; the others are summed in
// OtherPartitions. The list and the sum add up to what r's list did. r
// is not changed; a copy is returned when anything was left out.
func Summarised(r *Report, keep int) *Report {
	if len(r.Partitions) <= keep {
		return r
	}
	kept := keptPartitions(r, keep)
	out := *r
	out.Partitions = make([]Partition, 0, len(kept))
	rest := &OtherPartitions{}
	if r.OtherPartitions != nil {
		rest.merge(r.OtherPartitions)
	}
	for _, p := range r.Partitions {
		if kept[p.PartitionKey] {
			out.Partitions = append(out.Partitions, p)
		} else {
			rest.add(p)
		}
	}
	out.OtherPartitions = rest
	return &out
}

// keptPartitions are the keys Summarised keeps.
func keptPartitions(r *Report, keep int) map[string]bool {
	kept := map[string]bool{metrics.CrossPartition: true}
	for _, p := range r.Partitions[:keep] {
		kept[p.PartitionKey] = true
	}
	if p, ok := r.PeakPartition(); ok {
		kept[p.PartitionKey] = true
	}
	throttled := r.Partitions[0]
	for _, p := range r.Partitions {
		if p.OverTarget {
			kept[p.PartitionKey] = true
		}
		if p.Throttled > throttled.Throttled {
			throttled = p
		}
	}
	kept[throttled.PartitionKey] = true
	for _, t := range r.Thresholds {
		if t.Partition != "" {
			kept[t.Partition] = true
		}
	}
	byUnits := slices.Clone(r.Partitions)
	slices.SortStableFunc(byUnits, func(a, b Partition) int { return cmp.Compare(peakUnits(b), peakUnits(a)) })
	for _, p := range byUnits[:min(len(byUnits), keptByUnits)] {
		if p.PeakRequestUnitsPerSec != nil {
			kept[p.PartitionKey] = true
		}
	}
	return kept
}

// SummarisedCompare returns c with each run Summarised.
func SummarisedCompare(c *Compare, keep int) *Compare {
	out := *c
	out.Runs = make([]*Report, len(c.Runs))
	for i, r := range c.Runs {
		out.Runs[i] = Summarised(r, keep)
	}
	return &out
}
