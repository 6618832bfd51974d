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
	ru := model.ReadUnits(j.item.bytes)
	for _, key := range slices.Sorted(maps.Keys(f)) {
		rate := f[key]
		fixed := decodeComp(key)
		if main.unique {
			continue // a partition per entity: each read its own
		}
		norm := 0.0
		for _, g := range main.groups {
			if consistent(g.comp, fixed) {
				norm += g.share * g.mult
			}
		}
		if !(norm > 0) {
			continue
		}
		for gi, g := range main.groups {
			if consistent(g.comp, fixed) {
				l.add(pkey{0, int32(gi), 0}, rate*g.share/norm/main.hashes, 1, 1, ru)
			}
		}
	}
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
	p := 0.0
	for g := range main.groups {
		p += main.partitionsPerGroup(g)
	}
	if !(p > 0) {
		return k
	}
	return p * (1 - math.Exp(-k/p))
}
