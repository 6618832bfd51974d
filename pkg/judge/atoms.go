package judge

import "github.com/tablestress/tablestress/pkg/keygen"

// atomPart is the partition of an entity picked with a probability of
// its own: one partition of a group, whose load is the group's (each of
// its partitions') and its own on top; name is its PartitionKey.
type atomPart struct {
	base pkey
	name string
}

// atomKey is the key of entity i's partition in table x at bucket b,
// registered on first use; ok is false when the entity falls in no
// group (a partition per entity).
func (j *judging) atomKey(l *loads, x int, i int64, b int32) (pkey, bool) {
	lay := j.lays[x]
	if lay.unique {
		return pkey{}, false
	}
	var e keygen.Entity
	j.in.Pop.Entity(i, &e)
	g := j.groupOf(lay, &e)
	if g < 0 {
		return pkey{}, false
	}
	base := pkey{int32(x), g, b}
	var k keygen.Keys
	j.scheme.Keys(&e, &k)
	name := string(k.PK)
	if x > 0 {
		name = lay.table + "/" + string(k.Index[x-1].PK)
	}
	for id, a := range l.atoms {
		if a.base == base && a.name == name {
			return pkey{int32(x), int32(-1 - id), b}, true
		}
	}
	l.atoms = append(l.atoms, atomPart{base: base, name: name})
	return pkey{int32(x), int32(-len(l.atoms)), b}, true
}

// groupOf is the group of lay that entity e's partitions are in, or -1.
func (j *judging) groupOf(lay *layout, e *keygen.Entity) int32 {
	comp := make([]int32, len(lay.fields))
	for k, f := range lay.fields {
		v, _ := j.in.Pop.Value(e, f.name)
		vi := j.in.valueIndex(f.law, v)
		if vi < 0 {
			return -1
		}
		comp[k] = lay.compOfValue(j.in, k, vi, v)
	}
	return lay.group(comp)
}
