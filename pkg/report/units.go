package report

import (
	"github.com/tablestress/tablestress/pkg/metrics"
)

// Request units: a target that charges them (Cosmos DB, or the embedded
// service under its cosmos model, answering with x-ms-request-charge) is
// judged by them. Its reports carry request_units and
// request_units_per_sec in the totals, each operation and each partition,
// each partition's peak RU/s, and RunInfo.PartitionUnits, the RU/s a
// physical partition has; their text and verdicts speak of request units
// against that share instead of entities/s against Azure Storage's
// partition target.

// unitsRate is the request units per second of c over secs, nil when
// nothing was charged.
func unitsRate(c metrics.Counts, secs float64) *float64 {
	if c.Charged == 0 {
		return nil
	}
	v := metrics.UnitsPerSec(c.RequestUnits, secs)
	return &v
}

// setUnits fills a charged partition's request units per second, its peak
// (never below its mean) and throttled peak, and judges it against units,
// the RU/s of its physical partition, when that is known.
func (p *Partition) setUnits(secs, peak, throttledPeak, units float64) {
	p.RequestUnitsPerSec = unitsRate(p.Counts, secs)
	pk := max(peak, *p.RequestUnitsPerSec)
	p.PeakRequestUnitsPerSec = &pk
	p.ThrottledPeakRequestUnitsPerSec = throttledPeak
	if units > 0 {
		p.OverTarget = metrics.OverTarget(p.PartitionKey, pk, throttledPeak, units)
	}
}

// mergeUnits adds the request units figures of o, the same partition in
// another shard: the peaks are the larger (a lower bound of the true one).
func (p *Partition) mergeUnits(o Partition) {
	if o.PeakRequestUnitsPerSec == nil {
		return
	}
	pk := *o.PeakRequestUnitsPerSec
	if p.PeakRequestUnitsPerSec != nil {
		pk = max(pk, *p.PeakRequestUnitsPerSec)
	}
	p.PeakRequestUnitsPerSec = &pk
	p.ThrottledPeakRequestUnitsPerSec = max(p.ThrottledPeakRequestUnitsPerSec, o.ThrottledPeakRequestUnitsPerSec)
}

// Charged reports whether the run's target charged request units.
func (r *Report) Charged() bool { return r.Totals.Charged > 0 }

// unitsPerOp is the request units an operation cost on average.
func unitsPerOp(s Stats) float64 {
	if s.Ops == 0 {
		return 0
	}
	return s.RequestUnits / float64(s.Ops)
}

// busiestUnits is the partition with the highest peak RU/s (not the
// cross-partition row), and false when no partition was charged.
func busiestUnits(r *Report) (Partition, bool) {
	var best Partition
	found := false
	for _, p := range r.Partitions {
		if p.PartitionKey == metrics.CrossPartition || p.PeakRequestUnitsPerSec == nil {
			continue
		}
		if !found || *p.PeakRequestUnitsPerSec > *best.PeakRequestUnitsPerSec {
			best, found = p, true
		}
	}
	return best, found
}

// peakUnits is a partition's peak RU/s, 0 when it was charged none.
func peakUnits(p Partition) float64 {
	if p.PeakRequestUnitsPerSec == nil {
		return 0
	}
	return *p.PeakRequestUnitsPerSec
}

// judgedByUnits reports whether a run's partitions are judged by request
// units: the target charged them and the physical partition's share is
// known.
func judgedByUnits(r *Report) bool { return r.Charged() && r.Run.PartitionUnits > 0 }

// partitionVerdictOf is a partition's verdict against its target: its
// RU/s against the physical partition's share when the run is judged by
// request units, else its entities/s against the partition target.
func partitionVerdictOf(r *Report, p Partition) string {
	if !judgedByUnits(r) || p.PeakRequestUnitsPerSec == nil {
		return partitionVerdict(p, r.Run.PartitionTarget)
	}
	share, peak := r.Run.PartitionUnits, *p.PeakRequestUnitsPerSec
	switch {
	case p.OverTarget && peak > share:
		return "OVER TARGET"
	case p.OverTarget:
		return "HOT: throttled at its RU/s share"
	case p.Throttled > 0:
		return "throttled"
	case peak > 0.8*share:
		return "near target"
	}
	return "ok"
}

// partitionsHeading is the line above the busiest partitions: how many,
// and what each is judged against.
func partitionsHeading(r *Report, n int) string {
	total := num(int64(r.PartitionCount()))
	switch {
	case judgedByUnits(r):
		return "busiest " + num(int64(n)) + " of " + total + " partitions (target " + rate(r.Run.PartitionUnits) +
			" RU/s per partition: a physical partition's share of the provisioned throughput)"
	case r.Charged():
		return "busiest " + num(int64(n)) + " of " + total + " partitions (request units charged; no RU/s share known: give --partition-ru)"
	}
	return "busiest " + num(int64(n)) + " of " + total + " partitions (target " + rate(r.Run.PartitionTarget) + " entities/s per partition)"
}

// TargetName names what a run's partitions are judged against, for a
// search's "limited by": "partition target", or a physical partition's
// "RU/s share" when judged by request units.
func TargetName(r *Report) string {
	if judgedByUnits(r) {
		return "physical partition RU/s share"
	}
	return "partition target"
}

// targetPhrase names what a hot partition is at or over.
func targetPhrase(r *Report) string {
	if judgedByUnits(r) {
		return "its physical partition's " + rate(r.Run.PartitionUnits) + " RU/s share"
	}
	return "the " + rate(r.Run.PartitionTarget) + " entities/s target"
}

// unitsVerdict is what the verdict says of request units: the RU/s charged
// in all and per operation, and the busiest partition's peak against its
// share; "" when the target charged none.
func unitsVerdict(r *Report) string {
	if !r.Charged() {
		return ""
	}
	s := rate(*r.Totals.RequestUnitsPerSec) + " RU/s charged (" + rate(unitsPerOp(r.Totals)) + " RU per operation)"
	if b, ok := busiestUnits(r); ok {
		s += "; busiest partition " + displayKey(b.PartitionKey) + " at " + rate(peakUnits(b)) + " RU/s"
		if share := r.Run.PartitionUnits; share > 0 {
			s += " of its " + rate(share) + " RU/s share (" + percentOf(peakUnits(b)/share) + ")"
		}
	}
	return s
}

// percentOf formats a ratio as a whole percentage.
func percentOf(f float64) string { return rate(100*f) + "%" }

// peakCell is a run's busiest peak against its yardstick, for a
// comparison: RU/s against the physical partition's share when judged by
// request units ("3,950/4,000 RU"), else entities/s against the target.
func peakCell(r *Report) string {
	if judgedByUnits(r) {
		b, _ := busiestUnits(r)
		return rate(peakUnits(b)) + "/" + rate(r.Run.PartitionUnits) + " RU"
	}
	peak, _ := r.ThresholdValue("max_partition_peak", "")
	return rate(peak) + "/" + rate(r.Run.PartitionTarget)
}

// StepUnits is what a search step records of request units: the RU/s
// charged in all and the busiest partition's peak RU/s (zeros for a target
// that charges none).
func (r *Report) StepUnits() (perSec, busiestPeak float64) {
	b, _ := busiestUnits(r)
	return rateOf(r.Totals.RequestUnitsPerSec), peakUnits(b)
}

// rateOf is a rate that may be absent (0 then).
func rateOf(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}
