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
func parseBody(body []byte) (pk, rk *string, props []prop, err *apiError) {
	m, ok := scanObject(body)
	if !ok {
		return nil, nil, nil, invalidInput("The request body is not a JSON object.")
	}
	key := func(name string) (*string, *apiError) {
		raw, ok := m.get(name, "")
		if !ok {
			return nil, nil
		}
		s, ok := jsonString(raw)
		if !ok {
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
	names := make([]string, 0, len(m))
	for _, mb := range m { // sorted by name
		if name := mb.name; name != "PartitionKey" && name != "RowKey" && name != "Timestamp" && !strings.HasPrefix(name, "odata.") && !strings.Contains(name, "@") {
			names = append(names, name)
		}
	}
	if len(names) > maxProperties {
		return nil, nil, nil, errTooManyProperties
	}
	props = make([]prop, 0, len(names))
	for _, name := range names {
		raw, _ := m.get(name, "")
		if e := checkPropertyName(name); e != nil {
			return nil, nil, nil, e
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		typ := ""
		if t, ok := m.get(name, "@odata.type"); ok {
			if typ, ok = jsonString(t); !ok {
				return nil, nil, nil, invalidInput("The type annotation of %q is not a string.", name)
			}
		}
		if e := checkValue(raw, typ); e != nil {
			return nil, nil, nil, invalidInput("The value of property %q is invalid: %s.", name, e.Error())
		}
		if typ == "Edm.Double" {
			if s, isString := unquote(raw); isString && numericString(s) {
				raw = json.RawMessage(s) // "2" as the JavaScript SDK sends a whole Double: the number
			}
		}
		p := prop{name: name, raw: raw, typ: typ} // a scalar: compact already
		if e := checkValueSize(p); e != nil {
			return nil, nil, nil, e
		}
		props = append(props, p)
	}
	return pk, rk, props, nil
}

// parseEntity is parseBody for a body that must name its keys: an
// insert's, or an upsert's that Load takes.
func parseEntity(body []byte) (pk, rk string, props []prop, err *apiError) {
	p, r, props, err := parseBody(body)
	switch {
	case err != nil:
		return "", "", nil, err
	case p == nil || r == nil:
		return "", "", nil, invalidInput("The entity must have a PartitionKey and a RowKey.")
	}
	return *p, *r, props, nil
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
	isString := len(raw) > 0 && raw[0] == '"'
	s := ""
	switch typ {
	case "", "Edm.String": // the value itself is not needed
	default:
		s, _ = unquote(raw)
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

// numericString reports whether s is a JSON number: a Double the way the
// JavaScript SDK writes one with a whole value ("2").
func numericString(s string) bool {
	return s != "" && json.Valid([]byte(s)) && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
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
