package keygen

import "math"

// MaxSupport bounds the values Support enumerates one by one: a field
// with more distinct values has its law binned (Support).
const MaxSupport = 1 << 20

// Probabilities returns the exact probability of each position Pick of d
// returns for n >= 1 (nil for n < 1), so an analysis can weigh every
// position instead of sampling:
//
//	uniform, sequential  1/n (a sequential walk visits every position equally)
//	zipf(s)              rank r with weight r^-s / H(n,s), at position mix(r) mod n
//	                     (ranks that scramble to one position add up)
//	latest(s)            rank r at position n-r
//	hotspot(h,o)         o spread over the first max(1, h·n) positions, 1-o over the rest
//	single(i)            1 at min(i, n-1)
//
// It takes O(n) time and memory.
func Probabilities(d Distribution, n int64) []float64 {
	if n < 1 {
		return nil
	}
	p := make([]float64, n)
	if n == 1 {
		p[0] = 1
		return p
	}
	switch d := d.(type) {
	case *Zipf:
		h := zipfNorm(d.S, n)
		for r := int64(1); r <= n; r++ {
			p[mix(uint64(r))%uint64(n)] += math.Pow(float64(r), -d.S) / h
		}
	case *Latest:
		h := zipfNorm(d.S, n)
		for r := int64(1); r <= n; r++ {
			p[n-r] = math.Pow(float64(r), -d.S) / h
		}
	case Hotspot:
		hot := max(int64(d.Hot*float64(n)), 1)
		for k := range p {
			if int64(k) < hot {
				p[k] = d.Ops / float64(hot)
			} else {
				p[k] = (1 - d.Ops) / float64(n-hot)
			}
		}
	case Single:
		p[min(d.At, n-1)] = 1
	default: // Uniform, Sequential
		for k := range p {
			p[k] = 1 / float64(n)
		}
	}
	return p
}

// zipfNorm is the normaliser H(n,s) = Σ r^-s over the ranks [1, n].
func zipfNorm(s float64, n int64) float64 {
	var h float64
	for r := int64(1); r <= n; r++ {
		h += math.Pow(float64(r), -s)
	}
	return h
}

// Support is the finite set of values a field takes, each with its
// probability: entry k is Values[k] with probability Probs[k], or, in a
// binned law (Mult set), Mult[k] values alike of Probs[k] each, Values[k]
// one of them (Σ Mult[k]·Probs[k] = 1).
//
// A field of up to MaxSupport values has its exact table, one entry per
// value. A larger one is binned (binned): a law over positions (uniform,
// sequential, hotspot, single, latest) by the runs of positions of one
// probability, latest's and zipf's ranks in runs whose probabilities
// agree to a tenth of a percent (the head's ranks each alone), a zipf
// rank run spread over the positions in proportion (its ranks land on
// positions by a hash). Two zipf ranks that the hash sends to one
// position are taken as two values: among n ranks and n positions about
// a quarter of the positions take more than one rank, which the exact
// table adds up and the binned law does not (its moments differ by the
// tail's collisions, its head not at all). Keys with a lifetime are their
// live keys, alike.
type Support struct {
	Values []Value
	Probs  []float64
	Mult   []float64
	// spans, n and value say what a binned law's entries stand for
	// (Sample).
	spans []span
	n     int64
	base  int64 // the number of position 0
	value func(int64) Value
}

// Support returns the values field name takes and their probabilities: a
// choice's values by weight, an id's numbers by its distribution (uniform
// for sequential ids, which cycle; uniform over the live keys for one
// with a lifetime), an int's range uniformly; binned beyond MaxSupport
// values. ok is false for a field that is not declared or that takes a
// new value for every entity: a sequence, guid or slug.
func (p *Population) Support(name string) (Support, bool) {
	s, _, ok := p.Joint(name, nil)
	return s, ok
}

// Joint is Support refined for laws (the distributions questions pick
// the field's values by, over its positions: an id's numbers, an int's
// from min, a choice's in order, a lifetime's live keys oldest first):
// probs[0] are the population's probabilities (Support's Probs), probs[l]
// law l-1's, each of one value of each entry.
func (p *Population) Joint(name string, laws []Distribution) (Support, [][]float64, bool) {
	k, found := p.byName[name]
	if !found {
		return Support{}, nil, false
	}
	f := p.fields[k]
	n, value, ok := f.positions()
	if !ok {
		return Support{}, nil, false
	}
	var pop Distribution = Uniform{}
	if f.spec.Kind == "id" && !f.seq && f.life == nil {
		pop = f.dist
	}
	if n > MaxSupport || f.life != nil {
		s, probs := binned(n, append([]Distribution{pop}, laws...), value)
		s.base = value(0).Num
		return s, probs, true
	}
	var out Support
	for v := range n {
		out.Values = append(out.Values, value(v))
	}
	if f.spec.Kind == "choice" {
		prev := 0.0
		for i := range f.cum {
			out.Probs = append(out.Probs, f.cum[i]-prev)
			prev = f.cum[i]
		}
	} else {
		out.Probs = Probabilities(pop, n)
	}
	probs := [][]float64{out.Probs}
	for _, d := range laws {
		probs = append(probs, Probabilities(d, n))
	}
	return out, probs, true
}

// positions is how many values the field takes and the value at each
// position; ok is false for a field with a new value for every entity.
func (f *field) positions() (int64, func(int64) Value, bool) {
	s := &f.spec
	switch s.Kind {
	case "choice":
		return int64(len(s.Values)), func(k int64) Value { return Value{Str: s.Values[k]} }, true
	case "id":
		n := s.Count
		if f.life != nil {
			n = f.life.Live
		}
		return n, func(k int64) Value { return Value{Num: k} }, true
	case "int":
		if s.Max-s.Min+1 < 1 { // the whole int64 range
			return 0, nil, false
		}
		return s.Max - s.Min + 1, func(k int64) Value { return Value{Num: s.Min + k} }, true
	}
	return 0, nil, false
}

// PickValue is the value at position pos of field name (Joint's order)
// when entity newest is the newest written: a lifetime's live keys are
// those live then.
func (p *Population) PickValue(name string, pos, newest int64) (Value, bool) {
	k, found := p.byName[name]
	if !found {
		return Value{}, false
	}
	f := p.fields[k]
	_, value, ok := f.positions()
	if !ok {
		return Value{}, false
	}
	if f.life != nil {
		return Value{Num: f.life.Oldest(newest) + pos}, true
	}
	return value(pos), true
}

// Cardinality is how many values of field name a pick draws among (Joint's
// positions: a lifetime's live keys); false as Support.
func (p *Population) Cardinality(name string) (int64, bool) {
	k, found := p.byName[name]
	if !found {
		return 0, false
	}
	n, _, ok := p.fields[k].positions()
	return n, ok
}

// SetValue sets field name of e (filled by Entity) to v, so a template
// renders what it would for an entity with that value; false when there is
// no such field.
func (p *Population) SetValue(e *Entity, name string, v Value) bool {
	k, ok := p.byName[name]
	if !ok || k >= len(e.Values) {
		return false
	}
	e.Values[k] = v
	return true
}
