package keygen

import "math"

// MaxSupport bounds the values Support enumerates: a field with more
// distinct values is treated as unbounded, like a sequence or a GUID.
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
// probability (they sum to 1).
type Support struct {
	Values []Value
	Probs  []float64
}

// Support returns the values field name takes and their probabilities: a
// choice's values by weight, an id's numbers by its distribution (uniform
// for sequential ids, which cycle), an int's range uniformly. ok is false
// for a field that is not declared or whose values are unbounded: a
// sequence, guid or slug (a new value per entity), an id whose keys are
// born and retire (a Lifetime), or an int or id with more than MaxSupport
// values.
func (p *Population) Support(name string) (Support, bool) {
	k, found := p.byName[name]
	if !found {
		return Support{}, false
	}
	f := p.fields[k]
	s := &f.spec
	var out Support
	switch s.Kind {
	case "choice":
		prev := 0.0
		for i, v := range s.Values {
			out.Values = append(out.Values, Value{Str: v})
			out.Probs = append(out.Probs, f.cum[i]-prev)
			prev = f.cum[i]
		}
	case "id":
		if f.life != nil || s.Count > MaxSupport {
			return Support{}, false
		}
		var d Distribution = Uniform{}
		if !f.seq {
			d = f.dist
		}
		out.Probs = Probabilities(d, s.Count)
		for v := int64(0); v < s.Count; v++ {
			out.Values = append(out.Values, Value{Num: v})
		}
	case "int":
		n := s.Max - s.Min + 1
		if n < 1 || n > MaxSupport {
			return Support{}, false
		}
		for v := s.Min; v <= s.Max; v++ {
			out.Values = append(out.Values, Value{Num: v})
			out.Probs = append(out.Probs, 1/float64(n))
		}
	default:
		return Support{}, false
	}
	return out, true
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
