package keygen

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// part is one piece of a compiled template.
type part interface {
	appendTo(dst []byte, e *Entity) []byte
	outputs() []string // representative renderings, for static key checks
}

// source is what a placeholder names: a declared field or a built-in.
type source struct {
	p       *Population
	field   int // index into p.fields, or -1 for a built-in
	builtin string
}

func (p *Population) resolve(name string) (source, error) {
	if k, ok := p.byName[name]; ok {
		return source{p: p, field: k}, nil
	}
	if isBuiltin(name) {
		return source{p: p, field: -1, builtin: name}, nil
	}
	return source{}, fmt.Errorf("%q is not a field; declared fields and built-ins are: %s", name, p.knownNames())
}

func (s source) numeric() bool {
	if s.field >= 0 {
		return s.p.fields[s.field].numeric
	}
	return s.builtin != "time" && s.builtin != "guid"
}

// number returns the numeric value of a numeric source.
func (s source) number(e *Entity) int64 {
	if s.field >= 0 {
		return e.Values[s.field].Num
	}
	n, _ := builtinNumber(s.builtin, e)
	return n
}

// appendDefault renders the source in its default form.
func (s source) appendDefault(dst []byte, e *Entity) []byte {
	if s.field >= 0 {
		return s.p.fields[s.field].appendValue(dst, &e.Values[s.field])
	}
	switch s.builtin {
	case "time":
		return e.Time.UTC().AppendFormat(dst, time.RFC3339Nano)
	case "guid":
		return appendGUID(dst, e.guid)
	}
	n, w := builtinNumber(s.builtin, e)
	return appendPadded(dst, n, w)
}

// withFormat compiles {source:format}.
func (s source) withFormat(format string) (part, error) {
	if format == "" {
		return defaultPart{s}, nil
	}
	if s.field < 0 && s.builtin == "time" {
		layout, err := timeLayout(format)
		if err != nil {
			return nil, err
		}
		return timePart{layout: layout, cal: LayoutOf(layout)}, nil
	}
	if s.numeric() {
		nf, ok := parseNumFormat(format)
		if !ok {
			return nil, fmt.Errorf("%q is not a number format; use 06, d6 or x8", format)
		}
		return numPart{src: s, nf: nf}, nil
	}
	switch format {
	case "lower", "upper":
		return casePart{src: s, upper: format == "upper"}, nil
	}
	return nil, fmt.Errorf("%q is not a format for a text value; use lower or upper", format)
}

func (s source) sampleEntities() []Entity {
	var out []Entity
	base := time.Date(2025, 12, 31, 23, 59, 59, 999999900, time.UTC)
	for _, i := range []int64{0, 1, 7, 12345, 9_999_999} {
		var e Entity
		s.p.Entity(i, &e)
		if s.p.spec.Start.IsZero() {
			e.Time = base
		}
		out = append(out, e)
	}
	return out
}

// defaultPart renders a source in its default form.
type defaultPart struct{ src source }

func (d defaultPart) appendTo(dst []byte, e *Entity) []byte { return d.src.appendDefault(dst, e) }
func (d defaultPart) outputs() []string {
	if d.src.field >= 0 {
		return d.src.p.fields[d.src.field].outputs()
	}
	var out []string
	for _, e := range d.src.sampleEntities() {
		out = append(out, string(d.src.appendDefault(nil, &e)))
	}
	return out
}

// numPart renders a numeric source with a number format.
type numPart struct {
	src source
	nf  numFormat
}

func (n numPart) appendTo(dst []byte, e *Entity) []byte {
	if n.src.field >= 0 {
		return n.src.p.fields[n.src.field].appendNumber(dst, &e.Values[n.src.field], n.nf)
	}
	return n.nf.append(dst, n.src.number(e))
}
func (n numPart) outputs() []string {
	var out []string
	for _, e := range n.src.sampleEntities() {
		out = append(out, string(n.appendTo(nil, &e)))
	}
	return out
}

// timePart renders the event time with a Go layout.
// timePart renders the event time in a layout; cal is what the layout
// tells apart, probed once.
type timePart struct {
	layout string
	cal    Layout
}

func (t timePart) appendTo(dst []byte, e *Entity) []byte {
	return e.Time.UTC().AppendFormat(dst, t.layout)
}
func (t timePart) outputs() []string {
	return []string{time.Date(2025, 12, 31, 23, 59, 59, 999999900, time.UTC).Format(t.layout)}
}

// casePart renders a text source lower- or upper-cased.
type casePart struct {
	src   source
	upper bool
}

func (c casePart) appendTo(dst []byte, e *Entity) []byte {
	start := len(dst)
	dst = c.src.appendDefault(dst, e)
	if c.upper {
		copy(dst[start:], bytes.ToUpper(dst[start:]))
	} else {
		copy(dst[start:], bytes.ToLower(dst[start:]))
	}
	return dst
}
func (c casePart) outputs() []string {
	var out []string
	for _, o := range (defaultPart{c.src}).outputs() {
		if c.upper {
			out = append(out, strings.ToUpper(o))
		} else {
			out = append(out, strings.ToLower(o))
		}
	}
	return out
}

// hashPart renders FNV-1a 64 of the source's default rendering, modulo mod.
type hashPart struct {
	src source
	mod int64
	nf  numFormat
}

func (h hashPart) appendTo(dst []byte, e *Entity) []byte {
	start := len(dst)
	dst = h.src.appendDefault(dst, e)
	bucket := int64(fnv1a(dst[start:]) % uint64(h.mod))
	return h.nf.append(dst[:start], bucket)
}
func (h hashPart) outputs() []string { return []string{string(h.nf.append(nil, h.mod-1))} }

// modPart renders a numeric source modulo mod.
type modPart struct {
	src source
	mod int64
	nf  numFormat
}

func (m modPart) appendTo(dst []byte, e *Entity) []byte {
	v := m.src.number(e) % m.mod
	if v < 0 {
		v += m.mod
	}
	return m.nf.append(dst, v)
}
func (m modPart) outputs() []string { return []string{string(m.nf.append(nil, m.mod-1))} }

// literal is fixed text.
type literal string

func (l literal) appendTo(dst []byte, _ *Entity) []byte { return append(dst, l...) }
func (l literal) outputs() []string                     { return []string{string(l)} }
