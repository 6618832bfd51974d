package judge

import (
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// classMap is how the pieces of a PartitionKey that hash (or take the
// modulo of) a field with a finite set of values split those values:
// each value's class (the rendering of the pieces), and each class's
// total probability under every law. An entry of a binned law standing
// for many values (keygen.Support) spreads over the classes its sampled
// values render to, evenly: a hash of many values fills its buckets
// alike.
type classMap struct {
	of    []int32     // entry → class (of its value, Values[entry])
	share []float64   // class → probability under the population's law
	pa    [][]float64 // ask law → class → probability
	rep   []keygen.Value
	// spread are the classes of an entry standing for many values (nil
	// for one that is one value).
	spread [][]int32
	ids    map[string]int32
	pieces []keygen.Part
}

// spreadSamples is how many of a binned entry's values are rendered to
// find the classes it spreads over: enough to meet each of MaxBuckets
// buckets.
const spreadSamples = 8192

// classesOf splits field l's values by the renderings of pieces (all of
// them of that field), cached by key.
func (in *Input) classesOf(l *fieldLaw, pieces []keygen.Part, key string) *classMap {
	in.mu.Lock()
	defer in.mu.Unlock()
	if c := l.classes[key]; c != nil {
		return c
	}
	n := len(l.support.Values)
	c := &classMap{of: make([]int32, n), pa: make([][]float64, len(l.pa)), spread: make([][]int32, n), ids: map[string]int32{}, pieces: pieces}
	var e keygen.Entity
	in.Pop.Entity(0, &e)
	var buf []byte
	for v, val := range l.support.Values {
		c.of[v] = c.classOfLocked(in, l, &e, val, &buf)
		if l.support.Count(v) <= 1 {
			c.add(l, v, c.of[v], 1)
			continue
		}
		seen := map[int32]bool{}
		for _, s := range l.support.Sample(v, spreadSamples) {
			if id := c.classOfLocked(in, l, &e, s, &buf); !seen[id] {
				seen[id] = true
				c.spread[v] = append(c.spread[v], id)
			}
		}
		for _, id := range c.spread[v] {
			c.add(l, v, id, 1/float64(len(c.spread[v])))
		}
	}
	l.classes[key] = c
	return c
}

// add puts part of entry v's values in class id.
func (c *classMap) add(l *fieldLaw, v int, id int32, part float64) {
	m := l.support.Count(v) * part
	c.share[id] += m * l.support.Probs[v]
	for k := range c.pa {
		c.pa[k][id] += m * l.pa[k][v]
	}
}

// classOfLocked is the class value val renders to, added if new (the
// input's lock held); e and buf are scratch.
func (c *classMap) classOfLocked(in *Input, l *fieldLaw, e *keygen.Entity, val keygen.Value, buf *[]byte) int32 {
	in.Pop.SetValue(e, l.name, val)
	b := (*buf)[:0]
	for _, p := range c.pieces {
		b = append(p.Append(b, e), 0)
	}
	*buf = b
	id, ok := c.ids[string(b)]
	if !ok {
		id = int32(len(c.share))
		c.ids[string(b)] = id
		c.share = append(c.share, 0)
		c.rep = append(c.rep, val)
		for k := range c.pa {
			c.pa[k] = append(c.pa[k], 0)
		}
	}
	return id
}

// classOf is the class of value val of field l (-1 for a rendering no
// value of the law has).
func (c *classMap) classOf(in *Input, l *fieldLaw, val keygen.Value) int32 {
	var e keygen.Entity
	in.Pop.Entity(0, &e)
	in.Pop.SetValue(&e, l.name, val)
	var b []byte
	for _, p := range c.pieces {
		b = append(p.Append(b, &e), 0)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if id, ok := c.ids[string(b)]; ok {
		return id
	}
	return -1
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
