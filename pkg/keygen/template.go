package keygen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Template is a compiled key template: literal text with {expr} and
// {expr:format} placeholders, "{{" and "}}" for literal braces.
//
//	{device}                  a field in its default form ("dev-0042")
//	{seq:08} {seq:d8} {n:x4}  a number zero-padded (decimal or hex)
//	{time:yyyy-MM-dd}         the event time in a .NET or Go layout, or year|month|day|hour|minute|second
//	{inverted_ticks}          a built-in (see BuiltinFields)
//	{hash(order) % 16:03}     FNV-1a 64 of the rendered value, modulo 16, zero-padded to 3
//	{customer % 10}           a numeric value modulo 10
//	{tenant:lower}            a string value lower- or upper-cased
//
// A Template is immutable and safe for concurrent use.
type Template struct {
	src     string
	parts   []part
	offsets []int // byte offset of each part in src
	refs    []string
}

// TemplateError locates a template problem: Offset is the byte offset in the
// template where it starts.
type TemplateError struct {
	Template string
	Offset   int
	Msg      string
	Err      error // the underlying error, such as a *KeyError, or nil
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("template %q at offset %d: %s", e.Template, e.Offset, e.Msg)
}

// Unwrap makes every TemplateError match ErrTemplate, and the underlying
// error when there is one.
func (e *TemplateError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrTemplate, e.Err}
	}
	return []error{ErrTemplate}
}

// Compile parses a template over the population's fields and the built-ins.
// It reports every problem of the template, each a *TemplateError (joined
// with errors.Join when there are several).
func (p *Population) Compile(src string) (*Template, error) {
	t := &Template{src: src}
	var errs []error
	var lit strings.Builder
	litStart := 0
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, literal(lit.String()))
			t.offsets = append(t.offsets, litStart)
			lit.Reset()
		}
	}
	addLit := func(at int, c byte) {
		if lit.Len() == 0 {
			litStart = at
		}
		lit.WriteByte(c)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '{' && i+1 < len(src) && src[i+1] == '{':
			addLit(i, '{')
			i++
		case c == '}' && i+1 < len(src) && src[i+1] == '}':
			addLit(i, '}')
			i++
		case c == '}':
			errs = append(errs, &TemplateError{Template: src, Offset: i, Msg: "unmatched '}' (write }} for a literal brace)"})
		case c == '{':
			end := strings.IndexByte(src[i:], '}')
			if end < 0 {
				errs = append(errs, &TemplateError{Template: src, Offset: i, Msg: "unclosed '{' (write {{ for a literal brace)"})
				return nil, errors.Join(errs...)
			}
			flush()
			pt, ref, err := p.compilePlaceholder(src[i+1 : i+end])
			if err != nil {
				errs = append(errs, &TemplateError{Template: src, Offset: i, Msg: err.Error()})
				i += end
				continue
			}
			t.parts = append(t.parts, pt)
			t.offsets = append(t.offsets, i)
			t.refs = append(t.refs, ref)
			i += end
		default:
			addLit(i, c)
		}
	}
	flush()
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return t, nil
}

// compilePlaceholder compiles the inside of one {...}.
func (p *Population) compilePlaceholder(body string) (part, string, error) {
	expr, format, _ := strings.Cut(body, ":")
	format = strings.TrimSpace(format)
	expr = strings.TrimSpace(expr)
	term, modText, hasMod := strings.Cut(expr, "%")
	term = strings.TrimSpace(term)
	var mod int64
	if hasMod {
		m, err := strconv.ParseInt(strings.TrimSpace(modText), 10, 64)
		if err != nil || m < 1 {
			return nil, "", fmt.Errorf("the modulus in %q must be a whole number >= 1, like %% 16", expr)
		}
		mod = m
	}
	hashed := false
	if strings.HasPrefix(term, "hash(") {
		if !strings.HasSuffix(term, ")") {
			return nil, "", fmt.Errorf("%q: hash needs one field in parentheses, like hash(order)", term)
		}
		term = strings.TrimSpace(term[len("hash(") : len(term)-1])
		hashed = true
		if !hasMod {
			return nil, "", fmt.Errorf("hash(%s) needs a modulus, like {hash(%s) %% 16}", term, term)
		}
	}
	if term == "" {
		return nil, "", fmt.Errorf("empty placeholder; name a field or built-in: %s", p.knownNames())
	}
	src, err := p.resolve(term)
	if err != nil {
		return nil, "", err
	}
	if hashed {
		nf, ok := parseNumFormat(format)
		if !ok {
			return nil, "", fmt.Errorf("%q is not a number format; use 03, d3 or x4", format)
		}
		return hashPart{src: src, mod: mod, nf: nf}, term, nil
	}
	if hasMod {
		if !src.numeric() {
			return nil, "", fmt.Errorf("%s is not numeric: use {hash(%s) %% %d} to bucket it", term, term, mod)
		}
		nf, ok := parseNumFormat(format)
		if !ok {
			return nil, "", fmt.Errorf("%q is not a number format; use 03, d3 or x4", format)
		}
		return modPart{src: src, mod: mod, nf: nf}, term, nil
	}
	pt, err := src.withFormat(format)
	return pt, term, err
}

// Append renders the template for e onto dst.
func (t *Template) Append(dst []byte, e *Entity) []byte {
	for _, pt := range t.parts {
		dst = pt.appendTo(dst, e)
	}
	return dst
}

// Render returns the template for e as a string.
func (t *Template) Render(e *Entity) string { return string(t.Append(nil, e)) }

// String returns the template source.
func (t *Template) String() string { return t.src }

// Refs returns the fields and built-ins the template uses, in order.
func (t *Template) Refs() []string { return t.refs }

// Constant reports whether the template renders the same key for every entity.
func (t *Template) Constant() bool { return len(t.refs) == 0 }

// checkChars validates, part by part, every representative output of the
// template against the key rules, so a literal '/' or a choice value with a
// '#' is reported at its offset in the template.
func (t *Template) checkChars() error {
	var errs []error
	for k, pt := range t.parts {
		for _, out := range pt.outputs() {
			if err := ValidateKey([]byte(out)); err != nil {
				var ke *KeyError
				msg := err.Error()
				if errors.As(err, &ke) {
					msg = ke.Reason
					if ke.Key != out || len(pt.outputs()) > 1 {
						msg = fmt.Sprintf("can generate %q: %s", clip(ke.Key, 60), ke.Reason)
					}
				}
				errs = append(errs, &TemplateError{Template: t.src, Offset: t.offsets[k], Msg: msg, Err: err})
				break
			}
		}
	}
	return errors.Join(errs...)
}

func (p *Population) knownNames() string {
	names := append([]string{}, p.Fields()...)
	return strings.Join(append(names, BuiltinFields...), ", ")
}
