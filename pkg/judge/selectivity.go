package judge

import (
	"fmt"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// selectivityDraws is how many rows a filter's selectivity is estimated
// from: the share's standard error is √(p(1-p)/32768), at most 0.0028
// (2% ± 0.08%, a relative 3.9%).
const selectivityDraws = 32768

// selKey names one estimate: the filter, what of the table's layout the
// filter's answer depends on (selDepends), and the table's size.
type selKey struct {
	filter, depends string
	entities        float64
}

// selectivity is the share of the rows a query with $filter f visits
// that it returns, on table x of scheme (0 the main table, k index k-1)
// at size s: Azure charges a query for every row it iterates and returns
// the matches ("Query selectivity is a measure of how many rows must be
// iterated for each partition", Azure's guide to designing a scalable
// partitioning strategy), so a filtered scan costs its partition the rows
// it visits and the client gets this share of them. The filter is read as
// the service reads it (package filter, the service's own parser and
// evaluator), on selectivityDraws rows drawn from the population: each
// pairs a row that picks a partition (its PartitionKey, the fields the
// PartitionKey names as they are, and, when the PartitionKey holds a time
// bucket, its event time) with a row of that partition (every other
// field), the population's fields being drawn independently of each
// other. An index table's row that does not carry a field has none: a
// comparison with it matches nothing, as on Azure. A filter the service
// would refuse returns 1 (the run fails it; the judge does not guess).
// The estimate is the table's average over its partitions: a filter on
// a field of the PartitionKey is right on average, not partition by
// partition. whole is for a table scan, whose rows are any of the
// table's: no partition picks them.
func (j *judging) selectivity(f string, x int, s Size, whole bool) float64 {
	if f == "" {
		return 1
	}
	n, err := filter.Parse(f)
	if err != nil {
		return 1
	}
	r := newSampleRow(j, x, whole)
	k := selKey{filter: f, depends: r.depends(filter.Names(n)), entities: s.Entities}
	j.in.mu.Lock()
	v, ok := j.in.sels[k]
	j.in.mu.Unlock()
	if ok {
		return v
	}
	v = j.estimateSelectivity(n, r, s)
	j.in.mu.Lock()
	if j.in.sels == nil {
		j.in.sels = map[selKey]float64{}
	}
	j.in.sels[k] = v
	j.in.mu.Unlock()
	return v
}

// estimateSelectivity is selectivity without the cache: n's share of
// selectivityDraws rows r draws from the table of size s, from a stream
// of the population's seed and the filter (the same estimate every time).
func (j *judging) estimateSelectivity(n filter.Node, r *sampleRow, s Size) float64 {
	total := int64(max(s.Entities, 1))
	st := keygen.NewStream(j.in.Pop.Spec().Seed, keygen.NameHash("selectivity"))
	hits := 0
	for range selectivityDraws {
		j.in.Pop.Entity(int64(st.Uint64()%uint64(total)), &r.part)
		j.in.Pop.Entity(int64(st.Uint64()%uint64(total)), &r.row)
		r.reset()
		if n.Eval(r) {
			hits++
		}
		if r.unknown {
			return 1
		}
	}
	return float64(hits) / selectivityDraws
}

// sampleRow is one visited row for a filter (filter.Row): the
// PartitionKey's fields (and its time bucket's event time) from part,
// every other field from row.
type sampleRow struct {
	j         *judging
	pop       *keygen.Population
	lay       *layout
	index     *keygen.Index // nil for the main table
	ix        int           // index's place in the scheme's Indexes
	fromPart  map[string]bool
	timeOfPK  bool
	part, row keygen.Entity
	keys      keygen.Keys
	keyed     bool
	unknown   bool // the filter read what the population does not model
}

// newSampleRow is a row of table x (0 the main table); a row of the whole
// table (a table scan) when whole, with no partition picking it.
func newSampleRow(j *judging, x int, whole bool) *sampleRow {
	r := &sampleRow{j: j, pop: j.in.Pop, lay: j.lays[x], fromPart: map[string]bool{}}
	if x > 0 {
		r.index, r.ix = &j.scheme.Indexes[x-1], x-1
	}
	if whole {
		return r
	}
	for _, p := range r.lay.tmpl.Parts() {
		switch p.Kind {
		case keygen.PartValue:
			r.fromPart[p.Source] = true
			r.timeOfPK = r.timeOfPK || p.Res > 0
		case keygen.PartTime:
			r.timeOfPK = true
		}
	}
	return r
}

// depends is what of the table the answer of a filter reading names
// depends on: the names the picking row gives, the event time when the
// PartitionKey holds a time bucket, the keys' templates when the filter
// reads a key, and which names an index row lacks. Two tables alike in
// these get the same estimate (most candidates a judge weighs).
func (r *sampleRow) depends(names []string) string {
	var b strings.Builder
	for _, name := range names {
		switch {
		case name == "PartitionKey" || name == "RowKey":
			fmt.Fprintf(&b, "keys %s %s %d;", r.j.scheme.PK, r.j.scheme.RK, r.ix)
			if r.index != nil {
				fmt.Fprintf(&b, "index %s;", r.lay.tmpl)
			}
		case name == "EventTime" && r.timeOfPK:
			fmt.Fprintf(&b, "time %s;", r.lay.tmpl)
		case r.fromPart[name]:
			fmt.Fprintf(&b, "part %s;", name)
		}
		if r.index != nil {
			fmt.Fprintf(&b, "lacks %s %v;", name, r.lacks(name))
		}
	}
	return b.String()
}

// lacks reports whether an index row lacks property name, as the runner
// writes index rows (keygen.AppendIndexRowJSON): the keys and EventTime
// always, Seq and the carried fields when it projects, everything when
// it carries all. A main row lacks nothing it writes.
func (r *sampleRow) lacks(name string) bool {
	if r.index == nil || r.index.CarriesAll {
		return false
	}
	switch name {
	case "PartitionKey", "RowKey", "EventTime", "Timestamp":
		return false
	case "Seq":
		return !r.index.Projects()
	}
	return !r.index.Carried(name)
}

// reset forgets the keys rendered for the last pair.
func (r *sampleRow) reset() { r.keyed = false }

// src is the entity a field's value comes from.
func (r *sampleRow) src(name string) *keygen.Entity {
	if r.fromPart[name] {
		return &r.part
	}
	return &r.row
}

// eventTime is the visited row's event time: the picking row's when the
// PartitionKey holds a time bucket (the visited row is in that bucket).
func (r *sampleRow) eventTime() time.Time {
	if r.timeOfPK {
		return r.part.Time
	}
	return r.row.Time
}

// Get implements filter.Row.
func (r *sampleRow) Get(name string) (filter.Value, bool) {
	switch name {
	case "PartitionKey", "RowKey":
		if !r.keyed {
			r.j.scheme.Keys(&r.part, &r.keys)
			r.keyed = true
		}
		if r.index != nil {
			// An index row: its keys are the index's.
			if name == "PartitionKey" {
				return filter.Value{Kind: filter.String, S: string(r.keys.Index[r.ix].PK)}, true
			}
			return filter.Value{Kind: filter.String, S: string(r.keys.Index[r.ix].RK)}, true
		}
		if name == "PartitionKey" {
			return filter.Value{Kind: filter.String, S: string(r.keys.PK)}, true
		}
		return filter.Value{Kind: filter.String, S: string(r.keys.RK)}, true
	case "EventTime":
		return filter.Value{Kind: filter.Time, T: r.eventTime()}, true
	case "Timestamp":
		// The time of the row's last write, which the population does
		// not model: the estimate is given up (estimateSelectivity).
		r.unknown = true
		return filter.Value{}, false
	}
	if r.lacks(name) {
		return filter.Value{}, false
	}
	switch name {
	case "Seq":
		return filter.Value{Kind: filter.Int64, I: r.row.Index}, true
	case "Version":
		return filter.Value{Kind: filter.Int32, I: 0}, true
	}
	e := r.src(name)
	switch r.pop.FieldKind(name) {
	case "":
		return filter.Value{}, false
	case "int", "sequence":
		v, _ := r.pop.FieldNumber(e, name)
		return filter.Value{Kind: filter.Int64, I: v}, true
	}
	v, _ := r.pop.FieldString(e, name)
	return filter.Value{Kind: filter.String, S: v}, true
}
