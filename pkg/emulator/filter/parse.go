package filter

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// filterError locates a syntax error.
type filterError struct {
	pos int
	msg string
}

func (e *filterError) Error() string { return fmt.Sprintf("$filter at %d: %s", e.pos, e.msg) }

type token struct {
	kind string // ident, lit, op, (, ), eof
	text string
	lit  Value
	pos  int
}

type parser struct {
	toks []token
	i    int
}

// Parse parses a $filter expression; an empty one matches everything.
func Parse(s string) (Node, error) {
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

func (p *parser) or() (Node, error) {
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

func (p *parser) and() (Node, error) {
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

func (p *parser) unary() (Node, error) {
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

func (p *parser) comparison() (Node, error) {
	a := p.next()
	if a.kind != "ident" && a.kind != "lit" {
		return nil, &filterError{a.pos, fmt.Sprintf("expected a property name or a Value, found %q", a.text)}
	}
	op := p.peek()
	if op.kind != "ident" || !comparisonOps[strings.ToLower(op.text)] {
		switch {
		case a.kind == "ident":
			return boolProp{a.text}, nil // a Boolean property on its own
		case a.lit.Kind == Bool:
			return boolLit(a.lit.B), nil // true or false on its own
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

// tokenize splits a filter into tokens, ending with an "eof" token.
func tokenize(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		var t token
		n, err := i+1, error(nil)
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '(' || c == ')':
			t = token{kind: string(c), text: string(c), pos: i}
		case c == '\'':
			var str string
			if str, n, err = quoted(s, i); err == nil {
				t = token{kind: "lit", text: s[i:n], lit: Value{Kind: String, S: str}, pos: i}
			}
		case c == '-' || (c >= '0' && c <= '9'):
			t, n, err = numberToken(s, i)
		case isIdentByte(c, true):
			t, n, err = wordToken(s, i)
		default:
			err = &filterError{i, fmt.Sprintf("unexpected character %q", c)}
		}
		if err != nil {
			return nil, err
		}
		out, i = append(out, t), n
	}
	return append(out, token{kind: "eof", text: "end of filter", pos: len(s)}), nil
}

// numberToken reads the number literal at s[i] and returns its token and
// the index after it.
func numberToken(s string, i int) (token, int, error) {
	j := i + 1
	for j < len(s) && strings.IndexByte("0123456789.eE+-", s[j]) >= 0 {
		if (s[j] == '+' || s[j] == '-') && s[j-1] != 'e' && s[j-1] != 'E' {
			break
		}
		j++
	}
	v, n, err := number(s, i, j)
	return token{kind: "lit", text: s[i:j], lit: v, pos: i}, n, err
}

// wordToken reads the word at s[i]: a typed literal (datetime'...'), a
// Boolean literal, or an identifier (a property name, a keyword), and
// returns its token and the index after it.
func wordToken(s string, i int) (token, int, error) {
	j := i + 1
	for j < len(s) && isIdentByte(s[j], false) {
		j++
	}
	word := s[i:j]
	if j < len(s) && s[j] == '\'' {
		str, n, err := quoted(s, j)
		if err != nil {
			return token{}, 0, err
		}
		v, err := typedLiteral(word, str, i)
		return token{kind: "lit", text: s[i:n], lit: v, pos: i}, n, err
	}
	switch strings.ToLower(word) {
	case "true", "false":
		return token{kind: "lit", text: word, lit: Value{Kind: Bool, B: strings.EqualFold(word, "true")}, pos: i}, j, nil
	case "null":
		// OData's null literal, which Azure refuses in a filter: 400
		// InvalidInput, "One of the request inputs is not valid." (Azure's
		// answer to `myCol eq null`, quoted in Azurite issue #2471).
		return token{}, 0, &filterError{i, "null is not a value the Table service compares"}
	}
	return token{kind: "ident", text: word, pos: i}, j, nil
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

func number(s string, i, j int) (Value, int, error) {
	text := s[i:j]
	if j < len(s) && (s[j] == 'L' || s[j] == 'l') {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return Value{}, 0, &filterError{i, fmt.Sprintf("%q is not an Int64", text)}
		}
		return Value{Kind: Int64, I: n}, j + 1, nil
	}
	if j < len(s) && (s[j] == 'd' || s[j] == 'D' || s[j] == 'f' || s[j] == 'F' || s[j] == 'm' || s[j] == 'M') {
		j++
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return Value{}, 0, &filterError{i, fmt.Sprintf("%q is not a number", text)}
		}
		return Value{Kind: Double, F: f}, j, nil
	}
	if !strings.ContainsAny(text, ".eE") { // an Int32: beyond 32 bits, Azure answers "Unrecognized 'Edm.Int32' literal"
		n, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			return Value{}, 0, &filterError{i, fmt.Sprintf("unrecognized Edm.Int32 literal %q (an Int64 needs the suffix L)", text)}
		}
		return Value{Kind: Int32, I: n}, j, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return Value{}, 0, &filterError{i, fmt.Sprintf("%q is not a number", text)}
	}
	return Value{Kind: Double, F: f}, j, nil
}

func typedLiteral(word, body string, pos int) (Value, error) {
	switch strings.ToLower(word) {
	case "datetime":
		t, err := edm.ParseTime(body) // no zone: UTC
		if err != nil {
			return Value{}, &filterError{pos, fmt.Sprintf("%q is not a datetime", body)}
		}
		return Value{Kind: Time, T: t}, nil
	case "guid":
		if !edm.ValidGUID(body) {
			return Value{}, &filterError{pos, fmt.Sprintf("%q is not a guid", body)}
		}
		return Value{Kind: GUID, S: strings.ToLower(body)}, nil
	case "x", "binary":
		b, err := hex.DecodeString(body)
		if err != nil {
			return Value{}, &filterError{pos, fmt.Sprintf("%q is not hex binary", body)}
		}
		return Value{Kind: Binary, S: string(b)}, nil
	}
	return Value{}, &filterError{pos, fmt.Sprintf("unknown literal type %q", word)}
}
