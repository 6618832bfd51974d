package emulator

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// The OData $filter subset of the Table service: comparisons (eq ne gt ge
// lt le) of a property with a literal, joined by and, or, not and
// parentheses. Literals: 'string' (with '' for a quote), 123 (Int32),
// 123L (Int64), 1.5 or 1e3 (Double), true/false, datetime'...', guid'...',
// X'hex' and binary'hex'.

type valueKind uint8

const (
	kString valueKind = iota
	kInt
	kDouble
	kBool
	kTime
	kGUID
	kBinary
)

// value is a typed property or literal value.
type value struct {
	k valueKind
	s string // string, guid (lower case), binary (raw bytes)
	i int64
	f float64
	b bool
	t time.Time
}

// node is a filter expression.
type node interface {
	eval(r row) bool
}

type andNode struct{ l, r node }
type orNode struct{ l, r node }
type notNode struct{ x node }
type cmpNode struct {
	prop string
	op   string
	lit  value
}
type boolProp struct{ prop string }

func (n andNode) eval(r row) bool { return n.l.eval(r) && n.r.eval(r) }
func (n orNode) eval(r row) bool  { return n.l.eval(r) || n.r.eval(r) }
func (n notNode) eval(r row) bool { return !n.x.eval(r) }
func (n boolProp) eval(r row) bool {
	v, ok := r.get(n.prop)
	return ok && v.k == kBool && v.b
}

// filterError locates a syntax error.
type filterError struct {
	pos int
	msg string
}

func (e *filterError) Error() string { return fmt.Sprintf("$filter at %d: %s", e.pos, e.msg) }

type token struct {
	kind string // ident, lit, op, (, ), eof
	text string
	lit  value
	pos  int
}

type parser struct {
	toks []token
	i    int
}

// parseFilter parses a $filter expression; an empty one matches everything.
func parseFilter(s string) (node, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "eof" {
		return nil, &filterError{t.pos, fmt.Sprintf("unexpected %q", t.text)}
	}
	return n, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.kind == "ident" && strings.EqualFold(t.text, w)
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.isWord("or") {
		p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = orNode{l, r}
	}
	return l, nil
}

func (p *parser) and() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isWord("and") {
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = andNode{l, r}
	}
	return l, nil
}

func (p *parser) unary() (node, error) {
	if p.isWord("not") {
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return notNode{x}, nil
	}
	t := p.peek()
	if t.kind == "(" {
		p.next()
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != ")" {
			return nil, &filterError{c.pos, "missing ')'"}
		}
		return n, nil
	}
	return p.comparison()
}

var comparisonOps = map[string]bool{"eq": true, "ne": true, "gt": true, "ge": true, "lt": true, "le": true}

func (p *parser) comparison() (node, error) {
	a := p.next()
	if a.kind != "ident" && a.kind != "lit" {
		return nil, &filterError{a.pos, fmt.Sprintf("expected a property name or a value, found %q", a.text)}
	}
	op := p.peek()
	if op.kind != "ident" || !comparisonOps[strings.ToLower(op.text)] {
		if a.kind == "ident" {
			return boolProp{a.text}, nil // a Boolean property on its own
		}
		return nil, &filterError{op.pos, "expected eq, ne, gt, ge, lt or le"}
	}
	p.next()
	b := p.next()
	o := strings.ToLower(op.text)
	switch {
	case a.kind == "ident" && b.kind == "lit":
		return cmpNode{prop: a.text, op: o, lit: b.lit}, nil
	case a.kind == "lit" && b.kind == "ident":
		return cmpNode{prop: b.text, op: flip[o], lit: a.lit}, nil
	}
	return nil, &filterError{b.pos, "a comparison needs one property and one literal value"}
}

var flip = map[string]string{"eq": "eq", "ne": "ne", "gt": "lt", "ge": "le", "lt": "gt", "le": "ge"}

func tokenize(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			out = append(out, token{kind: string(c), text: string(c), pos: i})
			i++
		case c == '\'':
			str, n, err := quoted(s, i)
			if err != nil {
				return nil, err
			}
			out = append(out, token{kind: "lit", text: s[i:n], lit: value{k: kString, s: str}, pos: i})
			i = n
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(s) && strings.IndexByte("0123456789.eE+-", s[j]) >= 0 {
				if (s[j] == '+' || s[j] == '-') && s[j-1] != 'e' && s[j-1] != 'E' {
					break
				}
				j++
			}
			text := s[i:j]
			v, n, err := number(s, i, j)
			if err != nil {
				return nil, err
			}
			out = append(out, token{kind: "lit", text: text, lit: v, pos: i})
			i = n
		case isIdentByte(c, true):
			j := i + 1
			for j < len(s) && isIdentByte(s[j], false) {
				j++
			}
			word := s[i:j]
			if j < len(s) && s[j] == '\'' {
				str, n, err := quoted(s, j)
				if err != nil {
					return nil, err
				}
				v, err := typedLiteral(word, str, i)
				if err != nil {
					return nil, err
				}
				out = append(out, token{kind: "lit", text: s[i:n], lit: v, pos: i})
				i = n
				continue
			}
			switch strings.ToLower(word) {
			case "true", "false":
				out = append(out, token{kind: "lit", text: word, lit: value{k: kBool, b: strings.EqualFold(word, "true")}, pos: i})
			default:
				out = append(out, token{kind: "ident", text: word, pos: i})
			}
			i = j
		default:
			return nil, &filterError{i, fmt.Sprintf("unexpected character %q", c)}
		}
	}
	return append(out, token{kind: "eof", text: "end of filter", pos: len(s)}), nil
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80 || (!first && c >= '0' && c <= '9')
}

// quoted reads a '...' literal starting at s[i] and returns it unescaped and
// the index after it.
func quoted(s string, i int) (string, int, error) {
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		if s[j] == '\'' {
			if j+1 < len(s) && s[j+1] == '\'' {
				b.WriteByte('\'')
				j++
				continue
			}
			return b.String(), j + 1, nil
		}
		b.WriteByte(s[j])
	}
	return "", 0, &filterError{i, "unterminated string literal"}
}

func number(s string, i, j int) (value, int, error) {
	text := s[i:j]
	if j < len(s) && (s[j] == 'L' || s[j] == 'l') {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return value{}, 0, &filterError{i, fmt.Sprintf("%q is not an Int64", text)}
		}
		return value{k: kInt, i: n}, j + 1, nil
	}
	if j < len(s) && (s[j] == 'd' || s[j] == 'D' || s[j] == 'f' || s[j] == 'F' || s[j] == 'm' || s[j] == 'M') {
		j++
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return value{}, 0, &filterError{i, fmt.Sprintf("%q is not a number", text)}
		}
		return value{k: kDouble, f: f}, j, nil
	}
	if !strings.ContainsAny(text, ".eE") {
		n, err := strconv.ParseInt(text, 10, 32)
		if err == nil {
			return value{k: kInt, i: n}, j, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return value{}, 0, &filterError{i, fmt.Sprintf("%q is not a number", text)}
	}
	return value{k: kDouble, f: f}, j, nil
}

func typedLiteral(word, body string, pos int) (value, error) {
	switch strings.ToLower(word) {
	case "datetime":
		t, err := time.Parse(time.RFC3339Nano, body)
		if err != nil {
			return value{}, &filterError{pos, fmt.Sprintf("%q is not a datetime", body)}
		}
		return value{k: kTime, t: t}, nil
	case "guid":
		if !edm.ValidGUID(body) {
			return value{}, &filterError{pos, fmt.Sprintf("%q is not a guid", body)}
		}
		return value{k: kGUID, s: strings.ToLower(body)}, nil
	case "x", "binary":
		b, err := hex.DecodeString(body)
		if err != nil {
			return value{}, &filterError{pos, fmt.Sprintf("%q is not hex binary", body)}
		}
		return value{k: kBinary, s: string(b)}, nil
	}
	return value{}, &filterError{pos, fmt.Sprintf("unknown literal type %q", word)}
}
