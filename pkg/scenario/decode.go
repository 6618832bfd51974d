package scenario

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tablestress/tablestress/pkg/textfit"
)

// pos is a 1-based line and column in the scenario file.
type pos struct{ line, col int }

// positions maps a field path ("workload.mix[2].rows") to where its value is.
type positions map[string]pos

// decoder walks a yaml.Node tree into typed structs, strictly: unknown fields,
// wrong types and malformed values are collected as errors with their
// position instead of stopping at the first one.
type decoder struct {
	file   string
	pos    positions
	quoted map[string]bool // paths whose scalar was written in quotes
	errs   []error
}

func (d *decoder) errorf(n *yaml.Node, path, format string, a ...any) {
	d.errs = append(d.errs, &Error{File: d.file, Line: n.Line, Col: n.Column, Path: path, Msg: fmt.Sprintf(format, a...)})
}

var (
	scalarType    = reflect.TypeOf((*scalar)(nil)).Elem()
	fieldsType    = reflect.TypeOf(Fields(nil))
	thresholdType = reflect.TypeOf(Threshold{})
)

// decode fills v (addressable) from n; path names v for errors.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	d.pos[path] = pos{n.Line, n.Column}
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		d.quoted[path] = true
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // "key:" with no value keeps the default
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), path)
		return
	}
	if v.Addr().Type().Implements(scalarType) {
		if n.Kind != yaml.ScalarNode {
			d.errorf(n, path, "expected a single value (like 20, 30s or a word), found %s: write it on the key's line", kindName(n))
			return
		}
		if err := v.Addr().Interface().(scalar).parseScalar(n.Value); err != nil {
			d.errorf(n, path, "%v", err)
		}
		return
	}
	switch v.Type() {
	case fieldsType:
		d.decodeFields(n, v, path)
		return
	case carriesType:
		d.decodeCarries(n, v, path)
		return
	case picksType:
		d.decodePicks(n, v, path)
		return
	}
	if v.Type() == thresholdType && n.Kind == yaml.ScalarNode {
		v.Field(0).SetString(n.Value) // the short form: just the expression
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.decodeStruct(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.errorf(n, path, "expected a list (- item lines or [a, b]), found %s", kindName(n))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			d.decode(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	default:
		d.decodeBasic(n, v, path)
	}
}

// decodeBasic decodes strings, numbers and booleans.
func (d *decoder) decodeBasic(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, path, "expected a single value (like 20, 30s or a word), found %s: write it on the key's line", kindName(n))
		return
	}
	text := n.Value
	switch v.Kind() {
	case reflect.String:
		v.SetString(text)
	case reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil || n.Tag != "!!bool" {
			d.errorf(n, path, "%q is not a boolean; write true or false", text)
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		i, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 10, 64)
		if err != nil || v.OverflowInt(i) {
			d.numberError(n, path, "%q is not a whole number; write one like 20 or 20000", text)
			return
		}
		v.SetInt(i)
	case reflect.Uint64:
		u, err := strconv.ParseUint(strings.ReplaceAll(text, "_", ""), 10, 64)
		if err != nil {
			d.numberError(n, path, "%q is not a whole number >= 0; write one like 42", text)
			return
		}
		v.SetUint(u)
	case reflect.Float64:
		f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
		if err != nil {
			d.numberError(n, path, "%q is not a number; write one like 2 or 0.5", text)
			return
		}
		v.SetFloat(f)
	default:
		d.errorf(n, path, "cannot decode into %s", v.Type())
	}
}

// numberError reports a value that is not a number: how to write it without
// thousands separators when it has them, else format's message.
func (d *decoder) numberError(n *yaml.Node, path, format, text string) {
	if fix := separatorFix(text, false); fix != "" {
		d.errorf(n, path, "%s", fix)
		return
	}
	d.errorf(n, path, format, text)
}

// decodeStruct decodes a mapping into a struct by yaml tags, reporting unknown
// and repeated keys.
func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) {
	fields := yamlFields(v.Type())
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "expected a mapping with keys such as %s, found %s", strings.Join(sortedKeys(fields), ", "), kindName(n))
		return
	}
	seen := map[string]int{}
	skip := d.cutValues(n, path)
	if n.Style&yaml.FlowStyle != 0 {
		d.cutNumbers(n, path, skip, countFields(v.Type()))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if skip[i] {
			continue
		}
		k, val := n.Content[i], n.Content[i+1]
		name := k.Value
		sub := join(path, name)
		if line, dup := seen[name]; dup {
			d.errorf(k, sub, "%q is given twice (first on line %d): keep one", name, line)
			continue
		}
		seen[name] = k.Line
		idx, ok := fields[name]
		if !ok {
			d.errorf(k, sub, "unknown field %q in %s; %s", name, describe(path), suggest(name, fields))
			continue
		}
		d.decode(val, v.Field(idx), sub)
	}
}

// cutValues finds the values of a flow mapping ({a: b, c: d}) that a comma
// cut short: in flow style a comma ends a plain value, so
// {distribution: hotspot(0.2,0.8)} reads as distribution "hotspot(0.2" and
// a key "0.8)". It reports each once, with the value quoted as it should
// be, and returns the indexes of the keys and values not to decode (none,
// an empty set, for a block mapping).
func (d *decoder) cutValues(n *yaml.Node, path string) map[int]bool {
	skip := map[int]bool{}
	if n.Style&yaml.FlowStyle == 0 {
		return skip
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		open := strings.Count(val.Value, "(") - strings.Count(val.Value, ")")
		if val.Kind != yaml.ScalarNode || val.Style != 0 || open <= 0 {
			continue
		}
		whole := val.Value
		j := i + 2
		for ; open > 0 && j+1 < len(n.Content); j += 2 {
			part := n.Content[j].Value
			if v := n.Content[j+1]; v.Tag != "!!null" {
				part += ": " + v.Value
			}
			whole += "," + part
			open += strings.Count(part, "(") - strings.Count(part, ")")
			skip[j] = true
		}
		skip[i] = true
		d.errorf(val, join(path, k.Value), "%q was cut at a comma: inside {...} a comma ends a value, so quote it: %s: \"%s\"", val.Value, k.Value, whole)
		i = j - 2
	}
	return skip
}

// decodeFields decodes the population's fields mapping, keeping file order.
func (d *decoder) decodeFields(n *yaml.Node, v reflect.Value, path string) {
	var out Fields
	d.eachKey(n, path, "expected a mapping of field names to field definitions, found %s: write it like fields: {device: {kind: id, count: 50}}",
		"field %q is declared twice (first on line %d): rename or remove one", func(k, val *yaml.Node, sub string) {
			f := Field{Name: k.Value}
			d.decode(val, reflect.ValueOf(&f).Elem(), sub)
			out = append(out, f)
		})
	v.Set(reflect.ValueOf(out))
}

// eachKey calls f for every key of mapping n in file order, once per key
// (a repeated key is reported with dup, which formats the key and the
// line it was first given on), noting each key's position; notMapping
// formats the kind of node found when n is not a mapping.
func (d *decoder) eachKey(n *yaml.Node, path, notMapping, dup string, f func(k, val *yaml.Node, sub string)) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, notMapping, kindName(n))
		return
	}
	seen := map[string]int{}
	skip := d.cutValues(n, path)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if skip[i] {
			continue
		}
		k, val := n.Content[i], n.Content[i+1]
		sub := join(path, k.Value)
		if line, ok := seen[k.Value]; ok {
			d.errorf(k, sub, dup, k.Value, line)
			continue
		}
		seen[k.Value] = k.Line
		d.pos[sub+".@key"] = pos{k.Line, k.Column}
		f(k, val, sub)
	}
}

// yamlFields maps yaml key names to struct field indexes.
func yamlFields(t reflect.Type) map[string]int {
	m := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			m[name] = i
		}
	}
	return m
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func describe(path string) string {
	if path == "" {
		return "the scenario"
	}
	return path
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// suggest names the closest known key, or lists them all.
func suggest(name string, fields map[string]int) string {
	if best := textfit.Closest(name, sortedKeys(fields)); best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return "known fields: " + strings.Join(sortedKeys(fields), ", ")
}
