package emulator

import (
	"fmt"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/jsontext"
)

func TestFragmentRoundTrip(t *testing.T) {
	body := `{"PartitionKey":"p","RowKey":"r","Timestamp":"2020-01-01T00:00:00Z","odata.etag":"x",
		"S":"a,b\"c\\d:e","É":"ü","N":5,"D":2.5,"B":false,"Nul":null,
		"L":"-9007199254740993","L@odata.type":"Edm.Int64",
		"T":"2025-01-15T12:00:00.1234567Z","T@odata.type":"Edm.DateTime",
		"G":"0000000A-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid",
		"X":"Af8=","X@odata.type":"Edm.Binary",
		"I":7,"I@odata.type":"Edm.Int32", "E":"s","E@odata.type":"Edm.String", "F":"NaN","F@odata.type":"Edm.Double"}`
	_, _, _, props, err := parseBody([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	e := newEntity("p", "r", props, time.Time{}, newNames())
	back := e.properties()
	if fmt.Sprint(back) != fmt.Sprint(props) {
		// Int32 and String annotations are implied by the JSON value.
		for i := range props {
			if props[i].typ == "Edm.Int32" || props[i].typ == "Edm.String" {
				props[i].typ = ""
			}
		}
		if fmt.Sprint(back) != fmt.Sprint(props) {
			t.Errorf("properties() = %v\nwant %v", back, props)
		}
	}
	tests := []struct {
		name string
		want value
	}{
		{"S", value{k: kString, s: `a,b"c\d:e`}},    // escapes, comma and colon inside a string
		{"É", value{k: kString, s: "ü"}},            // non-ASCII name
		{"N", value{k: kInt, i: 5}},                 // implied Int32
		{"D", value{k: kDouble, f: 2.5}},            // implied Double
		{"B", value{k: kBool, b: false}},            // Boolean
		{"L", value{k: kInt, i: -9007199254740993}}, // Int64 beyond float64 precision
		{"G", value{k: kGUID, s: "0000000a-0000-4000-8000-000000000000"}},
		{"X", value{k: kBinary, s: "\x01\xff"}}, // base64 decoded
		{"I", value{k: kInt, i: 7}},             // annotated Int32
		{"E", value{k: kString, s: "s"}},        // annotated String
	}
	row := entityRow{e: e}
	for _, tt := range tests {
		got, ok := row.get(tt.name)
		if !ok || got != tt.want {
			t.Errorf("%s = %+v %v, want %+v", tt.name, got, ok, tt.want)
		}
	}
	if v, ok := row.get("F"); !ok || v.k != kDouble || v.f == v.f {
		t.Errorf("F = %+v, want NaN", v)
	}
	if v, ok := row.get("T"); !ok || v.k != kTime || v.t.Nanosecond() != 123456700 {
		t.Errorf("T = %+v", v)
	}
	for _, missing := range []string{"Nul", "odata.etag", "L@odata.type", "s"} { // null is not stored; names are case-sensitive
		if _, ok := row.get(missing); ok {
			t.Errorf("%s is found", missing)
		}
	}
}

// FuzzFragment checks that any string value, however escaped, is found
// again in a stored entity, next to its neighbours, and rendered back as
// it came.
func FuzzFragment(f *testing.F) {
	for _, s := range []string{`plain`, `a"b`, `back\slash\`, `\"`, "tab\tnl\n", `é€`, `,:"x":`, "\xff\xfe", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := jsontext.AppendString(nil, s)
		props := []prop{{name: "A", raw: v}, {name: "B", raw: []byte(`"0000000a-0000-4000-8000-000000000000"`), typ: "Edm.Guid"}, {name: "C", raw: v}}
		e := newEntity("p", "r", props, time.Time{}, newNames())
		if got, want := e.appendFragment(nil), fragment(props); string(got) != string(want) {
			t.Fatalf("fragment %s, want %s", got, want)
		}
		want, _ := typedValue(v, "")
		for _, name := range []string{"A", "C"} {
			if got, ok := (entityRow{e: e}).get(name); !ok || got != want {
				t.Fatalf("%s = %+v %v, want %+v", name, got, ok, want)
			}
		}
		if got, ok := (entityRow{e: e}).get("B"); !ok || got.k != kGUID {
			t.Fatalf("B = %+v %v", got, ok)
		}
		if got := e.properties(); fmt.Sprint(got) != fmt.Sprint(props) {
			t.Fatalf("properties() = %v, want %v", got, props)
		}
	})
}

// fragment serialises properties in the form the compact store renders
// back (appendFragment), the reference its tests compare with: the minimal-metadata
// JSON members, each type annotation before its value as Azure writes
// them, and none where the JSON value implies the type (String, Boolean,
// Int32, and Double written with a fraction or an exponent).
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
