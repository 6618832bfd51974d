package question

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/internal/keyorder"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// Row is one row of an answer: a main row (Seq is the entity's index) or
// an index row (Seq -1, MainPK and MainRK name the main row).
type Row struct {
	Seq            int64
	Ticks          int64 // the event time, .NET ticks
	MainPK, MainRK string
	// RK is the row's own RowKey in the table it was read from: where a
	// query asked again for the rows after it starts (Query.RKAfter).
	RK string
}

// Query is one query of a plan, read page by page.
type Query struct {
	// Table is "" for the main table, else the index table's name.
	Table string
	// PK is the partition; AnyPK queries every partition (a table scan).
	PK    string
	AnyPK bool
	// RKFrom and RKTo bound the RowKeys: RowKey >= RKFrom and < RKTo; ""
	// is open.
	RKFrom, RKTo string
	// RKAfter, when set, keeps the RowKeys after it (RowKey gt RKAfter):
	// a bucket asked again for the rows after the last it gave.
	RKAfter string
	// Equal are property filters on known fields.
	Equal []Equal
	// Time, when set, keeps the rows whose EventTime is in the span.
	Time *Span
	// Top is how many rows the plan wants (0: every row): the query stops
	// after the page that reaches it, and asks pages of at most that many.
	Top int
}

// Equal is a property filter: Field eq Value (a string), or Number for
// a field stored as Edm.Int64.
type Equal struct {
	Field   string
	Value   string
	Numeric bool
	Number  int64
	// Raw is the picked entity's value, which Model compares.
	Raw keygen.Value
}

// Source runs a plan's requests: the Table service through the SDK (its
// requests measured), or Model.
type Source interface {
	// Get reads the main table's row (pk, rk); found is false when there
	// is none.
	Get(ctx context.Context, pk, rk string) (row Row, found bool, err error)
	// Query reads q page by page, each page a request, until it has Top
	// rows or the query ends.
	Query(ctx context.Context, q Query) ([]Row, error)
}

// Parallel is a Source that sends a question's independent requests at
// once, as an application sends a fan-out's queries and the point reads
// after an index: Execute gives it every partition of a group of a
// fan-out and every main row an index names. The answers are in the order
// asked (rows of QueryAll per query; of GetAll per key, with found);
// an error of any request is the call's, once every request has ended.
type Parallel interface {
	QueryAll(ctx context.Context, qs []Query) ([][]Row, error)
	GetAll(ctx context.Context, keys []Key) ([]Row, []bool, error)
}

// Key is a main row's keys.
type Key struct{ PK, RK string }

// EventTimeLayout is how a datetime literal of a filter is written.
const EventTimeLayout = "2006-01-02T15:04:05.0000000Z"

// Filter is the query's OData $filter.
func (q Query) Filter() string {
	var parts []string
	if !q.AnyPK {
		parts = append(parts, "PartitionKey eq "+Quote(q.PK))
	}
	if q.RKFrom != "" {
		parts = append(parts, "RowKey ge "+Quote(q.RKFrom))
	}
	if q.RKTo != "" {
		parts = append(parts, "RowKey lt "+Quote(q.RKTo))
	}
	if q.RKAfter != "" {
		parts = append(parts, "RowKey gt "+Quote(q.RKAfter))
	}
	for _, e := range q.Equal {
		if e.Numeric {
			parts = append(parts, e.Field+" eq "+strconv.FormatInt(e.Number, 10)+"L")
		} else {
			parts = append(parts, e.Field+" eq "+Quote(e.Value))
		}
	}
	if q.Time != nil {
		parts = append(parts, "EventTime ge datetime'"+Time(q.Time.Lo).Format(EventTimeLayout)+"'",
			"EventTime le datetime'"+Time(q.Time.Hi).Format(EventTimeLayout)+"'")
	}
	return strings.Join(parts, " and ")
}

// Quote makes an OData string literal, doubling single quotes.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// succ is the least key after every key that starts with s, in the
// service's key order ("" when there is none: an open bound).
func succ(s string) string { return keyorder.PrefixEnd(s) }

// render renders key pieces for entity e, with event time at for the time
// pieces and the given bucket for each enumerated hash or modulo piece.
func (q *Question) render(parts []keygen.Part, e *keygen.Entity, at time.Time, buckets map[int]int64) string {
	var b []byte
	var tmp keygen.Entity
	for k, p := range parts {
		switch {
		case q.derives(p):
			b = p.Append(b, e)
		case p.Kind == keygen.PartTime:
			b = p.AppendTime(b, at)
		case p.Kind == keygen.PartHash || p.Kind == keygen.PartMod:
			b = p.AppendBucket(b, buckets[k])
		default:
			tmp = *e
			tmp.Time = at
			b = p.Append(b, &tmp)
		}
	}
	return string(b)
}

// equals are the property filters of the known fields the keys do not
// fix, with the picked entity's values.
func (q *Question) equals(fields []string, e *keygen.Entity) []Equal {
	var out []Equal
	for _, f := range fields {
		raw, _ := q.pop.Value(e, f)
		if n, ok := q.pop.FieldNumber(e, f); ok && q.pop.FieldNumeric(f) {
			out = append(out, Equal{Field: f, Numeric: true, Number: n, Raw: raw})
			continue
		}
		v, _ := q.pop.FieldString(e, f)
		out = append(out, Equal{Field: f, Value: v, Raw: raw})
	}
	return out
}
