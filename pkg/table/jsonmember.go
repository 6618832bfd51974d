package table

import "github.com/tablestress/tablestress/internal/jsontext"

// stringMember returns the string value of the top-level member name of
// the object obj (the last one, as encoding/json keeps), false when it is
// missing or not a string, or obj is malformed. Names are compared as written.
func stringMember(obj []byte, name string) (string, bool) {
	m := jsontext.Members(obj)
	var val []byte
	for {
		n, v, ok := m.Next()
		if !ok {
			break
		}
		if string(n) == name {
			val = v
		}
	}
	if m.Bad() || len(val) < 2 || val[0] != '"' {
		return "", false
	}
	return jsontext.Decode(val)
}

// EntityKeys returns the PartitionKey and RowKey of an entity's JSON (for
// instance one of a query Page); ok is false when either is missing or not
// a string, or the text is not a well-formed object. Names are compared as
// written (aztables writes them plainly).
func EntityKeys(entity []byte) (pk, rk string, ok bool) {
	m := jsontext.Members(entity)
	var rawPK, rawRK []byte
	for {
		n, v, more := m.Next()
		if !more {
			break
		}
		switch string(n) {
		case "PartitionKey":
			rawPK = v
		case "RowKey":
			rawRK = v
		}
	}
	if m.Bad() || len(rawPK) < 2 || rawPK[0] != '"' || len(rawRK) < 2 || rawRK[0] != '"' {
		return "", "", false
	}
	pk, ok1 := jsontext.Decode(rawPK)
	rk, ok2 := jsontext.Decode(rawRK)
	return pk, rk, ok1 && ok2
}

// StringProperties returns the string values of the named top-level
// properties of an entity's JSON in one pass ("" for a missing one or one
// that is not a string); ok is false when the text is not a well-formed
// object.
func StringProperties(entity []byte, names ...string) (vals []string, ok bool) {
	vals = make([]string, len(names))
	m := jsontext.Members(entity)
	for {
		n, v, more := m.Next()
		if !more {
			break
		}
		for k, name := range names {
			if string(n) == name && len(v) >= 2 && v[0] == '"' {
				vals[k], _ = jsontext.Decode(v)
			}
		}
	}
	return vals, !m.Bad()
}
