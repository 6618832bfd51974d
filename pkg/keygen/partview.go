package keygen

import "time"

// PartKind says what one piece of a template renders.
type PartKind int

// The kinds of template pieces.
const (
	// PartLiteral is fixed text.
	PartLiteral PartKind = iota
	// PartValue is a field or built-in, in its default form or a number or
	// case format: {device}, {seq:08}, {inverted_ticks}, {tenant:lower}.
	PartValue
	// PartTime is the event time in a layout: {time:yyyy-MM-dd}.
	PartTime
	// PartHash is a hash bucket of a field or built-in: {hash(order) % 16}.
	PartHash
	// PartMod is a numeric value modulo a number: {customer % 10}.
	PartMod
)

// Part describes one piece of a compiled template, for analyses that ask
// which pieces of a key an application can compute from what it knows
// (package question). It renders the piece as the template does.
type Part struct {
	Kind PartKind
	// Source is the field or built-in the piece reads ("time" for a
	// PartTime; "" for a literal).
	Source string
	// Literal is a PartLiteral's text.
	Literal string
	// Buckets is the modulus of a PartHash or PartMod: the piece renders
	// one of Buckets values.
	Buckets int64
	// Layout is a PartTime's Go time layout.
	Layout string
	// Res is how finely the piece's source tells event times apart: a
	// PartTime's finest calendar unit (its mean length; 0 when the layout
	// renders every instant alike), or the resolution of the time
	// built-in the piece renders, hashes or takes modulo ({ticks} 100 ns,
	// {unix} a second: TimeBuiltin); 0 for a piece that does not read the
	// event time.
	Res time.Duration
	// Dir is +1 when the piece's source grows with event time (a PartTime
	// whose layout sorts as instants do; time, ticks, unix, unix_ms), -1
	// when it shrinks (inverted_ticks, inverted_unix, inverted_unix_ms),
	// else 0.
	Dir int
	// Unit is a PartTime's finest calendar unit, and Injective whether
	// its buckets never repeat (LayoutOf); NoUnit and false for any other
	// piece.
	Unit      Unit
	Injective bool
	p         part
}

// Parts lists the template's pieces in order.
func (t *Template) Parts() []Part {
	out := make([]Part, len(t.parts))
	for k, pt := range t.parts {
		out[k] = describe(pt)
	}
	return out
}

func describe(pt part) Part {
	d := Part{p: pt}
	name := func(s source) string {
		if s.field >= 0 {
			return s.p.fields[s.field].spec.Name
		}
		return s.builtin
	}
	switch v := pt.(type) {
	case literal:
		d.Kind, d.Literal = PartLiteral, string(v)
	case defaultPart:
		d.Kind, d.Source = PartValue, name(v.src)
	case numPart:
		d.Kind, d.Source = PartValue, name(v.src)
	case casePart:
		d.Kind, d.Source = PartValue, name(v.src)
	case timePart:
		d.Kind, d.Source, d.Layout = PartTime, "time", v.layout
		d.Res, d.Unit, d.Injective = v.cal.Unit.Mean(), v.cal.Unit, v.cal.Injective
		if v.cal.Sorts {
			d.Dir = 1
		}
		return d
	case hashPart:
		d.Kind, d.Source, d.Buckets = PartHash, name(v.src), v.mod
	case modPart:
		d.Kind, d.Source, d.Buckets = PartMod, name(v.src), v.mod
	}
	d.Res, d.Dir, _ = TimeBuiltin(d.Source)
	return d
}

// Append renders the piece for entity e, as the template does.
func (pt Part) Append(dst []byte, e *Entity) []byte { return pt.p.appendTo(dst, e) }

// AppendBucket renders bucket b (0 <= b < Buckets) of a PartHash or PartMod
// piece in the piece's number format; other pieces render nothing.
func (pt Part) AppendBucket(dst []byte, b int64) []byte {
	switch v := pt.p.(type) {
	case hashPart:
		return v.nf.append(dst, b)
	case modPart:
		return v.nf.append(dst, b)
	}
	return dst
}

// AppendTime renders a PartTime piece for event time t.
func (pt Part) AppendTime(dst []byte, t time.Time) []byte {
	if v, ok := pt.p.(timePart); ok {
		return t.UTC().AppendFormat(dst, v.layout)
	}
	return dst
}

// FieldKind reports the kind of a declared field ("" when name is not one).
func (p *Population) FieldKind(name string) string {
	if k, ok := p.byName[name]; ok {
		return p.fields[k].spec.Kind
	}
	return ""
}

// FieldNumeric reports whether a declared field is stored as a number
// (Edm.Int64): the int and sequence kinds.
func (p *Population) FieldNumeric(name string) bool {
	k := p.FieldKind(name)
	return k == "int" || k == "sequence"
}

// FieldNumber is the number of field name of e (int, sequence and id
// kinds); false for other kinds or no such field.
func (p *Population) FieldNumber(e *Entity, name string) (int64, bool) {
	k, ok := p.byName[name]
	if !ok || !p.fields[k].numeric {
		return 0, false
	}
	return e.Values[k].Num, true
}

// Equal reports whether entities a and b have the same value of field
// name (false when there is no such field).
func (p *Population) Equal(a, b *Entity, name string) bool {
	k, ok := p.byName[name]
	if !ok {
		return false
	}
	return a.Values[k] == b.Values[k]
}

// NameHash is FNV-1a 64 of a name: a stable salt for streams drawn per
// name (NewStream(seed, NameHash(name))).
func NameHash(name string) uint64 { return nameHash(name) }

// FieldValue is field name's value for entity i, drawn alone (as Entity
// draws it); false when there is no such field.
func (p *Population) FieldValue(name string, i int64) (Value, bool) {
	k, ok := p.byName[name]
	if !ok {
		return Value{}, false
	}
	var st Stream
	return p.fields[k].draw(p.spec.Seed, i, &st), true
}

// Value returns field name's value of e (false when there is no such
// field).
func (p *Population) Value(e *Entity, name string) (Value, bool) {
	k, ok := p.byName[name]
	if !ok {
		return Value{}, false
	}
	return e.Values[k], true
}
