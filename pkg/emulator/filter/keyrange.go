package filter

import "github.com/tablestress/tablestress/internal/keyorder"

// KeyRange bounds the keys a filter can match, read from the comparisons
// on PartitionKey and RowKey joined by and at its top level, so queries
// seek in the B-tree instead of scanning the table, in Azure's key order
// (keyorder). Lower bounds are inclusive (gt v becomes ge v+"\x00", the
// least string above v); upper bounds are inclusive (le) or strict (lt).
// RowKey bounds are used only when PartitionKey is pinned by eq. The
// filter is still evaluated on every entity in the range.
type KeyRange struct {
	pkLo string
	pkHi bound
	pkEq bool // the bounds pin one PartitionKey
	rkLo string
	rkHi bound
}

// bound is an upper bound; the zero bound is no bound.
type bound struct {
	set    bool
	v      string
	strict bool
}

// tighten returns the tighter of b and (v, strict).
func (b bound) tighten(v string, strict bool) bound {
	if !b.set || keyorder.Less(v, b.v) || (v == b.v && strict) {
		return bound{true, v, strict}
	}
	return b
}

// above reports whether k lies beyond the bound.
func (b bound) above(k string) bool {
	return b.set && (keyorder.Less(b.v, k) || (b.strict && k == b.v))
}

// RangeOf returns the key range of filter n (nil: the whole table).
func RangeOf(n Node) KeyRange {
	var r KeyRange
	var walk func(n Node)
	walk = func(n Node) {
		switch x := n.(type) {
		case andNode:
			walk(x.l)
			walk(x.r)
		case cmpNode:
			if x.lit.Kind != String || (x.prop != "PartitionKey" && x.prop != "RowKey") {
				return
			}
			v := x.lit.S
			lo, hi := &r.pkLo, &r.pkHi
			if x.prop == "RowKey" {
				lo, hi = &r.rkLo, &r.rkHi
			}
			switch x.op {
			case "eq":
				*lo, *hi = keyorder.Max(*lo, v), hi.tighten(v, false)
			case "ge":
				*lo = keyorder.Max(*lo, v)
			case "gt":
				*lo = keyorder.Max(*lo, v+"\x00")
			case "le":
				*hi = hi.tighten(v, false)
			case "lt":
				*hi = hi.tighten(v, true)
			}
		}
	}
	if n != nil {
		walk(n)
	}
	r.pkEq = r.pkHi.set && !r.pkHi.strict && r.pkHi.v == r.pkLo
	return r
}

// Start is the first keys the range can hold: its least PartitionKey,
// and its least RowKey when it pins the PartitionKey ("" otherwise).
func (r KeyRange) Start() (pk, rk string) {
	if r.pkEq {
		return r.pkLo, r.rkLo
	}
	return r.pkLo, ""
}

// Past reports whether keys (pk, rk) lie beyond the range's end, as do
// all the keys after them in (PartitionKey, RowKey) order.
func (r KeyRange) Past(pk, rk string) bool {
	return r.pkHi.above(pk) || (r.pkEq && r.rkHi.above(rk))
}

// Partition returns the single PartitionKey the filter pins, if any.
func (r KeyRange) Partition() (string, bool) { return r.pkLo, r.pkEq }
