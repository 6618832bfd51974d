package judge

import (
	"math"
	"strconv"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// fieldLaw is a field with a finite set of values: each value's
// probability under the population's law (the writes') and under every
// law a question picks it by, and the values binned by those
// probabilities.
type fieldLaw struct {
	name    string
	support keygen.Support
	// laws names the ask laws: "" is the population's (a question that
	// takes the value from the entity it picks), then each pick's.
	laws []string
	// pa[l][v] is value v's probability under ask law l.
	pa [][]float64
	// bins at each precision (significant digits) asked for.
	bins map[int]*binning
	// classes by piece (a hash or modulo piece of the field).
	classes map[string]*classMap
	// index finds a value's index.
	index map[keygen.Value]int
}

// binning is a field's values grouped into bins of values whose
// probabilities agree (to a precision) under every law.
type binning struct {
	bins  []fbin
	binOf []int32
}

// fbin is one bin: n values, each with probability pw under the
// population's law and pa[l] under ask law l; rep is one of them (the
// first), which names it.
type fbin struct {
	n   float64
	pw  float64
	pa  []float64
	rep int
}

// binPrecision is the significant digits two values' probabilities must
// share to be judged together: a zipf's tail merges, its head does not.
const binPrecision = 4

// law is the field's law (nil for a field with no finite support).
func (in *Input) law(field string) *fieldLaw {
	in.mu.Lock()
	defer in.mu.Unlock()
	if l, ok := in.laws[field]; ok {
		return l
	}
	l := &fieldLaw{name: field, laws: []string{""}, bins: map[int]*binning{}, classes: map[string]*classMap{}}
	var dists []keygen.Distribution
	for _, q := range in.Questions {
		for _, p := range q.Picks() {
			if p.Field == field && l.lawIndex(p.Dist.String()) < 0 {
				l.laws = append(l.laws, p.Dist.String())
				dists = append(dists, p.Dist)
			}
		}
	}
	s, pa, ok := in.Pop.Joint(field, dists)
	if !ok {
		in.laws[field] = nil
		return nil
	}
	l.support, l.pa = s, pa
	in.laws[field] = l
	return l
}

// Support is field's values and their probabilities (keygen's Support),
// computed once.
func (in *Input) Support(field string) (keygen.Support, bool) {
	if l := in.law(field); l != nil {
		return l.support, true
	}
	return keygen.Support{}, false
}

// lawIndex is the index of ask law name ("" the population's), or -1.
func (l *fieldLaw) lawIndex(name string) int {
	for k, n := range l.laws {
		if n == name {
			return k
		}
	}
	return -1
}

// binsAt bins the values at prec significant digits (guarded by the
// input's lock).
func (in *Input) binsAt(l *fieldLaw, prec int) *binning {
	in.mu.Lock()
	defer in.mu.Unlock()
	if b := l.bins[prec]; b != nil {
		return b
	}
	b := &binning{binOf: make([]int32, len(l.support.Values))}
	index := map[string]int32{}
	var key []byte
	for v, pw := range l.support.Probs {
		c := l.support.Count(v)
		key = strconv.AppendUint(key[:0], math.Float64bits(roundTo(pw, prec)), 16)
		for k := 1; k < len(l.pa); k++ {
			key = append(key, ',')
			key = strconv.AppendUint(key, math.Float64bits(roundTo(l.pa[k][v], prec)), 16)
		}
		id, ok := index[string(key)]
		if !ok {
			id = int32(len(b.bins))
			index[string(key)] = id
			pa := make([]float64, len(l.pa))
			b.bins = append(b.bins, fbin{pw: 0, pa: pa, rep: v})
		}
		bin := &b.bins[id]
		bin.n += c
		bin.pw += c * pw
		for k := range l.pa {
			bin.pa[k] += c * l.pa[k][v]
		}
		b.binOf[v] = id
	}
	for k := range b.bins { // means: each value's probability
		bin := &b.bins[k]
		bin.pw /= bin.n
		for l := range bin.pa {
			bin.pa[l] /= bin.n
		}
	}
	l.bins[prec] = b
	return b
}

// roundTo rounds f to prec significant digits.
func roundTo(f float64, prec int) float64 {
	if f == 0 || prec <= 0 {
		return f
	}
	p := math.Pow(10, float64(prec-1)-math.Floor(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}

// valueIndex is the index of v among the field's values (-1 when it is
// not one of them), through a map built on first use (guarded by the
// input's lock); in a binned law, the entry v is among (keygen's
// Support.EntryOf).
func (in *Input) valueIndex(l *fieldLaw, v keygen.Value) int {
	if !l.support.Exact() {
		return l.support.EntryOf(v)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if l.index == nil {
		l.index = make(map[keygen.Value]int, len(l.support.Values))
		for k, sv := range l.support.Values {
			l.index[sv] = k
		}
	}
	if k, ok := l.index[v]; ok {
		return k
	}
	return -1
}
