package advise

import (
	"maps"
	"math"
	"slices"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/metrics"
)

// batches measures the fill of every batch entry of the mix.
func (j *judging) batches() error {
	for k, o := range j.in.Mix {
		if o.Kind != metrics.Batch {
			continue
		}
		f, err := batchFill(j.in, j.scheme, o.Spec)
		if err != nil {
			return err
		}
		j.fill[k] = f
		j.p.BatchFill, j.p.BatchSize = f, o.Spec.Size
	}
	return nil
}

// newEntities is the new entities written a second, and the transactions
// (inserts and batches) that write them.
func (j *judging) newEntities() (entities float64) {
	for k, o := range j.in.Mix {
		switch o.Kind {
		case metrics.Insert:
			entities += o.Rate
		case metrics.Batch:
			entities += o.Rate * j.fill[k]
		}
	}
	return entities
}

// writes puts the new entities on the partitions their keys spread them
// over, and their index rows on the index tables'.
func (j *judging) writes() {
	w := j.newEntities()
	if !(w > 0) {
		j.p.write = shape{bucket: 1}
		return
	}
	span := j.span(w)
	main := shapeOf(j.in.Pop, j.scheme.PK, &j.now, span)
	j.p.write = main
	j.p.WriteEntitiesPerSec = w * j.rows
	writeRU := model.WriteUnits(j.item.bytes, j.item.props)
	for k, o := range j.in.Mix {
		per := 1.0 // entities per transaction
		switch o.Kind {
		case metrics.Insert:
		case metrics.Batch:
			per = j.fill[k]
		default:
			continue
		}
		j.spread(main, "", o.Rate, per*j.rows, per*j.rows*writeRU)
		j.l.account(o.Rate, per*j.rows, per*j.rows*writeRU)
		for _, ix := range j.scheme.Indexes {
			s := shapeOf(j.in.Pop, ix.PK, &j.now, span)
			ru := model.WriteUnits(j.item.indexBytes, 2)
			j.spread(s, ix.Name+"/", o.Rate, per, per*ru)
			// A batch's index rows go in one transaction per index
			// partition they fall in.
			j.l.account(o.Rate*distinct(s, per), per/distinct(s, per), per*ru/distinct(s, per))
		}
	}
	if main.unique {
		j.l.newRows, j.l.newRate = j.rows, w
	}
	j.p.RangeEntitiesPerSec = w * main.extends * j.rows
	if main.extends >= 0.9 {
		j.p.MonotonicOrder = map[int]string{1: "append-only", -1: "prepend-only"}[main.dir]
		j.p.Monotonic = j.p.MonotonicOrder != ""
	}
}

// spread puts rate transactions a second of e entities (ru units) each on
// the partitions of shape s, named with prefix; a time bucket takes its
// share of the second's writes. Each partition takes one term, so the
// order of the shares does not change any sum.
func (j *judging) spread(s shape, prefix string, rate, e, ru float64) {
	if s.unique {
		return
	}
	for pk, share := range s.shares {
		j.l.add(prefix+pk, rate*share*s.bucket, e, e, ru)
	}
}

// distinct is the expected number of partitions of shape s that n new
// entities fall in: Σ 1 - (1 - share)^n.
func distinct(s shape, n float64) float64 {
	if s.unique || n <= 1 {
		return math.Max(n, 1)
	}
	d := 0.0
	for _, pk := range slices.Sorted(maps.Keys(s.shares)) { // a fixed order of the sum
		d += 1 - math.Pow(1-s.shares[pk]*s.bucket, n)
	}
	return math.Max(math.Min(d, n), 1)
}
