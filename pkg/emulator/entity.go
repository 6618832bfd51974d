package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Azure's entity limits.
const (
	maxEntityBytes = 1 << 20
	maxProperties  = 252 // 255 including PartitionKey, RowKey and Timestamp
	maxKeyBytes    = 1024
)

// entity is one stored row. props is the JSON fragment of its properties
// (`"A":1,"B":"x","B@odata.type":"Edm.Guid"`), sorted by name, without the
// system properties; it is parsed only when a filter, projection or merge
// needs it, which keeps a million entities cheap to hold.
type entity struct {
	pk, rk string
	props  []byte
	ts     time.Time
}

// prop is one property of a request body or of a stored entity.
type prop struct {
	name string
	raw  json.RawMessage
	typ  string // Edm type annotation, "" when implied by the JSON value
}

// parseBody validates an entity body: keys (when present) are strings,
// property names are valid, annotated types match their values, the entity
// is at most 1 MiB with at most 252 properties. System properties
// (Timestamp, odata.*) are dropped.
func parseBody(body []byte) (pk, rk *string, props []prop, err *apiError) {
	if len(body) > maxEntityBytes {
		return nil, nil, nil, errEntityTooLarge
	}
	var m map[string]json.RawMessage
	if e := json.Unmarshal(body, &m); e != nil {
		return nil, nil, nil, invalidInput("The request body is not a JSON object.")
	}
	key := func(name string) (*string, *apiError) {
		raw, ok := m[name]
		if !ok {
			return nil, nil
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, invalidInput("%s must be a string.", name)
		}
		return &s, nil
	}
	if pk, err = key("PartitionKey"); err != nil {
		return
	}
	if rk, err = key("RowKey"); err != nil {
		return
	}
	for name, raw := range m {
		if name == "PartitionKey" || name == "RowKey" || name == "Timestamp" || strings.HasPrefix(name, "odata.") || strings.Contains(name, "@") {
			continue
		}
		if !validPropertyName(name) {
			return nil, nil, nil, invalidInput("The property name %q is invalid.", name)
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		typ := ""
		if t, ok := m[name+"@odata.type"]; ok {
			if json.Unmarshal(t, &typ) != nil {
				return nil, nil, nil, invalidInput("The type annotation of %q is not a string.", name)
			}
		}
		if e := checkValue(raw, typ); e != nil {
			return nil, nil, nil, invalidInput("The value of property %q is invalid: %s.", name, e.Error())
		}
		props = append(props, prop{name: name, raw: compact(raw), typ: typ})
	}
	if len(props) > maxProperties {
		return nil, nil, nil, errTooManyProperties
	}
	sort.Slice(props, func(i, j int) bool { return props[i].name < props[j].name })
	return pk, rk, props, nil
}

func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func validPropertyName(n string) bool {
	if n == "" || len(n) > 255 {
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

// checkValue checks that a JSON value fits its Edm type annotation.
func checkValue(raw json.RawMessage, typ string) error {
	var s string
	isString := json.Unmarshal(raw, &s) == nil
	switch typ {
	case "", "Edm.String":
		if typ == "Edm.String" && !isString {
			return valueError("Edm.String needs a string")
		}
		if !isString {
			var v any
			if json.Unmarshal(raw, &v) != nil {
				return valueError("not JSON")
			}
			switch v.(type) {
			case float64, bool:
			default:
				return valueError("objects and arrays are not property values")
			}
		}
	case "Edm.Int64":
		if _, err := strconv.ParseInt(s, 10, 64); !isString || err != nil {
			return valueError("Edm.Int64 needs a string of digits")
		}
	case "Edm.Int32":
		var n int64
		if json.Unmarshal(raw, &n) != nil || n < -1<<31 || n >= 1<<31 {
			return valueError("Edm.Int32 needs a 32-bit integer")
		}
	case "Edm.Double":
		var f float64
		if json.Unmarshal(raw, &f) != nil && !(isString && (s == "NaN" || s == "Infinity" || s == "-Infinity")) {
			return valueError("Edm.Double needs a number")
		}
	case "Edm.Boolean":
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return valueError("Edm.Boolean needs true or false")
		}
	case "Edm.DateTime":
		if _, err := parseTime(s); !isString || err != nil {
			return valueError("Edm.DateTime needs an ISO 8601 time")
		}
	case "Edm.Guid":
		if !isString || !validGUID(s) {
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

func parseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

func validGUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// fragment serialises properties in stored form: the minimal-metadata
// JSON members, with the type annotations Azure writes (none for String,
// Boolean, Int32 and Double, whose JSON values imply them).
func fragment(props []prop) []byte {
	var b []byte
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendProp(b, p)
	}
	return b
}

// appendProp appends one property and its type annotation, when needed.
func appendProp(b []byte, p prop) []byte {
	b = appendJSONString(b, p.name)
	b = append(b, ':')
	b = append(b, p.raw...)
	if p.typ != "" && p.typ != "Edm.String" && p.typ != "Edm.Boolean" && p.typ != "Edm.Int32" {
		b = append(b, ',')
		b = appendJSONString(b, p.name+"@odata.type")
		b = append(b, ':')
		b = appendJSONString(b, p.typ)
	}
	return b
}

// properties parses a stored fragment back into properties.
func (e *entity) properties() []prop {
	if len(e.props) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(append(append([]byte{'{'}, e.props...), '}'), &m) != nil {
		return nil
	}
	out := make([]prop, 0, len(m))
	for name, raw := range m {
		if strings.Contains(name, "@") {
			continue
		}
		p := prop{name: name, raw: raw}
		if t, ok := m[name+"@odata.type"]; ok {
			_ = json.Unmarshal(t, &p.typ)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

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
func (e *entity) etag() string {
	return `W/"datetime'` + strings.ReplaceAll(e.ts.UTC().Format(timeLayout), ":", "%3A") + `'"`
}
