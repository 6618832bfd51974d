// Package filter is the OData $filter language of the Table service, the
// one reading of a filter the service and the judge share (the judge
// estimates a filter's selectivity with it): it parses a filter (Parse),
// evaluates it on a row of typed values (Node, Row, Value), and reads from
// it the bounds it sets on the keys (RangeOf), so that a query seeks in its
// table instead of scanning it.
//
// The subset is Azure's: comparisons (eq ne gt ge lt le) of a property
// with a literal, a Boolean property or the literal true or false on its
// own, joined by and, or, not and parentheses. Literals:
// 'string' (with ” for a quote), 123 (Int32), 123L (Int64), 1.5 or 1e3
// (Double), true/false, datetime'...', guid'...', X'hex' and binary'hex';
// the null literal is refused, as Azure refuses it.
//
// It knows nothing of how entities are stored or requests are served: it
// imports edm (for GUIDs), keyorder (Azure's string order) and the
// standard library only, never the store or the REST service, which
// implement Row for their rows.
package filter

import "time"

// Kind is the type of a Value.
type Kind uint8

// The kinds of values, the Edm types. Values of different kinds never
// compare (the comparison matches no row), except an Int32 or an Int64
// with a Double, as numbers: an Int64 property compared with an Int32
// literal, or an Int32 property with an Int64 literal (7L), matches
// nothing, as on Azure.
const (
	String Kind = iota
	Int32
	Int64
	Double
	Bool
	Time
	GUID
	Binary
)

// Value is a typed property or literal value.
type Value struct {
	Kind Kind
	S    string // String, GUID (lower case), Binary (raw bytes)
	I    int64  // Int32, Int64
	F    float64
	B    bool
	T    time.Time
}

// Row is what a filter is evaluated against: a row's properties by name,
// false for one it does not have.
type Row interface {
	Get(name string) (Value, bool)
}

// Node is a filter expression, true for the rows it matches.
type Node interface {
	Eval(r Row) bool
}

type andNode struct{ l, r Node }
type orNode struct{ l, r Node }
type notNode struct{ x Node }
type cmpNode struct {
	prop string
	op   string
	lit  Value
}
type boolProp struct{ prop string }

// boolLit is the literal true or false as a whole expression ([MS-ODATA]
// boolCommonExpr: "$filter=false", "true and PartitionKey eq 'p'").
type boolLit bool

func (n andNode) Eval(r Row) bool { return n.l.Eval(r) && n.r.Eval(r) }
func (n orNode) Eval(r Row) bool  { return n.l.Eval(r) || n.r.Eval(r) }
func (n notNode) Eval(r Row) bool { return !n.x.Eval(r) }
func (n boolLit) Eval(Row) bool   { return bool(n) }
func (n boolProp) Eval(r Row) bool {
	v, ok := r.Get(n.prop)
	return ok && v.Kind == Bool && v.B
}
