package emulator

import (
	"bytes"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// parseBody validates an entity body: keys (when present) are strings,
// property names are valid C# identifiers of at most 255 characters,
// values are of their types and read into the forms the service stores
// (readValue), Strings and Binaries are within 64 KiB, and there are at
// most 252 properties; the checks run in name
// order, so the first error is the same from run to run. System
// properties (Timestamp, odata.*) are dropped. The entity's size is for
// checkEntity, which knows the keys of every request form.
func parseBody(body []byte) (pk, rk string, keyed bool, props []store.Prop, err *apiError) {
	m, ok := jsontext.ScanObject(body) // as json.Unmarshal into a map[string]json.RawMessage
	defer m.Release()
	if !ok {
		return "", "", false, nil, invalidInput("The request body is not a JSON object.")
	}
	var hasPK, hasRK bool
	if pk, hasPK, err = bodyKey(m, "PartitionKey"); err != nil {
		return
	}
	if rk, hasRK, err = bodyKey(m, "RowKey"); err != nil {
		return
	}
	if props, err = bodyProps(m); err != nil {
		return "", "", false, nil, err
	}
	return pk, rk, hasPK && hasRK, props, nil
}

// bodyKey reads a key of body m: false when it has none or a null one,
// an error when it is not a string.
func bodyKey(m jsontext.Object, name string) (string, bool, *apiError) {
	raw, ok := m.Get(name, "")
	if !ok || isNull(raw) {
		return "", false, nil
	}
	s, ok := jsontext.StringValue(raw)
	if !ok {
		return "", false, invalidInput("%s must be a string.", name)
	}
	return s, true, nil
}

// systemMember reports whether a body member is not a property: a key,
// the Timestamp, an OData annotation of the entity (odata.*) or a
// property's annotation (NAME@TERM: odata.type is read, others are
// ignored). An @ that begins or ends a name annotates nothing: such a
// name is a property's, which no identifier is (PropertyNameInvalid).
// JSON Light's rules as OData .NET Libraries 5.x read them
// (ODataJsonLightDeserializer.TryParsePropertyAnnotation).
func systemMember(name string) bool {
	if name == "PartitionKey" || name == "RowKey" || name == "Timestamp" || strings.HasPrefix(name, "odata.") {
		return true
	}
	at := strings.IndexByte(name, '@')
	return at > 0 && at < len(name)-1
}

// bodyProps reads and checks the properties of body m, in name order.
func bodyProps(m jsontext.Object) ([]store.Prop, *apiError) {
	n := 0
	for _, mb := range m.Members {
		if !systemMember(mb.Name) {
			n++
		}
	}
	if n > maxProperties {
		return nil, errTooManyProperties
	}
	props := make([]store.Prop, 0, n)
	for k, mb := range m.Members { // in name order
		if systemMember(mb.Name) {
			continue
		}
		p, null, err := bodyProp(m, k)
		if err != nil {
			return nil, err
		}
		if !null {
			props = append(props, p)
		}
	}
	return props, nil
}

// bodyProp reads and checks property k of body m, with its type
// annotation; null reports a null value, which is no property.
func bodyProp(m jsontext.Object, k int) (p store.Prop, null bool, err *apiError) {
	name, raw := m.Members[k].Name, m.Members[k].Raw
	if e := checkPropertyName(name); e != nil {
		return p, false, e
	}
	if isNull(raw) {
		return p, true, nil
	}
	typ := ""
	if t, ok := m.After(k, "@odata.type"); ok {
		if typ, ok = typeValue(t); !ok {
			return p, false, invalidInput("The type annotation of %q is not a string.", name)
		}
	}
	raw, typ, e := readValue(raw, typ)
	if e != nil {
		return p, false, invalidInput("The value of property %q is invalid: %s.", name, e.Error())
	}
	p = store.Prop{Name: name, Raw: raw, Type: typ} // a scalar: compact already
	return p, false, checkValueSize(p)
}

// isNull reports whether a JSON value is null.
func isNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// errNeedsKeys refuses an entity without a PartitionKey or a RowKey, or
// with a null one (REST "Table service error codes").
var errNeedsKeys = &apiError{400, "PropertiesNeedValue", "Values have not been specified for all properties in the entity."}

// parseEntity is parseBody for a body that must name its keys: an
// insert's, or an upsert's that Load takes.
func parseEntity(body []byte) (pk, rk string, props []store.Prop, err *apiError) {
	p, r, keyed, props, err := parseBody(body)
	switch {
	case err != nil:
		return "", "", nil, err
	case !keyed:
		return "", "", nil, errNeedsKeys
	}
	return p, r, props, nil
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
