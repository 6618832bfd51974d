package question

import (
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// Access is what a plan reads, described for an analysis that costs it
// without running it (package judge): which table and RowKey, which
// PartitionKey pieces it enumerates or walks, what its queries filter on.
type Access struct {
	// Table is "" for the main table, else the index table's name.
	Table string
	// Row is the main table's RowKey the plan reads: 0 the main row's, k
	// the scheme's k-th secondary row's.
	Row int
	// AnyPK is set when the plan reads every partition (a table scan).
	AnyPK bool
	// Hashed are the PartitionKey pieces the plan enumerates over their
	// buckets (indexes into the template's parts).
	Hashed []int
	// TimeUnit is the calendar unit of the time bucket the plan walks or
	// covers (NoUnit when the PartitionKey's time is computed or absent).
	TimeUnit keygen.Unit
	// RKPrefix is how many leading RowKey pieces the plan computes;
	// RKOrdered is set when the piece after them orders rows by event
	// time, RKDesc when newest first; RKPoint when it computes them all.
	RKPrefix             int
	RKOrdered, RKDesc    bool
	RKPoint              bool
	Filter               []string // property filters on known fields
	TimeFilter           bool     // a filter on the known event time
	Sorted               bool     // rows come in the asked order: a query stops at the limit
	Fetches              bool     // an index's rows are followed by a point read each
	Dedupe               bool     // an entity's rows may be read more than once
	WindowBoundByRowKeys bool     // the RowKey range bounds the window
}

// Access describes what the plan reads.
func (p *Plan) Access() Access {
	a := p.acc
	return Access{Table: a.table, Row: a.row, AnyPK: a.anyPK, Hashed: append([]int(nil), a.pk.hashes...), TimeUnit: a.pk.unit,
		RKPrefix: a.rk.prefix, RKOrdered: a.rk.order, RKDesc: a.rk.desc, RKPoint: a.rk.point(),
		Filter: append([]string(nil), a.filter...), TimeFilter: a.time, Sorted: a.sorted, Fetches: a.fetches, Dedupe: a.dedupe,
		WindowBoundByRowKeys: !a.anyPK && a.rk.order}
}

// WindowUnit is the calendar window unit (NoUnit for none), WindowSpan
// the duration window (0 for none).
func (q *Question) WindowUnit() keygen.Unit { return q.unit }

// WindowSpan is the duration of a window given as one (like 1h).
func (q *Question) WindowSpan() time.Duration { return q.span }

// WindowLength is the event time a window covers: the calendar unit's
// (mean) length or the duration; 0 without a window.
func (q *Question) WindowLength() time.Duration {
	if q.span > 0 {
		return q.span
	}
	return q.unit.Mean()
}
