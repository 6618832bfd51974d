package judge

import (
	"math"
	"slices"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// maxAtomTable is the largest table whose exact pick probabilities the
// judge computes to find the entities a distribution favours (zipf,
// latest with no writes): O(n).
const maxAtomTable = 4_000_000

// atoms is how many favoured entities are judged one by one.
const atoms = 32

// posLaw is where a distribution's picks land in a table, by age:
// entities picked with a probability of their own (atoms: their field
// values are theirs, not the law's), and the rest (diffuse, of total
// probability diffuse) spread over the age fraction x (0 the newest, 1
// the oldest) by cdf.
type posLaw struct {
	atoms   []atom
	diffuse float64
	cdf     func(x float64) float64
}

// atom is one favoured entity: its index, probability and age fraction.
type atom struct {
	index int64
	p     float64
	age   float64
}

// moving reports whether the entities d favours change as a run inserts:
// latest favours the newest, and zipf's popular ranks land on positions
// taken modulo the growing count. Over a second of inserts they are new
// entities every time, whose fields follow the population's law.
func moving(d keygen.Distribution) bool {
	switch d.(type) {
	case *keygen.Latest, *keygen.Zipf:
		return true
	}
	return false
}

func uniformCDF(x float64) float64 { return clamp01(x) }

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// positions is d's law over a table of size s, written to at w entities
// a second.
func (in *Input) positions(d keygen.Distribution, s Size, w float64) posLaw {
	n := math.Max(s.Entities, 1)
	if moving(d) && w > 0 {
		if lt, ok := d.(*keygen.Latest); ok {
			return posLaw{diffuse: 1, cdf: newLatestLaw(lt.S, n).cdf}
		}
		return posLaw{diffuse: 1, cdf: uniformCDF}
	}
	switch d := d.(type) {
	case keygen.Single:
		i := min(d.At, int64(n)-1)
		return posLaw{atoms: []atom{{index: i, p: 1, age: (n - 1 - float64(i)) / n}}}
	case keygen.Hotspot:
		h, o := d.Hot, d.Ops
		return posLaw{diffuse: 1, cdf: func(x float64) float64 { return hotspotCDF(clamp01(x), h, o) }}
	case *keygen.Zipf, *keygen.Latest:
		if n <= maxAtomTable {
			return favoured(d, int64(n))
		}
	}
	return posLaw{diffuse: 1, cdf: uniformCDF}
}

// hotspotCDF is hotspot(h, o)'s law by age: o of the picks on the oldest
// h of the entities, the rest on the others.
func hotspotCDF(x, h, o float64) float64 {
	if h >= 1 {
		return x
	}
	if x <= 1-h {
		return (1 - o) * x / (1 - h)
	}
	return (1 - o) + o*(x-(1-h))/h
}

// favoured is d's law over n entities: its most likely entities as
// atoms, the rest spread evenly.
func favoured(d keygen.Distribution, n int64) posLaw {
	probs := keygen.Probabilities(d, n)
	idx := make([]int, len(probs))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case probs[a] > probs[b]:
			return -1
		case probs[a] < probs[b]:
			return 1
		}
		return 0
	})
	out := posLaw{diffuse: 1, cdf: uniformCDF}
	if lt, ok := d.(*keygen.Latest); ok {
		// Its atoms are the newest ranks; the rest keep latest's law.
		out.cdf = newLatestLaw(lt.S, float64(n)).beyond(float64(min(atoms, len(idx))))
	}
	for _, i := range idx[:min(atoms, len(idx))] {
		out.atoms = append(out.atoms, atom{index: int64(i), p: probs[i], age: float64(n-1-int64(i)) / float64(n)})
		out.diffuse -= probs[i]
	}
	out.diffuse = math.Max(out.diffuse, 0)
	return out
}

// nows are the moments at which a question's cost is judged, the
// newest entity's event time at each: spread over the current bucket of
// unit (length l) when the size says any phase, over the run's drift
// (its middle when the table has no time bucket), or the newest
// entity's own. The table at each is the size's at it (Size.at).
//
// finer, when set, is a finer calendar window the question asks within:
// the moments also spread over its phase (by the golden ratio's
// fractions), so that they do not all fall on its boundaries.
func nows(unit keygen.Unit, l time.Duration, s Size, finer time.Duration) []time.Time {
	const k = 8
	switch {
	case s.AnyPhase && (l > 0 || finer > 0):
		base := unit.Truncate(s.Last)
		out := make([]time.Time, k)
		for i := range out {
			off := time.Duration((float64(i) + 0.5) / k * float64(l))
			if finer > 0 {
				_, frac := math.Modf((float64(i) + 0.5) * 0.6180339887498949)
				off += time.Duration(frac * float64(finer))
			}
			out[i] = base.Add(off)
		}
		return out
	case s.Drift > 0 && l > 0:
		return runMoments(s, k)
	case s.Drift > 0:
		return runMoments(s, 1) // no bucket turns: the run's middle
	}
	return []time.Time{s.Last}
}

// runMoments are k moments evenly over the run's drift, centred on its
// middle: the newest entity's event time at each.
func runMoments(s Size, k int) []time.Time {
	out := make([]time.Time, k)
	for i := range out {
		out[i] = s.Last.Add(time.Duration((float64(i) + 0.5) / float64(k) * float64(s.Drift)))
	}
	return out
}

// phaseOf is how long the bucket of unit (length l) containing t has
// run at t.
func phaseOf(t time.Time, unit keygen.Unit, l time.Duration) time.Duration {
	if l <= 0 {
		return 0
	}
	if unit >= keygen.Second {
		return t.Sub(unit.Truncate(t))
	}
	return time.Duration(t.UnixNano() % int64(l))
}

// bucketShares is the share of picks of law p landing in each of a
// layout's time buckets at size s when the current one has run for
// phase: [0, recent) the newest buckets, [recent] each older one.
func bucketShares(p posLaw, l *layout, s Size, phase time.Duration) [recent + 1]float64 {
	if l.unit <= 0 && l.life > 0 {
		return lifeShares(p, l, s)
	}
	var out [recent + 1]float64
	span := float64(s.Span)
	if l.unit <= 0 || span <= 0 {
		out[0] = 1
		return out
	}
	mass := func(lo, hi float64) float64 { // ages in nanoseconds
		m := 0.0
		for _, a := range p.atoms {
			if age := a.age * span; age >= lo && age < hi {
				m += a.p
			}
		}
		return m + p.diffuse*(p.cdf(hi/span)-p.cdf(lo/span))
	}
	lo, hi := 0.0, math.Max(float64(phase), 1)
	n := l.buckets(s)
	for b := 0; b < recent && float64(b) < n; b++ {
		out[b] = mass(lo, hi)
		lo, hi = hi, hi+float64(l.unit)
	}
	if older := n - recent; older > 0 {
		out[recent] = mass(lo, math.Inf(1)) / older
	}
	return out
}
