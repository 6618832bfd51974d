package judge

import (
	"maps"
	"math"
)

// Each question's largest pass is kept apart from the partition's
// largest of any query (partLoad.passBy): a question whose pass is
// smaller than another's on the same partition still overruns what one
// query may read when it is over PassLimit, and advise asks of each
// question whether its own queries make every design hot.

// burstiestOf is the partition one query of what (a question's or an
// operation's name) visits the most rows of at once, and those rows, or
// none (ok false): what burstiest is of every query, of one.
func (l *loads) burstiestOf(what string) (pkey, float64, bool) {
	var best pkey
	most, ok := 0.0, false
	ks, ps := l.ordered()
	for i, k := range ks {
		if l.mult(k) <= 0 {
			continue
		}
		if r := l.loadOf(k, ps[i]).passBy[what]; r > 0 && (!ok || r > most) {
			best, most, ok = k, r, true
		}
	}
	return best, most, ok
}

// mergeMax is a copy of a with, for each key of b, the larger of the
// two; nil when both are.
func mergeMax(a, b map[string]float64) map[string]float64 {
	if b == nil {
		return a
	}
	m := maps.Clone(a)
	if m == nil {
		m = map[string]float64{}
	}
	for k, v := range b {
		m[k] = math.Max(m[k], v)
	}
	return m
}
