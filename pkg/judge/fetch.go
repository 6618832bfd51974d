package judge

import (
	"maps"
	"math"
	"slices"

	"github.com/tablestress/tablestress/pkg/emulator/model"
	"github.com/tablestress/tablestress/pkg/question"
)

// fetches accumulates, for one question, the point reads an index's rows
// are followed by: their rate by the main-table components the known
// values fix (compKey), spread over the main table once every ask is in.
type fetches map[string]float64

// mainComp is the main layout's components the ask's known values fix
// (-1 where they do not).
func (j *judging) mainComp(q *question.Question, a ask) []int32 {
	main := j.lays[0]
	comp := make([]int32, len(main.fields))
	for k, f := range main.fields {
		comp[k] = -1
		if v, ok := a.reps[f.name]; ok && slicesContains(q.Fields(), f.name) {
			comp[k] = main.compOf(k, v)
		}
	}
	return comp
}

func slicesContains(s []string, v string) bool { return slices.Contains(s, v) }

// spreadFetches puts the point reads of f on the main table's partitions
// holding the entities with the known values: by the population's law
// over the fields the values do not fix, in the current time bucket (the
// rows an index answers with are the newest, or the window's).
func (j *judging) spreadFetches(l *loads, f fetches) {
	main := j.lays[0]
	if main.unique || len(f) == 0 {
		return // a partition per entity: each read its own
	}
	ru := model.ReadUnits(j.item.bytes)
	byComp := j.mainByComp()
	for _, key := range slices.Sorted(maps.Keys(f)) {
		rate := f[key]
		fixed := decodeComp(key)
		// The groups the fixed components allow: the fewest listed under
		// one of them, or every group when none is fixed.
		var gs []int32
		all := true
		for k, c := range fixed {
			if c >= 0 && (all || len(byComp[k][c]) < len(gs)) {
				gs, all = byComp[k][c], false
			}
		}
		norm := 0.0
		each := func(fn func(g int32)) {
			if all {
				for g := range main.groups {
					fn(int32(g))
				}
				return
			}
			for _, g := range gs {
				if consistent(main.groups[g].comp, fixed) {
					fn(g)
				}
			}
		}
		each(func(g int32) { norm += main.groups[g].share * main.groups[g].mult })
		if !(norm > 0) {
			continue
		}
		each(func(g int32) {
			l.add(pkey{0, g, 0}, rate*main.groups[g].share/norm/main.hashes, 1, 1, ru)
		})
	}
}

// mainByComp lists the main table's groups by each field's component.
func (j *judging) mainByComp() []map[int32][]int32 {
	main := j.lays[0]
	out := make([]map[int32][]int32, len(main.fields))
	for k := range out {
		out[k] = map[int32][]int32{}
	}
	for g, gr := range main.groups {
		for k, c := range gr.comp {
			out[k][c] = append(out[k][c], int32(g))
		}
	}
	return out
}

func consistent(comp, fixed []int32) bool {
	for k, c := range fixed {
		if c >= 0 && comp[k] != c {
			return false
		}
	}
	return true
}

func decodeComp(key string) []int32 {
	out := make([]int32, len(key)/4)
	for k := range out {
		b := key[4*k : 4*k+4]
		out[k] = int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	}
	return out
}

// distinctMain is how many main-table partitions k point reads after an
// index fall in: k when every entity has its own, else at most the
// table's partitions in one time bucket, k of them drawn evenly.
func (j *judging) distinctMain(k float64) float64 {
	main := j.lays[0]
	if main.unique {
		return k
	}
	p := main.keys()
	if !(p > 0) {
		return k
	}
	return p * (1 - math.Exp(-k/p))
}
