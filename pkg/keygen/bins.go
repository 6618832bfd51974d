package keygen

import (
	"math"
	"slices"
	"sort"
)

// maxEntries bounds the entries of a binned law; laws whose joint
// binning would make more are binned more coarsely.
const maxEntries = 1 << 16

// binTolerance is how far apart (relatively) two ranks' probabilities of
// a zipf or latest law may be and share a bin: a tenth of a percent, so
// the head's ranks are their own entries and the tail's share.
const binTolerance = 1e-3

// span is what one entry of a binned law stands for: positions [a, b) of
// the field's values, or, of a law over scrambled ranks (zipf), the
// ranks [r0, r1) whose positions fall in [a, b).
type span struct {
	a, b, r0, r1 int64
}

// rankBin is a run of ranks [lo, hi) of a zipf or latest law over n
// values, with the mean probability p of one of them.
type rankBin struct {
	lo, hi int64
	p      float64
}

// rankBins bins the ranks 1..n of r^-s / H(n, s): a rank alone while its
// probability differs from the next by more than tol, then runs of ranks
// within tol of each other.
func rankBins(s float64, n int64, tol float64) []rankBin {
	hn := harmonic(s, float64(n))
	var out []rankBin
	single := int64(math.Min(s/tol, float64(n))) // s/r is about the relative step
	for r := int64(1); r <= n; {
		hi := r + 1
		if r > single {
			hi = max(int64(float64(r)/math.Pow(1-tol, 1/s)), r+1)
		}
		hi = min(hi, n+1)
		p := (harmonic(s, float64(hi-1)) - harmonic(s, float64(r-1))) / float64(hi-r) / hn
		out = append(out, rankBin{lo: r, hi: hi, p: p})
		r = hi
	}
	return out
}

// harmonicExact is how many ranks harmonic sums one by one.
const harmonicExact = 64

// harmonic is H(k, s) = Σ r^-s over the ranks 1..k: the first
// harmonicExact one by one, the rest the integral of r^-s from midpoint
// to midpoint with its Euler-Maclaurin correction (error below 1e-9 of
// the whole).
func harmonic(s, k float64) float64 {
	k = math.Floor(k)
	h := 0.0
	for r := 1.0; r <= math.Min(k, harmonicExact); r++ {
		h += math.Pow(r, -s)
	}
	if k <= harmonicExact {
		return h
	}
	a, b := harmonicExact+0.5, k+0.5
	corr := s / 24 * (math.Pow(b, -s-1) - math.Pow(a, -s-1))
	if math.Abs(s-1) < 1e-12 {
		return h + math.Log(b/a) + corr
	}
	return h + (math.Pow(b, 1-s)-math.Pow(a, 1-s))/(1-s) + corr
}

// binnedLaw is a law over n positions as binned: a law over positions
// (uniform, sequential, hotspot, single, latest) by the positions where
// its probability changes, a zipf law by its rank bins (its ranks land on
// scrambled positions: mix(r) mod n).
type binnedLaw struct {
	breaks []int64             // position laws: where the probability changes
	ranks  []rankBin           // zipf and latest
	at     func(int64) float64 // position laws: the probability at a position
}

// binLaw bins d over n positions at tolerance tol.
func binLaw(d Distribution, n int64, tol float64) binnedLaw {
	var l binnedLaw
	uniform := 1 / float64(n)
	switch d := d.(type) {
	case *Zipf:
		l.ranks = rankBins(d.S, n, tol)
	case *Latest:
		l.ranks = rankBins(d.S, n, tol)
		for _, b := range l.ranks { // rank r is position n-r
			l.breaks = append(l.breaks, n-b.hi+1)
		}
		bins := l.ranks
		l.at = func(pos int64) float64 {
			r := n - pos
			k := sort.Search(len(bins), func(k int) bool { return bins[k].hi > r })
			return bins[min(k, len(bins)-1)].p
		}
	case Hotspot:
		hot := max(int64(d.Hot*float64(n)), 1)
		l.breaks = []int64{hot}
		l.at = func(pos int64) float64 {
			if pos < hot {
				return d.Ops / float64(hot)
			}
			return (1 - d.Ops) / float64(n-hot)
		}
	case Single:
		i := min(d.At, n-1)
		l.breaks = []int64{i, i + 1}
		l.at = func(pos int64) float64 {
			if pos == i {
				return 1
			}
			return 0
		}
	default: // uniform, sequential
		l.at = func(int64) float64 { return uniform }
	}
	return l
}

// binned is the law of a field of n values under laws (the population's
// first) as entries of values alike: the positions where any position law
// changes cut [0, n) into intervals; without a zipf law each interval is
// an entry, with one each of its rank bins is an entry per interval (its
// ranks' positions spread over the intervals in proportion: the scramble
// is a hash), a rank alone an entry at its own position. value renders a
// position. probs[l][k] is one value's probability under law l.
func binned(n int64, laws []Distribution, value func(int64) Value) (Support, [][]float64) {
	for tol := binTolerance; ; tol *= 4 {
		s, probs, ok := binnedAt(n, laws, value, tol)
		if ok || tol > 0.5 {
			return s, probs
		}
	}
}

// binnedAt is binned at tolerance tol; ok is false when it makes more
// than maxEntries entries.
func binnedAt(n int64, laws []Distribution, value func(int64) Value, tol float64) (Support, [][]float64, bool) {
	bl := make([]binnedLaw, len(laws))
	cuts := []int64{0, n}
	var ranks []int64 // the zipf laws' rank bins' bounds
	for k, d := range laws {
		bl[k] = binLaw(d, n, tol)
		cuts = append(cuts, bl[k].breaks...)
		if _, z := d.(*Zipf); z {
			for _, b := range bl[k].ranks {
				ranks = append(ranks, b.lo)
			}
			ranks = append(ranks, n+1)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	if (len(cuts)-1)*max(len(ranks), 1) > maxEntries {
		return Support{}, nil, false
	}
	out := Support{n: n, value: value}
	probs := make([][]float64, len(laws))
	add := func(sp span, rep int64, mult float64, rank int64) {
		out.Values = append(out.Values, value(rep))
		out.Mult = append(out.Mult, mult)
		out.spans = append(out.spans, sp)
		for k := range bl {
			probs[k] = append(probs[k], bl[k].prob(rank, sp.a))
		}
	}
	if len(ranks) == 0 {
		for j := 0; j+1 < len(cuts); j++ {
			add(span{a: cuts[j], b: cuts[j+1]}, cuts[j], float64(cuts[j+1]-cuts[j]), 0)
		}
	} else {
		for i := 0; i+1 < len(ranks); i++ {
			r0, r1 := ranks[i], ranks[i+1]
			if r1-r0 == 1 { // a rank of its own, at its position
				pos := int64(mix(uint64(r0)) % uint64(n))
				add(span{a: pos, b: pos + 1, r0: r0, r1: r1}, pos, 1, r0)
				continue
			}
			for j := 0; j+1 < len(cuts); j++ {
				frac := float64(cuts[j+1]-cuts[j]) / float64(n)
				add(span{a: cuts[j], b: cuts[j+1], r0: r0, r1: r1}, cuts[j], float64(r1-r0)*frac, r0)
			}
		}
	}
	out.Probs = probs[0]
	return out, probs, true
}

// prob is one value's probability under the law, for a value of rank
// (zipf laws) at position pos (the others).
func (l binnedLaw) prob(rank, pos int64) float64 {
	if l.at != nil {
		return l.at(pos)
	}
	k := sort.Search(len(l.ranks), func(k int) bool { return l.ranks[k].hi > rank })
	return l.ranks[min(k, len(l.ranks)-1)].p
}

// Sample is up to m of entry k's values, spread over what it stands for
// (its value alone in an exact table), so that a key piece hashing them
// finds the buckets they fall in.
func (s Support) Sample(k, m int) []Value {
	if s.Mult == nil || s.Mult[k] <= 1 || m <= 1 {
		return []Value{s.Values[k]}
	}
	sp := s.spans[k]
	lo, hi, scrambled := sp.a, sp.b, sp.r0 > 0
	if scrambled {
		lo, hi = sp.r0, sp.r1
	}
	n := min(int64(m), hi-lo)
	out := make([]Value, 0, n)
	for i := range n {
		x := lo + i*(hi-lo)/n
		if scrambled {
			x = int64(mix(uint64(x)) % uint64(s.n))
		}
		out = append(out, s.value(x))
	}
	return out
}

// Count is how many values entry k stands for.
func (s Support) Count(k int) float64 {
	if s.Mult == nil {
		return 1
	}
	return s.Mult[k]
}

// Exact reports whether every entry is one value.
func (s Support) Exact() bool { return s.Mult == nil }

// EntryOf is the entry value v is among: its own in an exact table (-1
// when it is none of the values), in a binned law the one standing for
// its position (of the entries that share a position, scattered ranks of
// a zipf law, the one of the most probability: where a value drawn there
// most likely comes from).
func (s Support) EntryOf(v Value) int {
	if s.Mult == nil || len(s.Values) == 1 {
		for k, x := range s.Values {
			if x == v || s.Mult != nil {
				return k
			}
		}
		return -1
	}
	pos := v.Num - s.base
	best := -1
	for k, sp := range s.spans {
		if sp.b-sp.a == 1 && s.Values[k] == v {
			return k
		}
		if sp.a <= pos && pos < sp.b && sp.b-sp.a > 1 && (best < 0 || s.Mult[k]*s.Probs[k] > s.Mult[best]*s.Probs[best]) {
			best = k
		}
	}
	return best
}
