package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/filter"
)

func TestFragmentRoundTrip(t *testing.T) {
	body := `{"PartitionKey":"p","RowKey":"r","Timestamp":"2020-01-01T00:00:00Z","odata.etag":"x",
		"S":"a,b\"c\\d:e","É":"ü","N":5,"W":3000000000,"D":2.5,"B":false,"Nul":null,
		"L":"-9007199254740993","L@odata.type":"Edm.Int64",
		"T":"2025-01-15T12:00:00.1234567Z","T@odata.type":"Edm.DateTime",
		"G":"0000000A-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid",
		"X":"Af8=","X@odata.type":"Edm.Binary",
		"I":7,"I@odata.type":"Edm.Int32", "E":"s","E@odata.type":"Edm.String", "F":"NaN","F@odata.type":"Edm.Double"}`
	props, err := propsOf(body)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEntity("p", "r", props, time.Time{}, NewNames())
	back := e.Properties()
	if fmt.Sprint(back) != fmt.Sprint(props) {
		// Int32 and String annotations are implied by the JSON value.
		for i := range props {
			if props[i].Type == "Edm.Int32" || props[i].Type == "Edm.String" {
				props[i].Type = ""
			}
		}
		if fmt.Sprint(back) != fmt.Sprint(props) {
			t.Errorf("properties() = %v\nwant %v", back, props)
		}
	}
	tests := []struct {
		name string
		want filter.Value
	}{
		{"S", filter.Value{Kind: filter.String, S: `a,b"c\d:e`}},      // escapes, comma and colon inside a string
		{"É", filter.Value{Kind: filter.String, S: "ü"}},              // non-ASCII name
		{"N", filter.Value{Kind: filter.Int32, I: 5}},                 // implied Int32
		{"W", filter.Value{Kind: filter.Double, F: 3e9}},              // an integer beyond 32 bits: a Double
		{"D", filter.Value{Kind: filter.Double, F: 2.5}},              // implied Double
		{"B", filter.Value{Kind: filter.Bool, B: false}},              // Boolean
		{"L", filter.Value{Kind: filter.Int64, I: -9007199254740993}}, // Int64 beyond float64 precision
		{"G", filter.Value{Kind: filter.GUID, S: "0000000a-0000-4000-8000-000000000000"}},
		{"X", filter.Value{Kind: filter.Binary, S: "\x01\xff"}}, // base64 decoded
		{"I", filter.Value{Kind: filter.Int32, I: 7}},           // annotated Int32
		{"E", filter.Value{Kind: filter.String, S: "s"}},        // annotated String
	}
	row := e
	for _, tt := range tests {
		got, ok := row.Get(tt.name)
		if !ok || got != tt.want {
			t.Errorf("%s = %+v %v, want %+v", tt.name, got, ok, tt.want)
		}
	}
	if v, ok := row.Get("F"); !ok || v.Kind != filter.Double || v.F == v.F {
		t.Errorf("F = %+v, want NaN", v)
	}
	if v, ok := row.Get("T"); !ok || v.Kind != filter.Time || v.T.Nanosecond() != 123456700 {
		t.Errorf("T = %+v", v)
	}
	for _, missing := range []string{"Nul", "odata.etag", "L@odata.type", "s"} { // null is not stored; names are case-sensitive
		if _, ok := row.Get(missing); ok {
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
		props := []Prop{{Name: "A", Raw: v}, {Name: "B", Raw: []byte(`"0000000a-0000-4000-8000-000000000000"`), Type: "Edm.Guid"}, {Name: "C", Raw: v}}
		e := NewEntity("p", "r", props, time.Time{}, NewNames())
		if got, want := e.AppendFragment(nil), fragment(props); string(got) != string(want) {
			t.Fatalf("fragment %s, want %s", got, want)
		}
		want, _ := typedValue(v, "")
		for _, name := range []string{"A", "C"} {
			if got, ok := e.Get(name); !ok || got != want {
				t.Fatalf("%s = %+v %v, want %+v", name, got, ok, want)
			}
		}
		if got, ok := e.Get("B"); !ok || got.Kind != filter.GUID {
			t.Fatalf("B = %+v %v", got, ok)
		}
		if got := e.Properties(); fmt.Sprint(got) != fmt.Sprint(props) {
			t.Fatalf("properties() = %v, want %v", got, props)
		}
	})
}

// fragment serialises properties in the form the compact store renders
// back (appendFragment), the reference its tests compare with: the minimal-metadata
// JSON members, each type annotation before its value as Azure writes
// them, and none where the JSON value implies the type (String, Boolean,
// Int32, and Double written with a fraction or an exponent).
func fragment(props []Prop) []byte {
	var b []byte
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendProp(b, p)
	}
	return b
}
