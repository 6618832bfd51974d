package judge

import (
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// classMap is how the pieces of a PartitionKey that hash (or take the
// modulo of) a field with a finite set of values split those values:
// each value's class (the rendering of the pieces), and each class's
// total probability under every law.
type classMap struct {
	of    []int32     // value → class
	share []float64   // class → probability under the population's law
	pa    [][]float64 // ask law → class → probability
	rep   []int       // class → one of its values
}

// classesOf splits field l's values by the renderings of pieces (all of
// them of that field), cached by key.
func (in *Input) classesOf(l *fieldLaw, pieces []keygen.Part, key string) *classMap {
	in.mu.Lock()
	defer in.mu.Unlock()
	if c := l.classes[key]; c != nil {
		return c
	}
	c := &classMap{of: make([]int32, len(l.support.Values)), pa: make([][]float64, len(l.pa))}
	ids := map[string]int32{}
	var e keygen.Entity
	in.Pop.Entity(0, &e)
	var b []byte
	for v, val := range l.support.Values {
		in.Pop.SetValue(&e, l.name, val)
		b = b[:0]
		for _, p := range pieces {
			b = append(p.Append(b, &e), 0)
		}
		id, ok := ids[string(b)]
		if !ok {
			id = int32(len(c.share))
			ids[string(b)] = id
			c.share = append(c.share, 0)
			c.rep = append(c.rep, v)
			for k := range c.pa {
				c.pa[k] = append(c.pa[k], 0)
			}
		}
		c.of[v] = id
		c.share[id] += l.support.Probs[v]
		for k := range c.pa {
			c.pa[k][id] += l.pa[k][v]
		}
	}
	l.classes[key] = c
	return c
}

// piecesKey names a set of pieces for the class cache.
func piecesKey(pieces []keygen.Part) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString(p.Source)
		b.WriteByte(byte('0' + p.Kind))
		b.WriteString(itoa(p.Buckets))
		b.WriteByte(0)
	}
	return b.String()
}
