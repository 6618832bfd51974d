package store

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// Prop is one property of a request body or of a stored entity: its
// name, its JSON value as the client sent it, and its type annotation.
type Prop struct {
	Name string
	Raw  json.RawMessage
	Type string // Edm type annotation, "" when implied by the JSON value
}

// Annotated reports whether a property's type must be written out:
// whether its JSON value does not imply it.
func (p Prop) Annotated() bool {
	switch p.Type {
	case "", "Edm.String", "Edm.Boolean", "Edm.Int32":
		return false
	case "Edm.Double":
		return !bytes.ContainsAny(p.Raw, ".eE") // a whole number or NaN/Infinity
	}
	return true
}

// AppendProp appends one property, after its type annotation when needed.
func AppendProp(b []byte, p Prop) []byte {
	if p.Annotated() {
		b = jsontext.AppendString(b, p.Name+"@odata.type")
		b = append(b, ':')
		b = jsontext.AppendString(b, p.Type)
		b = append(b, ',')
	}
	b = jsontext.AppendString(b, p.Name)
	b = append(b, ':')
	return append(b, p.Raw...)
}

// Merge overlays props on the entity's properties.
func Merge(old, props []Prop) []Prop {
	byName := map[string]Prop{}
	for _, p := range old {
		byName[p.Name] = p
	}
	for _, p := range props {
		byName[p.Name] = p
	}
	out := make([]Prop, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// fragmentLen is len(fragment(props)), computed without writing it.
func fragmentLen(props []Prop) int {
	n := max(len(props)-1, 0) // commas
	for _, p := range props {
		name := jsontext.StringLen(p.Name)
		if p.Annotated() {
			n += name + len("@odata.type") + 1 + jsontext.StringLen(p.Type) + 1
		}
		n += name + 1 + len(p.Raw)
	}
	return n
}
