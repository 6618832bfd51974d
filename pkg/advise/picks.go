package advise

import (
	"github.com/tablestress/tablestress/pkg/keygen"
)

// moving reports whether the entities d favours change as a run inserts:
// latest favours the newest, and zipf's popular ranks land on positions
// taken modulo the growing count. Over a second of inserts they are new
// entities every time, whose partitions follow the population's law, not
// the few seeded entities they happen to be before the run.
func moving(d keygen.Distribution) bool {
	switch d.(type) {
	case *keygen.Latest, *keygen.Zipf:
		return true
	}
	return false
}

// pickShares is the probability that d picks an entity of each partition
// of a table: the main table (x < 0) or index table x, whose partitions
// are labelled "Name/PartitionKey". A distribution that does not move
// (or a run without inserts) picks the seeded entities as they are; one
// that moves picks, at each seeded entity's moment, an entity of each
// partition that moment's keys take in proportion to its share.
func (j *judging) pickShares(d keygen.Distribution, x int) map[string]float64 {
	st := j.seeded
	part, keys, t, prefix := st.part, st.keys, j.scheme.PK, ""
	if x >= 0 {
		part, keys, t, prefix = st.index[x].part, st.index[x].keys, j.scheme.Indexes[x].PK, j.scheme.Indexes[x].Name+"/"
	}
	probs := j.pickProbs(d)
	out := map[string]float64{}
	realized := func() map[string]float64 {
		for i, p := range probs {
			if p > 0 {
				out[keys[part[i]]] += p
			}
		}
		return out
	}
	w := j.newEntities()
	if !moving(d) || !(w > 0) {
		return realized()
	}
	// The time buckets of each seeded entity's moment: its signature.
	mass, at := map[string]float64{}, map[string]int64{}
	var e keygen.Entity
	var sig []byte
	var timed []keygen.Part
	for _, p := range t.Parts() {
		if p.Kind != keygen.PartLiteral && sourceOf(j.in.Pop, p).kind == srcBucket {
			timed = append(timed, p)
		}
	}
	for i, p := range probs {
		if p == 0 {
			continue
		}
		idx := int64(i) * st.stride
		j.in.Pop.Entity(idx, &e)
		sig = sig[:0]
		for _, p := range timed {
			sig = append(p.Append(sig, &e), 0)
		}
		mass[string(sig)] += p
		at[string(sig)] = idx
	}
	span := j.span(w)
	// Each signature renders PartitionKeys of its own (its time buckets
	// are in them), so every key of out takes one term: the order of
	// mass does not change any sum.
	for s, m := range mass {
		j.in.Pop.Entity(at[s], &e)
		sh := shapeOf(j.in.Pop, t, &e, span)
		if sh.unique || sh.sampled {
			clear(out)
			return realized()
		}
		for pk, share := range sh.shares {
			out[prefix+pk] += m * share
		}
	}
	return out
}

// pickProbs is the probability that d picks each visited seeded entity
// (cached by distribution).
func (j *judging) pickProbs(d keygen.Distribution) []float64 {
	key := d.String()
	p, ok := j.picks[key]
	if !ok {
		p = j.seeded.picks(d)
		j.picks[key] = p
	}
	return p
}
