package question

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Kind is the kind of a plan, from the cheapest.
type Kind string

// The kinds of plan.
const (
	// Point is one point read: PartitionKey and RowKey both computed.
	Point Kind = "point"
	// Range is one partition's RowKey range in the asked order (a walk
	// over time-bucket partitions reads them one after another, newest or
	// oldest first, until it has enough).
	Range Kind = "range"
	// FanOut asks every partition the known values lead to (all N hash
	// buckets, every time bucket a window covers) and merges the answers
	// on the client.
	FanOut Kind = "fan_out"
	// Index reads an index table's rows, then the main rows they point at
	// with point reads.
	Index Kind = "index"
	// Scan reads whole partitions, or the whole table, with a filter, and
	// sorts and cuts the answer on the client.
	Scan Kind = "scan"
)

// Kinds lists the plan kinds from the cheapest.
var Kinds = []Kind{Point, Range, FanOut, Index, Scan}

// Scan scopes.
const (
	ScopePartition = "partition" // the partitions the known values lead to
	ScopeTable     = "table"     // every partition: a table scan
)

// Plan is one scheme's plan for one question: pure data, safe for
// concurrent use.
type Plan struct {
	Question *Question
	Scheme   string
	Kind     Kind
	// Scope is a scan's: ScopePartition or ScopeTable.
	Scope string
	// Index names the index table an Index plan reads.
	Index string
	// Why says in words what decides the plan.
	Why string
	acc access
}

// access is how a plan reads one table: the main table or an index.
type access struct {
	table   string // "" for the main table, else the index's name
	pk      pkShape
	anyPK   bool // the partitions are unknown: the whole table
	rk      rkShape
	filter  []string // known fields the keys do not fix: property filters
	time    bool     // the known event time is filtered on EventTime
	sorted  bool     // the rows come in the asked order (no client sort)
	bound   bool     // the keys bound the window (or there is none)
	fetches bool     // index: point reads of the main rows follow
	dedupe  bool     // secondary rows: an entity may be read twice
	row     int      // the main table's RowKey read: 0 the main row's, k the k-th secondary row's
}

// TableScan reports whether the plan reads every partition of the table.
func (p *Plan) TableScan() bool { return p.acc.anyPK }

// Label is the plan's kind as a reader sees it: "scan (table)" for a
// table scan, "index PostsByCategory" for an index plan.
func (p *Plan) Label() string {
	switch {
	case p.Kind == Scan && p.acc.anyPK:
		return "scan (table)"
	case p.Kind == Index:
		return "index " + p.Index
	}
	return string(p.Kind)
}

// Derive works out the plan an application holding the question's known
// values would use under scheme: the first of point, range, fan-out, index
// and scan that it can, on the main row or on any of the scheme's
// secondary rows (a second row of the entity in its own partition, read
// like the main row: Azure Storage "Table design patterns",
// "Intra-partition secondary index pattern"). It needs no server and
// no data: only the question, the population's fields and interval, and
// the templates.
func Derive(q *Question, scheme *keygen.Scheme) *Plan {
	p := &Plan{Question: q, Scheme: scheme.Name}
	main := q.bestRow(scheme)
	p.acc = main
	p.Kind, p.Why = q.kindOf(main)
	if main.row > 0 && p.Kind != Scan {
		p.Why += fmt.Sprintf(" (on the secondary row %s)", scheme.Rows[main.row-1])
	}
	if p.Kind != Scan {
		return p
	}
	for i := range scheme.Indexes {
		ix := &scheme.Indexes[i]
		a := q.accessOf(ix.Name, ix.PK, ix.RK)
		if a.anyPK || !a.bound || !carriesAll(ix, a.filter) {
			continue // an index row carries only the pointer, the event time and what it projects
		}
		k, why := q.kindOf(a)
		if k == Scan && !q.Ordered() {
			continue
		}
		a.fetches = !q.answeredBy(ix)
		p.Kind, p.Index, p.acc, p.Scope = Index, ix.Name, a, ""
		then := ", then a point read per entity"
		if !a.fetches {
			then = ": its rows carry what the question reads, so no point read follows"
		}
		p.Why = fmt.Sprintf("the main table needs a %s scan (%s); index %s: %s%s", scopeWord(main), p.Why, ix.Name, why, then)
		return p
	}
	p.Scope = ScopePartition
	if main.anyPK {
		p.Scope = ScopeTable
	}
	return p
}

// bestRow is the cheapest access to the main table: through the main
// RowKey or one of the secondary rows' (the main row when they tie).
func (q *Question) bestRow(scheme *keygen.Scheme) access {
	best := q.accessOf("", scheme.PK, scheme.RK)
	best.dedupe = len(scheme.Rows) > 0
	bestKind, _ := q.kindOf(best)
	for r, t := range scheme.Rows {
		a := q.accessOf("", scheme.PK, t)
		a.row, a.dedupe = r+1, true
		if k, _ := q.kindOf(a); slices.Index(Kinds, k) < slices.Index(Kinds, bestKind) {
			best, bestKind = a, k
		}
	}
	return best
}

// carriesAll reports whether index x's rows carry every field in fields
// (so a filter on them can run on the index).
func carriesAll(x *keygen.Index, fields []string) bool {
	for _, f := range fields {
		if !x.Carried(f) {
			return false
		}
	}
	return true
}

// answeredBy reports whether index x's rows carry everything the
// question reads: a copy of the entity, or every field it selects.
func (q *Question) answeredBy(x *keygen.Index) bool {
	if x.CarriesAll {
		return true
	}
	return len(q.Spec.Select) > 0 && carriesAll(x, q.Spec.Select)
}

func scopeWord(a access) string {
	if a.anyPK {
		return "table"
	}
	return "partition"
}

// accessOf analyses one table's key templates for the question.
func (q *Question) accessOf(table string, pkT, rkT *keygen.Template) access {
	a := access{table: table}
	pk, ok := q.partitionsOf(pkT)
	a.pk, a.anyPK = pk, !ok
	a.rk = q.rowsOf(rkT)
	if a.anyPK {
		a.rk = rkShape{parts: a.rk.parts} // no partition: no RowKey range
	}
	pin := q.pinned(a.pk, a.rk, !a.anyPK)
	for _, f := range q.fields {
		if !pin[f] {
			a.filter = append(a.filter, f)
		}
	}
	a.time = q.time && !pin["ticks"] && !pin["inverted_ticks"]
	if q.Ordered() {
		a.sorted = !a.anyPK && a.rk.order && a.rk.desc == (q.Want == Newest)
	}
	// A calendar window is a whole number of time buckets of a finer or
	// equal unit; any window is a RowKey range of a time-ordered RowKey.
	a.bound = (q.unit == keygen.NoUnit && q.span == 0) || (!a.anyPK && a.rk.order) ||
		(q.unit != keygen.NoUnit && a.pk.times && keygen.Finer(a.pk.unit, q.unit) == a.pk.unit)
	return a
}

// kindOf is the kind of plan an access makes, and why.
func (q *Question) kindOf(a access) (Kind, string) {
	switch {
	case a.anyPK:
		return Scan, "the PartitionKey needs " + strings.Join(q.unknown(a.pk.parts), ", ") + ", which the question does not know"
	case q.Want == One && a.pk.known && a.rk.point():
		// The keys computed from the known values are the picked
		// entity's own: the point read finds it, and no filter is needed.
		return Point, "PartitionKey and RowKey from " + q.knownText()
	case len(a.filter) > 0:
		return Scan, "the keys do not fix " + strings.Join(a.filter, ", ") + ": a filter visits every row of the partition"
	case !a.bound:
		return Scan, "the keys do not bound the window: a filter on EventTime visits every row of the partition"
	case q.Want == One && !a.rk.point():
		return Scan, "the RowKey needs " + strings.Join(q.unknown(a.rk.parts), ", ") + ": a filter visits every row of the partition"
	case q.Ordered() && !a.sorted:
		return Scan, "the RowKey does not order rows " + string(q.Want) + " first: the whole partition is read and sorted"
	case len(a.pk.hashes) > 0:
		return FanOut, fmt.Sprintf("%d partitions (hash buckets of %s) per question, merged", a.fanOut(), strings.Join(a.hashSources(), ", "))
	case a.pk.times && !q.Ordered() && !q.oneBucket(a.pk.unit):
		return FanOut, "every " + a.pk.unit.String() + " partition the span covers, merged"
	case a.pk.times:
		return Range, "one " + a.pk.unit.String() + " partition after another, " + string(q.orderWord()) + " first, until the answer is complete"
	}
	return Range, "one partition, RowKey range from " + q.knownText()
}

// hashSources names what the enumerated buckets hash.
func (a access) hashSources() []string {
	var out []string
	for _, k := range a.pk.hashes {
		out = append(out, a.pk.parts[k].Source)
	}
	return out
}

// fanOut is the partitions a fan-out asks per time bucket.
func (a access) fanOut() int64 {
	n := int64(1)
	for _, k := range a.pk.hashes {
		n *= a.pk.parts[k].Buckets
	}
	return n
}

// oneBucket reports whether the question's window lies in one time bucket
// of unit: a calendar window of that unit or a finer one.
func (q *Question) oneBucket(unit keygen.Unit) bool {
	if q.unit == keygen.NoUnit {
		return false
	}
	return keygen.Finer(q.unit, unit) == q.unit
}

func (q *Question) orderWord() Want {
	if q.Want == Newest {
		return Newest
	}
	return Oldest
}

// unknown names the sources of the pieces the question cannot compute.
func (q *Question) unknown(parts []keygen.Part) []string {
	var out []string
	for _, p := range parts {
		if !q.derives(p) && !strings.Contains(strings.Join(out, ","), p.Source) {
			out = append(out, p.Source)
		}
	}
	return out
}

func (q *Question) knownText() string {
	if len(q.Known) == 0 {
		return "nothing known"
	}
	return strings.Join(q.Known, ", ")
}
