package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// The forms of property values: which JSON the service accepts for each
// Edm type, and the JSON it stores and answers with. The service reads an
// entity with OData .NET Libraries 5.x (DataServiceVersion 3.0, JSON
// Light): a JSON number is an Int32 when it fits one and a Double
// otherwise (JsonReader.ParseNumberPrimitiveValue); a value annotated
// with a type is converted to it (ODataJsonLightReaderUtils.ConvertValue):
// a number to Int32 or Double only, a string to any type — Guid with
// new Guid(string), DateTime with XmlConvert's rules, the others with
// Convert.ChangeType(string, type, CultureInfo.InvariantCulture). It
// writes a Double with its round-trip text (edm.AppendDouble), a Guid in
// lower case with dashes, a DateTime in UTC, an Int64 as a string. See
// docs/conformance.md, R2, R3, R7, R8, R18.

// valueError says why a value does not fit its type.
type valueError string

func (e valueError) Error() string { return string(e) }

// readValue checks a JSON value against its type annotation typ ("" for
// none) and returns it as the service stores it, with the annotation the
// stored value keeps ("" where its JSON implies the type). raw is one
// valid JSON value (the body was scanned already), so its first byte
// tells its kind. A value already in its stored form is returned as it
// is, without allocating.
func readValue(raw json.RawMessage, typ string) (json.RawMessage, string, error) {
	isString := len(raw) >= 2 && raw[0] == '"'
	switch typ {
	case "":
		if isString || string(raw) == "true" || string(raw) == "false" {
			return raw, "", nil
		}
		if !isNumber(raw) {
			return nil, "", valueError("objects and arrays are not property values")
		}
		return readNumber(raw)
	case "Edm.String":
		if !isString {
			return nil, "", valueError("Edm.String needs a string")
		}
		return raw, typ, nil
	case "Edm.Int32", "Edm.Int64", "Edm.Boolean", "Edm.Double":
		if isString {
			return readTypedString(raw, typ)
		}
		return readTypedJSON(raw, typ)
	case "Edm.DateTime", "Edm.Guid", "Edm.Binary":
		if !isString {
			return nil, "", valueError(typ + " needs a string")
		}
		return readTypedString(raw, typ)
	}
	return nil, "", valueError("unknown type " + typ)
}

// isNumber reports whether a JSON value is a number.
func isNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// readNumber reads a JSON number without annotation: an Int32 when it
// fits one, a Double otherwise.
func readNumber(raw json.RawMessage) (json.RawMessage, string, error) {
	if !bytes.ContainsAny(raw, ".eE") { // an integer (a fraction fails ParseInt with an error it allocates)
		if n, err := strconv.ParseInt(string(raw), 10, 32); err == nil {
			return intJSON(raw, n), "", nil
		}
	}
	return readDouble(raw)
}

// readTypedJSON reads a JSON number, true or false annotated typ, one of
// Int32, Int64, Boolean and Double: a number converts to Int32 (when it is
// one) and Double only, true and false to Boolean only.
func readTypedJSON(raw json.RawMessage, typ string) (json.RawMessage, string, error) {
	switch {
	case typ == "Edm.Boolean" && (string(raw) == "true" || string(raw) == "false"):
		return raw, "", nil
	case typ == "Edm.Int32" && isNumber(raw):
		if n, err := strconv.ParseInt(string(raw), 10, 32); err == nil {
			return intJSON(raw, n), "", nil
		}
		return nil, "", valueError("Edm.Int32 needs a 32-bit integer")
	case typ == "Edm.Double" && isNumber(raw):
		return readDouble(raw)
	case typ == "Edm.Int64":
		return nil, "", valueError("Edm.Int64 needs a string of digits")
	}
	return nil, "", valueError(typ + " does not take this value")
}

// intJSON is an Int32's JSON: raw itself unless it has another form than
// strconv's (-0).
func intJSON(raw json.RawMessage, n int64) json.RawMessage {
	if exact, ok := exactDecimal(raw, n); ok {
		return exact
	}
	return strconv.AppendInt(nil, n, 10)
}

// exactDecimal returns raw when it is n as strconv writes it.
func exactDecimal(raw []byte, n int64) ([]byte, bool) {
	var buf [24]byte
	return raw, string(strconv.AppendInt(buf[:0], n, 10)) == string(raw)
}

// readDouble reads a Double from a JSON number and returns its stored
// form: the round-trip text (edm.AppendDouble), a JSON number the type of
// which its '.' or 'E' implies.
func readDouble(raw []byte) (json.RawMessage, string, error) {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil { // beyond a Double's range
		return nil, "", valueError("Edm.Double needs a number within a Double's range")
	}
	return doubleJSON(raw, f), "Edm.Double", nil
}

// doubleJSON is the JSON of a Double: raw itself when it is its text
// already; NaN and the infinities as strings.
func doubleJSON(raw []byte, f float64) json.RawMessage {
	switch {
	case math.IsNaN(f):
		return json.RawMessage(`"NaN"`)
	case math.IsInf(f, 1):
		return json.RawMessage(`"Infinity"`)
	case math.IsInf(f, -1):
		return json.RawMessage(`"-Infinity"`)
	}
	var buf [32]byte
	if text := edm.AppendDouble(buf[:0], f); string(text) != string(raw) {
		return append([]byte(nil), text...)
	}
	return raw
}

// dotNetSpace is the white space .NET's parsers trim.
const dotNetSpace = " \t\n\v\f\r"

// readTypedString reads a JSON string annotated typ, converted as the
// service converts it: Int32, Int64 and Boolean as .NET parses them
// (white space around, a sign, True in any case), Double likewise or the
// names NaN, Infinity and -Infinity, DateTime to UTC, Guid in any of its
// forms (edm.ParseGUID), Binary from base64.
func readTypedString(raw json.RawMessage, typ string) (json.RawMessage, string, error) {
	s, _ := jsontext.UnquoteView(raw)
	switch typ {
	case "Edm.Int32", "Edm.Int64":
		bits := 64
		if typ == "Edm.Int32" {
			bits = 32
		}
		n, err := strconv.ParseInt(strings.Trim(s, dotNetSpace), 10, bits)
		if err != nil {
			return nil, "", valueError(typ + " needs an integer of its size")
		}
		if typ == "Edm.Int32" {
			return strconv.AppendInt(nil, n, 10), "", nil
		}
		if _, exact := exactDecimal(raw[1:len(raw)-1], n); exact {
			return raw, typ, nil
		}
		return strconv.AppendQuote(nil, strconv.FormatInt(n, 10)), typ, nil
	case "Edm.Boolean":
		switch strings.ToLower(strings.Trim(s, dotNetSpace)) {
		case "true":
			return json.RawMessage("true"), "", nil
		case "false":
			return json.RawMessage("false"), "", nil
		}
		return nil, "", valueError("Edm.Boolean needs true or false")
	case "Edm.Double":
		return readDoubleString(raw, s)
	}
	return readTextValue(raw, s, typ)
}

// readDoubleString reads a Double written as a string: a decimal number
// (.NET's NumberStyles.Float) or NaN, Infinity, -Infinity.
func readDoubleString(raw json.RawMessage, s string) (json.RawMessage, string, error) {
	switch s {
	case "NaN", "Infinity", "-Infinity":
		return raw, "Edm.Double", nil
	}
	t := strings.Trim(s, dotNetSpace)
	if t == "" || strings.Trim(t, "0123456789+-.eE") != "" {
		return nil, "", valueError("Edm.Double needs a number")
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return nil, "", valueError("Edm.Double needs a number within a Double's range")
	}
	return doubleJSON(nil, f), "Edm.Double", nil
}

// readTextValue reads a DateTime, Guid or Binary string.
func readTextValue(raw json.RawMessage, s, typ string) (json.RawMessage, string, error) {
	switch typ {
	case "Edm.DateTime":
		var buf [40]byte
		utc, ok := edm.AppendUTC(buf[:0], s)
		if !ok {
			return nil, "", valueError("Edm.DateTime needs an ISO 8601 time")
		}
		if string(utc) == s {
			return raw, typ, nil
		}
		return jsontext.AppendString(nil, string(utc)), typ, nil
	case "Edm.Guid":
		g, ok := edm.ParseGUID(s)
		if !ok {
			return nil, "", valueError("Edm.Guid needs a GUID")
		}
		var buf [40]byte
		if text := edm.AppendGUID(buf[:0], g[:], false); string(text) != s {
			return jsontext.AppendString(nil, string(text)), typ, nil
		}
		return raw, typ, nil
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return nil, "", valueError("Edm.Binary needs base64")
	}
	return raw, typ, nil
}
