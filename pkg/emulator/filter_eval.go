package emulator

import "strings"

// row is what a filter is evaluated against.
type row interface {
	get(name string) (value, bool)
}

func (n cmpNode) eval(r row) bool {
	v, ok := r.get(n.prop)
	if !ok {
		return false // a missing property makes the comparison false
	}
	c, ok := compare(v, n.lit)
	if !ok {
		return false // values of different types never compare
	}
	switch n.op {
	case "eq":
		return c == 0
	case "ne":
		return c != 0
	case "gt":
		return c > 0
	case "ge":
		return c >= 0
	case "lt":
		return c < 0
	case "le":
		return c <= 0
	}
	return false
}

// compare orders a and b of compatible types (numbers compare across Int32,
// Int64 and Double).
func compare(a, b value) (int, bool) {
	num := func(v value) (float64, bool) {
		switch v.k {
		case kInt:
			return float64(v.i), true
		case kDouble:
			return v.f, true
		}
		return 0, false
	}
	if a.k == kInt && b.k == kInt {
		return cmp3(a.i < b.i, a.i > b.i), true
	}
	if x, ok := num(a); ok {
		y, ok := num(b)
		if !ok {
			return 0, false
		}
		return cmp3(x < y, x > y), true
	}
	if a.k != b.k {
		return 0, false
	}
	switch a.k {
	case kString, kGUID, kBinary:
		return strings.Compare(a.s, b.s), true
	case kBool:
		return cmp3(!a.b && b.b, a.b && !b.b), true
	case kTime:
		return a.t.Compare(b.t), true
	}
	return 0, false
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// keyRange bounds the keys a filter can match, read from the comparisons
// on PartitionKey and RowKey joined by and at its top level, so queries
// seek in the B-tree instead of scanning the table. Lower bounds are
// inclusive (gt v becomes ge v+"\x00", the least string above v); upper
// bounds are inclusive (le) or strict (lt). RowKey bounds are used only
// when PartitionKey is pinned by eq. The filter is still evaluated on
// every entity in the range.
type keyRange struct {
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
	if !b.set || v < b.v || (v == b.v && strict) {
		return bound{true, v, strict}
	}
	return b
}

// above reports whether k lies beyond the bound.
func (b bound) above(k string) bool {
	return b.set && (k > b.v || (b.strict && k == b.v))
}

func rangeOf(n node) keyRange {
	var r keyRange
	var walk func(n node)
	walk = func(n node) {
		switch x := n.(type) {
		case andNode:
			walk(x.l)
			walk(x.r)
		case cmpNode:
			if x.lit.k != kString || (x.prop != "PartitionKey" && x.prop != "RowKey") {
				return
			}
			v := x.lit.s
			lo, hi := &r.pkLo, &r.pkHi
			if x.prop == "RowKey" {
				lo, hi = &r.rkLo, &r.rkHi
			}
			switch x.op {
			case "eq":
				*lo, *hi = max(*lo, v), hi.tighten(v, false)
			case "ge":
				*lo = max(*lo, v)
			case "gt":
				*lo = max(*lo, v+"\x00")
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

// start is the first key the range can hold.
func (r keyRange) start() *entity {
	if r.pkEq {
		return &entity{pk: r.pkLo, rk: r.rkLo}
	}
	return &entity{pk: r.pkLo}
}

// partition returns the single PartitionKey the filter pins, if any.
func (r keyRange) partition() (string, bool) { return r.pkLo, r.pkEq }
