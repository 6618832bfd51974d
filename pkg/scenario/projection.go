package scenario

import (
	"reflect"

	"gopkg.in/yaml.v3"
)

// Carries is what an index table's rows carry besides the pointer to the
// main row: all (a copy of the entity: every field and the payload) or a
// list of fields. A question that wants nothing else reads the index
// rows alone, with no point read back to the main table.
type Carries struct {
	All    bool
	Fields []string
}

// Given reports whether the index carries anything.
func (c Carries) Given() bool { return c.All || len(c.Fields) > 0 }

// Pick is one field a question picks by a law of its own: the value it
// asks for is drawn from the field's values by Law, not taken from the
// entity the request distribution picks.
type Pick struct {
	Field string
	Law   Distribution
}

// Picks are a question's fields picked by their own laws, in file order.
type Picks []Pick

var (
	carriesType = reflect.TypeOf(Carries{})
	picksType   = reflect.TypeOf(Picks(nil))
)

// decodeCarries reads carries: all, or a list of field names.
func (d *decoder) decodeCarries(n *yaml.Node, v reflect.Value, path string) {
	c := Carries{}
	switch {
	case n.Kind == yaml.ScalarNode && n.Value == "all":
		c.All = true
	case n.Kind == yaml.SequenceNode:
		d.decode(n, reflect.ValueOf(&c.Fields).Elem(), path)
	default:
		d.errorf(n, path, "%q: write all (a copy of the entity) or a list of the fields the index rows carry, like [title, kind]", n.Value)
		return
	}
	v.Set(reflect.ValueOf(c))
}

// decodePicks reads a mapping of field names to distributions.
func (d *decoder) decodePicks(n *yaml.Node, v reflect.Value, path string) {
	var out Picks
	d.eachKey(n, path, "expected a mapping of field names to distributions, found %s: write it like pick: {user: uniform}",
		"%q is picked twice (first on line %d): keep one", func(k, val *yaml.Node, sub string) {
			p := Pick{Field: k.Value}
			d.decode(val, reflect.ValueOf(&p.Law).Elem(), sub)
			out = append(out, p)
		})
	v.Set(reflect.ValueOf(out))
}

// projectionSchemas are the JSON Schemas of Carries and Picks.
func projectionSchema(t reflect.Type) (obj, bool) {
	switch t {
	case carriesType:
		return obj{"anyOf": []obj{{"const": "all"}, {"type": "array", "items": obj{"type": "string"}}}}, true
	case picksType:
		return obj{"type": "object", "additionalProperties": scalarSchemas[reflect.TypeOf(Distribution(""))]}, true
	}
	return nil, false
}
