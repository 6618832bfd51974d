package store

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// Get returns a property's value for a filter (filter.Row), reading only
// the properties the filter names from the entity's compact form; a
// *Entity is one pointer, so passing it as a row does not allocate.
func (e *Entity) Get(name string) (filter.Value, bool) {
	switch name {
	case "PartitionKey":
		return filter.Value{Kind: filter.String, S: e.pk}, true
	case "RowKey":
		return filter.Value{Kind: filter.String, S: e.rk}, true
	case "Timestamp":
		return filter.Value{Kind: filter.Time, T: e.Time()}, true
	}
	if strings.Contains(name, "@") {
		return filter.Value{}, false // annotations are not properties
	}
	return e.lookup(name)
}

// lookup returns a property's value as typedValue gives it for the
// property's JSON and annotation, without decoding the other properties.
// A String's value is a copy; the common kinds are read without JSON.
func (e *Entity) lookup(name string) (filter.Value, bool) {
	pr := propReader{b: e.props, nm: e.names}
	for {
		n, tag, val, ok := pr.next()
		if !ok {
			return filter.Value{}, false
		}
		if n != name {
			continue
		}
		switch tag {
		case tagString, tagEscaped:
			return filter.Value{Kind: filter.String, S: string(val)}, true
		case tagTrue, tagFalse:
			return filter.Value{Kind: filter.Bool, B: tag == tagTrue}, true
		case tagInt:
			i, _ := binary.Varint(val)
			return intValue(i), true
		case tagInt64:
			i, _ := binary.Varint(val)
			return filter.Value{Kind: filter.Int64, I: i}, true
		}
		var buf [64]byte
		return typedValue(appendValueJSON(buf[:0], tag, val), typeOf(tag, val))
	}
}

// typedValue converts a stored JSON value with its annotation.
func typedValue(raw []byte, typ string) (filter.Value, bool) {
	s, isString := jsontext.Unquote(raw)
	switch typ {
	case "Edm.Int64":
		n, err := strconv.ParseInt(s, 10, 64)
		return filter.Value{Kind: filter.Int64, I: n}, isString && err == nil
	case "Edm.DateTime":
		t, err := edm.ParseTime(s)
		return filter.Value{Kind: filter.Time, T: t}, isString && err == nil
	case "Edm.Guid":
		return filter.Value{Kind: filter.GUID, S: strings.ToLower(s)}, isString
	case "Edm.Binary":
		b, err := base64.StdEncoding.DecodeString(s)
		return filter.Value{Kind: filter.Binary, S: string(b)}, isString && err == nil
	case "Edm.Double":
		if isString { // NaN, Infinity, -Infinity
			f, err := strconv.ParseFloat(s, 64)
			return filter.Value{Kind: filter.Double, F: f}, err == nil
		}
	}
	switch {
	case isString:
		return filter.Value{Kind: filter.String, S: s}, true
	case bytes.Equal(raw, []byte("true")), bytes.Equal(raw, []byte("false")):
		return filter.Value{Kind: filter.Bool, B: raw[0] == 't'}, true
	}
	if typ != "Edm.Double" && !bytes.ContainsAny(raw, ".eE") {
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return intValue(n), true
		}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return filter.Value{Kind: filter.Double, F: f}, err == nil
}

// intValue is the value of an integer written without a type annotation:
// an Int32, or a Double beyond 32 bits, as the service reads a JSON number
// (OData .NET Libraries 5.x, JsonReader: an integer that fits Int32 is an
// Int32, any other number a Double).
func intValue(n int64) filter.Value {
	if n == int64(int32(n)) {
		return filter.Value{Kind: filter.Int32, I: n}
	}
	return filter.Value{Kind: filter.Double, F: float64(n)}
}
