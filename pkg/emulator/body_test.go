package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// parseBodyReference is parseBody as it was written on encoding/json
// (with checkValue as it was then): the reference parseBody must agree
// with.
func parseBodyReference(body []byte) (pk, rk *string, props []prop, err *apiError) {
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
	names := make([]string, 0, len(m))
	for name := range m {
		if name == "PartitionKey" || name == "RowKey" || name == "Timestamp" || strings.HasPrefix(name, "odata.") || strings.Contains(name, "@") {
			continue
		}
		names = append(names, name)
	}
	if len(names) > maxProperties {
		return nil, nil, nil, errTooManyProperties
	}
	sort.Strings(names)
	for _, name := range names {
		raw := m[name]
		if e := checkPropertyName(name); e != nil {
			return nil, nil, nil, e
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
		if e := checkValueReference(raw, typ); e != nil {
			return nil, nil, nil, invalidInput("The value of property %q is invalid: %s.", name, e.Error())
		}
		if s, isString := unquote(raw); typ == "Edm.Double" && isString && numericString(s) {
			raw = json.RawMessage(s) // "2" as the JavaScript SDK sends a whole Double: the number
		}
		p := prop{name: name, raw: raw, typ: typ} // a scalar: compact already
		if e := checkValueSize(p); e != nil {
			return nil, nil, nil, e
		}
		props = append(props, p)
	}
	return pk, rk, props, nil
}

// checkValueReference is checkValue as it was when parseBody was written
// on encoding/json.
func checkValueReference(raw json.RawMessage, typ string) error {
	s, isString := unquote(raw)
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

// sameParse reports how parseBody and parseBodyReference differ on body,
// "" when they agree on everything.
func sameParse(body []byte) string {
	pk, rk, props, err := parseBody(body)
	wpk, wrk, wprops, werr := parseBodyReference(body)
	str := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%q", *p)
	}
	got := fmt.Sprintf("%s %s %v %v", str(pk), str(rk), props, err)
	want := fmt.Sprintf("%s %s %v %v", str(wpk), str(wrk), wprops, werr)
	if got != want {
		return fmt.Sprintf("got  %s\nwant %s", got, want)
	}
	return ""
}

// TestParseBodyAgrees checks the object scanner against encoding/json on
// the bodies that take its different paths: duplicates, escapes, nested
// values, null, whitespace, and what is not an object.
func TestParseBodyAgrees(t *testing.T) {
	for _, body := range []string{
		`{"PartitionKey":"p","RowKey":"r","A":1,"B":"x","C":true,"D":2.5}`,
		` { "PartitionKey" : "p" , "RowKey" : "r" , "A" : 1 } `,
		`{"A":1,"A":2,"A@odata.type":"Edm.Int64","A@odata.type":"Edm.Int32"}`, // the last of each wins
		`{"PartitionKey":"p","PartitionKey":"q"}`,
		`{"PartitionKey":null,"RowKey":null}`,
		`{"PartitionKey":1}`, `{"RowKey":{}}`,
		`{"\u0041":1,"A":2}`, `{"A\u0042":"\u00e9\"x"}`, // escaped names
		`{"N\ud800":1}`, "{\"\xff\":1}", // names json.Unmarshal repairs
		`{"O":{"x":[1,{"y":"}"}]},"P":1}`, `{"O":[]}`, // nested values
		`{"S":"a\\","T":"\\\"","U":"}"}`, // backslashes before quotes
		`{"A":1,"A@odata.type":null}`, `{"A":1,"A@odata.type":7}`,
		`{"A":null,"B":1}`, `null`, ` null `, `{}`, `[]`, `"x"`, `1`, ``, `{`, `{"A":1,}`, `{"A":01}`,
		`{"odata.etag":"x","Timestamp":"t","A@x":1,"_":1}`,
		`{"1A":1}`, `{"` + strings.Repeat("a", 256) + `":1}`,
		`{"L":"12","L@odata.type":"Edm.Int64","D":"2","D@odata.type":"Edm.Double"}`,
		// What is not JSON, value by value.
		`{"A":-}`, `{"A":1.}`, `{"A":1e}`, `{"A":1e+}`, `{"A":-0}`, `{"A":-01}`, `{"A":1.5E-3}`, `{"A":.5}`,
		"{\"A\":\"x\ty\"}", `{"A":"\x"}`, `{"A":"\u12G4"}`, `{"A":"\u12"}`, `{"A":tru}`, `{"A":nul}`,
		`{"A":[1,]}`, `{"A":[,1]}`, `{"A":{"b"}}`, `{"A":{"b":}}`, `{"A":{1:2}}`, `{"A":1}x`, `{"A":1}}`,
		`{"A" 1}`, `{A:1}`, `{"A":1 "B":2}`, "{\"A\":\"\x7f\x80\"}", `{"A":"`, `{"A`, ` `, "\ufeff{}",
		`{"A":[` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `]}`, // 10,000 deep: the most encoding/json takes
		`{"A":[` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `]}`,
	} {
		if d := sameParse([]byte(body)); d != "" {
			t.Errorf("%s:\n%s", body, d)
		}
	}
	var many bytes.Buffer
	many.WriteString(`{"PartitionKey":"p"`)
	for i := range 300 {
		fmt.Fprintf(&many, `,"P%d":%d,"P%d":%d`, i%260, i, i%260, i+1) // 260 names, each twice
	}
	many.WriteString("}")
	if d := sameParse(many.Bytes()); d != "" {
		t.Errorf("260 properties written twice:\n%s", d)
	}
}

// FuzzParseBody checks that parseBody agrees with encoding/json on any
// body.
func FuzzParseBody(f *testing.F) {
	for _, s := range []string{`{"PartitionKey":"p","RowKey":"r","A":1}`, `{"A":{"b":[1,"]"]},"A":"x\"y"}`, `null`, `{"\u0041\ud800":true}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if d := sameParse(body); d != "" {
			t.Fatalf("%q:\n%s", body, d)
		}
	})
}

// BenchmarkParseBody parses an entity as tablestress seeds those of
// bench/scenarios/seed-1m.yaml: keys, five properties, 256 bytes of data.
func BenchmarkParseBody(b *testing.B) {
	body := []byte(`{"PartitionKey":"dev-0927","RowKey":"2516666111999999999","device":"dev-0927","EventTime":"2025-01-01T00:00:00.0000000Z","EventTime@odata.type":"Edm.DateTime","Seq":"0","Seq@odata.type":"Edm.Int64","Version":0,"Data":"` + strings.Repeat("p", 256) + `"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, props, err := parseBody(body); err != nil || len(props) != 5 {
			b.Fatal(props, err)
		}
	}
}
