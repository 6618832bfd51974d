package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// entity is one row: its keys, its properties in compact form (codec.go)
// with the dictionary their names are in, and its write time. A stored
// row is a record in its table's slab (record.go); an entity read from
// the table is a view of that record, valid under the table's lock: what
// outlives the lock is copied out first (keys, a rendered answer). An
// entity built by a write (newEntity) is on the heap until the table
// stores a copy. Entities never change: a write replaces them.
type entity struct {
	pk, rk string
	props  []byte
	names  *names
	ts     int64 // write time, in 100 ns ticks since the Unix epoch
	size   int   // length of the properties' JSON fragment (see bytes)
}

// newEntity makes a row of props (sorted by name), naming them by nm's
// ids (nil: by name).
func newEntity(pk, rk string, props []prop, ts time.Time, nm *names) *entity {
	keys := pk + rk
	e := new(entity)
	fillEntity(e, keys[:len(pk)], keys[len(pk):], props, ts, nm, make([]byte, 0, compactCap(props)))
	return e
}

// fillEntity makes *e the entity newEntity makes, with its keys as they
// are and its properties encoded into buf (grown if it must be), which the
// entity then aliases: for a write that copies the entity into its table
// (table.insert, table.put) and forgets it, nothing is allocated.
func fillEntity(e *entity, pk, rk string, props []prop, ts time.Time, nm *names, buf []byte) {
	*e = entity{pk: pk, rk: rk, props: encodeProps(slices.Grow(buf[:0], compactCap(props)), props, nm), names: nm,
		ts: ts.UnixNano() / 100, size: fragmentLen(props)}
}

// time is the entity's write time (its Timestamp).
func (e *entity) time() time.Time { return edm.TicksTime(e.ts) }

// appendFragment appends the entity's properties as fragment(props)
// writes them: the minimal-metadata JSON members.
func (e *entity) appendFragment(dst []byte) []byte { return appendFragment(dst, e.props, e.names) }

// annotated reports whether the entity's fragment holds a type annotation.
func (e *entity) annotated() bool {
	r := propReader{b: e.props, nm: e.names}
	for {
		_, tag, val, ok := r.next()
		if !ok {
			return false
		}
		if typeOf(tag, val) != "" {
			return true
		}
	}
}

// keys returns an entity of e's keys alone that owns its memory.
func (e *entity) keys() *entity {
	k := e.pk + e.rk
	return &entity{pk: k[:len(e.pk)], rk: k[len(e.pk):]}
}

// prop is one property of a request body or of a stored entity.
type prop struct {
	name string
	raw  json.RawMessage
	typ  string // Edm type annotation, "" when implied by the JSON value
}

// parseBody validates an entity body: keys (when present) are strings,
// property names are valid C# identifiers of at most 255 characters,
// annotated types match their values, Strings and Binaries are within
// 64 KiB, and there are at most 252 properties; the checks run in name
// order, so the first error is the same from run to run. System
// properties (Timestamp, odata.*) are dropped. The entity's size is for
// checkEntity, which knows the keys of every request form.
func parseBody(body []byte) (pk, rk string, keyed bool, props []prop, err *apiError) {
	m, ok := jsontext.ScanObject(body) // as json.Unmarshal into a map[string]json.RawMessage
	defer m.Release()
	if !ok {
		return "", "", false, nil, invalidInput("The request body is not a JSON object.")
	}
	key := func(name string) (string, bool, *apiError) {
		raw, ok := m.Get(name, "")
		if !ok {
			return "", false, nil
		}
		s, ok := jsontext.StringValue(raw)
		if !ok {
			return "", false, invalidInput("%s must be a string.", name)
		}
		return s, true, nil
	}
	var hasPK, hasRK bool
	if pk, hasPK, err = key("PartitionKey"); err != nil {
		return
	}
	if rk, hasRK, err = key("RowKey"); err != nil {
		return
	}
	keyed = hasPK && hasRK
	system := func(name string) bool {
		return name == "PartitionKey" || name == "RowKey" || name == "Timestamp" || strings.HasPrefix(name, "odata.") || strings.IndexByte(name, '@') >= 0
	}
	n := 0
	for _, mb := range m.Members {
		if !system(mb.Name) {
			n++
		}
	}
	if n > maxProperties {
		return "", "", false, nil, errTooManyProperties
	}
	props = make([]prop, 0, n)
	for k, mb := range m.Members { // in name order
		name, raw := mb.Name, mb.Raw
		if system(name) {
			continue
		}
		if e := checkPropertyName(name); e != nil {
			return "", "", false, nil, e
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		typ := ""
		if t, ok := m.After(k, "@odata.type"); ok {
			if typ, ok = typeValue(t); !ok {
				return "", "", false, nil, invalidInput("The type annotation of %q is not a string.", name)
			}
		}
		if e := checkValue(raw, typ); e != nil {
			return "", "", false, nil, invalidInput("The value of property %q is invalid: %s.", name, e.Error())
		}
		if typ == "Edm.Double" {
			if s, isString := jsontext.Unquote(raw); isString && numericString(s) {
				raw = json.RawMessage(s) // "2" as the JavaScript SDK sends a whole Double: the number
			}
		}
		p := prop{name: name, raw: raw, typ: typ} // a scalar: compact already
		if e := checkValueSize(p); e != nil {
			return "", "", false, nil, e
		}
		props = append(props, p)
	}
	return pk, rk, keyed, props, nil
}

// edmTypes are the names of the Edm types, which type annotations carry.
var edmTypes = [...]string{"Edm.String", "Edm.Int64", "Edm.DateTime", "Edm.Int32", "Edm.Double", "Edm.Boolean", "Edm.Guid", "Edm.Binary"}

// typeValue is jsontext.StringValue for a type annotation's value: an Edm
// type's name is not copied out of raw.
func typeValue(raw []byte) (string, bool) {
	if len(raw) > 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		for _, t := range edmTypes {
			if string(raw[1:len(raw)-1]) == t {
				return t, true
			}
		}
	}
	return jsontext.StringValue(raw)
}

// validPropertyName reports whether n is a C# identifier, as Azure wants
// property names.
func validPropertyName(n string) bool {
	if n == "" {
		return false
	}
	for i, c := range n {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c > 127
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

type valueError string

func (e valueError) Error() string { return string(e) }

// checkValue checks that a JSON value fits its Edm type annotation. raw is
// one valid JSON value (the body was decoded already), so its first byte
// tells its kind.
func checkValue(raw json.RawMessage, typ string) error {
	isString, s := len(raw) >= 2 && raw[0] == '"', ""
	if isString && typ != "" && typ != "Edm.String" { // decoded only where the type needs it
		s, isString = jsontext.UnquoteView(raw)
	}
	number := !isString && len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
	boolean := string(raw) == "true" || string(raw) == "false"
	switch typ {
	case "":
		if !isString && !number && !boolean {
			return valueError("objects and arrays are not property values")
		}
	case "Edm.String":
		if !isString {
			return valueError("Edm.String needs a string")
		}
	case "Edm.Int64":
		if _, err := strconv.ParseInt(s, 10, 64); !isString || err != nil {
			return valueError("Edm.Int64 needs a string of digits")
		}
	case "Edm.Int32":
		if _, err := strconv.ParseInt(string(raw), 10, 32); !number || err != nil {
			return valueError("Edm.Int32 needs a 32-bit integer")
		}
	case "Edm.Double":
		if !number && !(isString && (s == "NaN" || s == "Infinity" || s == "-Infinity" || numericString(s))) {
			return valueError("Edm.Double needs a number")
		}
	case "Edm.Boolean":
		if !boolean {
			return valueError("Edm.Boolean needs true or false")
		}
	case "Edm.DateTime":
		if _, err := edm.ParseTime(s); !isString || err != nil {
			return valueError("Edm.DateTime needs an ISO 8601 time")
		}
	case "Edm.Guid":
		if !isString || !edm.ValidGUID(s) {
			return valueError("Edm.Guid needs a GUID")
		}
	case "Edm.Binary":
		if _, err := base64.StdEncoding.DecodeString(s); !isString || err != nil {
			return valueError("Edm.Binary needs base64")
		}
	default:
		return valueError("unknown type " + typ)
	}
	return nil
}

// numericString reports whether s is a JSON number: a Double the way the
// JavaScript SDK writes one with a whole value ("2").
func numericString(s string) bool {
	return s != "" && json.Valid([]byte(s)) && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
}

// appendProp appends one property, after its type annotation when needed.
func appendProp(b []byte, p prop) []byte {
	if annotated(p) {
		b = jsontext.AppendString(b, p.name+"@odata.type")
		b = append(b, ':')
		b = jsontext.AppendString(b, p.typ)
		b = append(b, ',')
	}
	b = jsontext.AppendString(b, p.name)
	b = append(b, ':')
	return append(b, p.raw...)
}

// annotated reports whether a property's type must be written out.
func annotated(p prop) bool {
	switch p.typ {
	case "", "Edm.String", "Edm.Boolean", "Edm.Int32":
		return false
	case "Edm.Double":
		return !bytes.ContainsAny(p.raw, ".eE") // a whole number or NaN/Infinity
	}
	return true
}

// properties returns the entity's properties as parseBody returned the
// stored fragment's members (types as the fragment keeps them). They are
// the entity's own copies.
func (e *entity) properties() []prop { return decodeProps(e.props, e.names) }

// merge overlays props on the entity's properties.
func merge(old, props []prop) []prop {
	byName := map[string]prop{}
	for _, p := range old {
		byName[p.name] = p
	}
	for _, p := range props {
		byName[p.name] = p
	}
	out := make([]prop, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// etag is the entity's ETag, derived from its timestamp as Azure does.
func (e *entity) etag() string { return string(edm.AppendETag(nil, e.ts)) }
