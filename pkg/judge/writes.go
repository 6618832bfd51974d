package judge

import (
	"math"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/metrics"
)

// shape fills the figures of the writes that no size changes: the new
// entities' rows a second, the partitions they go to at once, and
// whether their PartitionKeys all land beyond the existing ones.
func (j *judging) shape() {
	w := j.newEntities()
	if !(w > 0) {
		return
	}
	main := j.lays[0]
	j.p.WriteEntitiesPerSec = w * main.rows
	if main.unique {
		j.p.PartitionsWritten = int(math.Min(w, math.MaxInt32))
	} else {
		j.p.PartitionsWritten = int(math.Min(main.keys(), math.MaxInt32))
	}
	dir, extends := leading(main.parts, main.srcs, main.keys(), j.in.Pop.Spec().Interval)
	j.p.RangeEntitiesPerSec = w * extends * main.rows
	if extends >= 0.9 {
		j.p.MonotonicOrder = map[int]string{1: "append-only", -1: "prepend-only"}[dir]
		j.p.Monotonic = j.p.MonotonicOrder != ""
	}
}

// turnover is the share of a second's writes one time bucket of lay
// holds at size s: all of them when the bucket outlasts the event time a
// second of writes covers, else the part of it the bucket spans.
func (j *judging) turnover(lay *layout, s Size, w float64) float64 {
	e := s.perSec()
	if lay.unit <= 0 || math.IsInf(e, 1) || !(w > 0) {
		return 1
	}
	return math.Min(1, e*lay.unit.Seconds()/w)
}

// writes puts the new entities on the current time bucket of the
// partitions their keys spread them over, in every table, and their
// requests on the account: a transaction for an entity's main rows (its
// secondary rows go with it), one per index table partition its index
// rows fall in.
func (j *judging) writes(l *loads, s Size) {
	w := j.newEntities()
	if !(w > 0) {
		return
	}
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
		for x, lay := range j.lays {
			ru := writeRU
			if x > 0 {
				ru = model.WriteUnits(j.item.indexBytes[x-1], 2)
			}
			bf := j.turnover(lay, s, w)
			if lay.unique {
				l.newRows = math.Max(l.newRows, lay.rows)
			} else {
				for g, gr := range lay.groups {
					if x == 0 {
						l.add(pkey{0, int32(g), 0}, o.Rate*gr.share/lay.hashes*bf, per*lay.rows, per*lay.rows, per*lay.rows*ru)
					} else {
						// An entity's index row is a request of its own.
						l.add(pkey{int32(x), int32(g), 0}, o.Rate*per*gr.share/lay.hashes*bf, 1, 1, ru)
					}
				}
			}
			l.ingress += o.Rate * per * lay.rows * float64(j.rowBytes(x))
			if x == 0 {
				l.account(o.Rate, per*lay.rows, per*lay.rows*ru)
				l.writes += o.Rate
				continue
			}
			// A batch's index rows go in one transaction per index
			// partition they fall in.
			d := j.distinct(lay, s, per, bf)
			l.account(o.Rate*d, per/d, per*ru/d)
			l.writes += o.Rate * d
		}
	}
}

// distinct is the expected number of partitions of lay that n new
// entities fall in: Σ 1 - (1 - share)^n over the current partitions.
func (j *judging) distinct(lay *layout, s Size, n, bf float64) float64 {
	if lay.unique || n <= 1 {
		return math.Max(n, 1)
	}
	d := 0.0
	for _, g := range lay.groups {
		p := g.share / lay.hashes * bf
		d += g.mult * lay.hashes * (1 - math.Pow(1-p, n))
	}
	return math.Max(math.Min(d, n), 1)
}
