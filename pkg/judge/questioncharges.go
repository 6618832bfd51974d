package judge

import "maps"

// Each question's reads are kept apart on every partition they charge
// (partLoad.chargedBy): a partition hot from one question's reads alone
// stays hot whatever else the load asks or writes, and advise asks of
// each question whether its own reads make every design's partitions
// hot (QuestionCost.ChargedEntitiesPerSec).

// charge notes that question what's reads charge each partition of k
// charged entities a second (already added to its load by add or
// addTotals).
func (l *loads) charge(k pkey, charged float64, what string) {
	if !(charged > 0) {
		return
	}
	p := l.part(k)
	if p.chargedBy == nil {
		p.chargedBy = map[string]float64{}
	}
	p.chargedBy[what] += charged
}

// hottestOf is the partition question what's reads charge the most
// entities a second, and those entities, or none (ok false): of one
// question, what busiest is of the whole load.
func (l *loads) hottestOf(what string) (pkey, float64, bool) {
	return l.mostOf(what, func(p partLoad) map[string]float64 { return p.chargedBy })
}

// mostOf is the partition whose figure by question or operation (by of a
// partition's load) is the largest for what, and that figure, or none
// (ok false); over the partitions the table holds, in their order.
func (l *loads) mostOf(what string, by func(partLoad) map[string]float64) (pkey, float64, bool) {
	var best pkey
	most, ok := 0.0, false
	ks, ps := l.ordered()
	for i, k := range ks {
		if l.mult(k) <= 0 {
			continue
		}
		if v := by(l.loadOf(k, ps[i]))[what]; v > 0 && (!ok || v > most) {
			best, most, ok = k, v, true
		}
	}
	return best, most, ok
}

// mergeBy is a copy of a with each value of b combined into a's by f
// (math.Max for the largest pass, a sum for charges); nil when both are
// (an atom's own figures on top of its group's).
func mergeBy(a, b map[string]float64, f func(x, y float64) float64) map[string]float64 {
	if b == nil {
		return a
	}
	m := maps.Clone(a)
	if m == nil {
		m = map[string]float64{}
	}
	for k, v := range b {
		m[k] = f(m[k], v)
	}
	return m
}

// plus is x + y, for mergeBy.
func plus(x, y float64) float64 { return x + y }
