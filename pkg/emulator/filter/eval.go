package filter

import (
	"strings"

	"github.com/tablestress/tablestress/internal/keyorder"
)

func (n cmpNode) Eval(r Row) bool {
	v, ok := r.Get(n.prop)
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

// compare orders a and b of the same kind, or numbers (an Int32 or an
// Int64 with a Double); false for values that do not compare.
func compare(a, b Value) (int, bool) {
	if a.Kind == b.Kind && (a.Kind == Int32 || a.Kind == Int64) {
		return cmp3(a.I < b.I, a.I > b.I), true
	}
	if x, ok := a.number(); ok && (a.Kind == Double || b.Kind == Double) {
		y, ok := b.number()
		if !ok {
			return 0, false
		}
		return cmp3(x < y, x > y), true
	}
	if a.Kind != b.Kind {
		return 0, false
	}
	switch a.Kind {
	case String:
		return keyorder.Compare(a.S, b.S), true // Azure's: by UTF-16 code units
	case GUID, Binary:
		return strings.Compare(a.S, b.S), true
	case Bool:
		return cmp3(!a.B && b.B, a.B && !b.B), true
	case Time:
		return a.T.Compare(b.T), true
	}
	return 0, false
}

// number is a numeric value as a float64; false for other kinds.
func (v Value) number() (float64, bool) {
	switch v.Kind {
	case Int32, Int64:
		return float64(v.I), true
	case Double:
		return v.F, true
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
