package advise

import (
	"sort"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// maxSeeded bounds the seeded entities a judgement visits one by one;
// beyond it every stride-th entity stands for stride of them.
const maxSeeded = 200_000

// seededTable is a scheme's table as the seed phase leaves it: which
// partition each (visited) seeded entity is in, and every partition's
// rows, in the main table and in each index table.
type seededTable struct {
	n, stride int64
	// part is the partition of entity k*stride (an index into keys).
	part []int32
	keys []string
	ids  map[string]int32
	rows []float64 // rows of each partition (main table)
	// index[x] is the same for index table x, keys labelled "Name/PK".
	index []seededIndex
	// sorted are the main table's partitions in key order (for table
	// scans), as indexes into keys.
	sorted []int32
}

type seededIndex struct {
	part []int32
	keys []string
	ids  map[string]int32
	rows []float64
}

// newSeeded renders the partitions of the first n entities under scheme.
func newSeeded(pop *keygen.Population, scheme *keygen.Scheme, n int64) *seededTable {
	st := &seededTable{n: n, stride: max(1, (n+maxSeeded-1)/maxSeeded), ids: map[string]int32{}}
	st.index = make([]seededIndex, len(scheme.Indexes))
	for x := range st.index {
		st.index[x].ids = map[string]int32{}
	}
	var e keygen.Entity
	var k keygen.Keys
	rows := float64(scheme.RowsPerEntity() * int(st.stride))
	for i := int64(0); i < n; i += st.stride {
		pop.Entity(i, &e)
		scheme.Keys(&e, &k)
		id := intern(st.ids, &st.keys, string(k.PK))
		st.part = append(st.part, id)
		if int(id) == len(st.rows) {
			st.rows = append(st.rows, 0)
		}
		st.rows[id] += rows
		for x, ix := range scheme.Indexes {
			si := &st.index[x]
			id := intern(si.ids, &si.keys, ix.Name+"/"+string(k.Index[x].PK))
			si.part = append(si.part, id)
			if int(id) == len(si.rows) {
				si.rows = append(si.rows, 0)
			}
			si.rows[id] += float64(st.stride)
		}
	}
	st.sorted = make([]int32, len(st.keys))
	for i := range st.sorted {
		st.sorted[i] = int32(i)
	}
	sort.Slice(st.sorted, func(a, b int) bool { return st.keys[st.sorted[a]] < st.keys[st.sorted[b]] })
	return st
}

func intern(ids map[string]int32, keys *[]string, key string) int32 {
	id, ok := ids[key]
	if !ok {
		id = int32(len(*keys))
		ids[key] = id
		*keys = append(*keys, key)
	}
	return id
}

// picks is the probability that distribution d picks each visited
// entity, summed over the stride it stands for.
func (st *seededTable) picks(d keygen.Distribution) []float64 {
	probs := keygen.Probabilities(d, st.n)
	if st.stride == 1 {
		return probs
	}
	out := make([]float64, len(st.part))
	for i, p := range probs {
		out[int64(i)/st.stride] += p
	}
	return out
}
