package emulator

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

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

// entityRow evaluates filters against a stored entity, parsing its
// properties only if the filter asks for one.
type entityRow struct {
	e     *entity
	props map[string]json.RawMessage
}

func (r *entityRow) get(name string) (value, bool) {
	switch name {
	case "PartitionKey":
		return value{k: kString, s: r.e.pk}, true
	case "RowKey":
		return value{k: kString, s: r.e.rk}, true
	case "Timestamp":
		return value{k: kTime, t: r.e.ts}, true
	}
	if r.props == nil {
		r.props = map[string]json.RawMessage{}
		_ = json.Unmarshal(append(append([]byte{'{'}, r.e.props...), '}'), &r.props)
	}
	raw, ok := r.props[name]
	if !ok {
		return value{}, false
	}
	var typ string
	if t, ok := r.props[name+"@odata.type"]; ok {
		_ = json.Unmarshal(t, &typ)
	}
	return typedValue(raw, typ)
}

// typedValue converts a stored JSON value with its annotation.
func typedValue(raw json.RawMessage, typ string) (value, bool) {
	var s string
	isString := json.Unmarshal(raw, &s) == nil
	switch typ {
	case "Edm.Int64":
		var v value
		if _, err := jsonInt(s, &v); err != nil {
			return value{}, false
		}
		return v, true
	case "Edm.DateTime":
		t, err := parseTime(s)
		return value{k: kTime, t: t}, err == nil
	case "Edm.Guid":
		return value{k: kGUID, s: strings.ToLower(s)}, isString
	case "Edm.Binary":
		b, err := base64.StdEncoding.DecodeString(s)
		return value{k: kBinary, s: string(b)}, err == nil
	}
	if isString {
		return value{k: kString, s: s}, true
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return value{k: kBool, b: b}, true
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		if typ != "Edm.Double" && f == float64(int64(f)) && !strings.ContainsAny(string(raw), ".eE") {
			return value{k: kInt, i: int64(f)}, true
		}
		return value{k: kDouble, f: f}, true
	}
	return value{}, false
}

func jsonInt(s string, v *value) (int64, error) {
	var n int64
	err := json.Unmarshal([]byte(s), &n)
	*v = value{k: kInt, i: n}
	return n, err
}

// keyRange bounds the keys a filter can match, read from the comparisons
// on PartitionKey and RowKey joined by and at its top level, so queries
// seek in the B-tree instead of scanning the table. Bounds are inclusive;
// "" for pkHi means unbounded. The filter is still evaluated on every
// entity in the range.
type keyRange struct {
	pkLo, pkHi string
	pkEq       bool
	hasPKHi    bool
	rkLo, rkHi string
	hasRKHi    bool
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
			if x.lit.k != kString {
				return
			}
			v := x.lit.s
			switch x.prop {
			case "PartitionKey":
				switch x.op {
				case "eq":
					r.pkLo, r.pkHi, r.pkEq, r.hasPKHi = v, v, true, true
				case "ge", "gt":
					if !r.pkEq && v > r.pkLo {
						r.pkLo = v
					}
				case "le", "lt":
					if !r.pkEq && (!r.hasPKHi || v < r.pkHi) {
						r.pkHi, r.hasPKHi = v, true
					}
				}
			case "RowKey":
				switch x.op {
				case "eq":
					r.rkLo, r.rkHi, r.hasRKHi = v, v, true
				case "ge", "gt":
					if v > r.rkLo {
						r.rkLo = v
					}
				case "le", "lt":
					if !r.hasRKHi || v < r.rkHi {
						r.rkHi, r.hasRKHi = v, true
					}
				}
			}
		}
	}
	if n != nil {
		walk(n)
	}
	return r
}

// partition returns the single PartitionKey the filter pins, if any.
func (r keyRange) partition() (string, bool) { return r.pkLo, r.pkEq }
