package store

import (
	"encoding/base64"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/tablestress/tablestress/pkg/emulator/filter"
)

// checkLossless stores body's properties in a table under the keys and
// checks that the stored entity is what the service kept before its
// compact form: the same fragment and size, the same properties, the same
// filter values, read from the record as from the entity the write built.
func checkLossless(t *testing.T, pk, rk, body string) *Entity {
	t.Helper()
	props, err := propsOf(body)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	tb := NewTable("codec")
	built := NewEntity(pk, rk, props, time.Unix(1700000000, 123456700), tb.Names())
	tb.Put(built)
	stored := tb.Get(pk, rk)
	if stored == nil {
		t.Fatalf("%q/%q is not found again", pk, rk)
	}
	want := fragment(props)
	wantProps := append([]Prop(nil), props...)
	for i, p := range wantProps {
		if !p.Annotated() {
			wantProps[i].Type = "" // the fragment keeps no annotation the JSON implies
		}
	}
	for _, e := range []*Entity{built, stored, stored.detach()} {
		if got := e.AppendFragment(nil); string(got) != string(want) {
			t.Errorf("fragment\n%s\nwant\n%s", got, want)
		}
		if e.pk != pk || e.rk != rk || e.ts != built.ts || e.Bytes() != len(pk)+len(rk)+len(want) {
			t.Errorf("keys %q %q, ts %d, bytes %d; want %q %q, %d, %d", e.pk, e.rk, e.ts, e.Bytes(), pk, rk, built.ts, len(pk)+len(rk)+len(want))
		}
		if got := e.Properties(); fmt.Sprint(got) != fmt.Sprint(wantProps) {
			t.Errorf("properties() = %v, want %v", got, wantProps)
		}
		for _, p := range wantProps {
			want, wok := typedValue(p.Raw, p.Type)
			got, ok := e.Get(p.Name)
			same := got == want || (got.Kind == filter.Double && math.IsNaN(got.F) && want.Kind == filter.Double && math.IsNaN(want.F)) ||
				(got.Kind == filter.Time && got.T.Equal(want.T) && want.Kind == filter.Time)
			if ok != wok || !same {
				t.Errorf("%s = %+v %v, want %+v %v", p.Name, got, ok, want, wok)
			}
		}
	}
	defer runtime.KeepAlive(tb) // the view reads the table's memory
	return stored.detach()
}

// TestCodecRoundTrip stores a value of every Edm type, in the forms the
// SDKs write them and the edge cases of each, and reads it back exactly.
func TestCodecRoundTrip(t *testing.T) {
	maxBinary := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\xa5", maxBinaryBytes)))
	for _, v := range []string{
		`"S":""`,                       // empty String
		`"S":"plain ascii"`,            // printable ASCII, held unescaped
		`"S":"quote \" back \\ slash"`, // escapes the service writes the same
		`"S":"tab\tnl\nctl\u0001"`,     // control characters
		`"S":"\u00e9t\u00e9"`,          // escaped non-ASCII: kept as sent
		`"S":"été 😀 \u2028"`,           // raw non-ASCII and a line separator
		`"S":"\ud83d\ude00"`,           // an escaped surrogate pair
		`"S":"lone \ud800"`,            // a lone surrogate
		`"S":"x","S@odata.type":"Edm.String"`,
		`"S":"` + strings.Repeat("ü", maxStringUnits) + `"`, // the longest String
		`"B":true`, `"B":false`, `"B":true,"B@odata.type":"Edm.Boolean"`,
		`"I":0`, `"I":-2147483648`, `"I":2147483647`, `"I":7,"I@odata.type":"Edm.Int32"`,
		`"I":9007199254740993`, // an unannotated integer beyond Int32
		`"I":-0`,               // not as strconv writes it: kept as sent
		`"L":"0","L@odata.type":"Edm.Int64"`,
		`"L":"-9223372036854775808","L@odata.type":"Edm.Int64"`,
		`"L":"9223372036854775807","L@odata.type":"Edm.Int64"`,
		`"L":"007","L@odata.type":"Edm.Int64"`, // leading zeros: kept as sent
		`"D":2.5`, `"D":-1e-300`, `"D":1E+300`, `"D":0.1,"D@odata.type":"Edm.Double"`,
		`"D":2,"D@odata.type":"Edm.Double"`, `"D":"2","D@odata.type":"Edm.Double"`, // a whole Double, as .NET and JavaScript send it
		`"D":"NaN","D@odata.type":"Edm.Double"`,
		`"D":"Infinity","D@odata.type":"Edm.Double"`,
		`"D":"-Infinity","D@odata.type":"Edm.Double"`,
		`"T":"2025-01-15T12:00:00Z","T@odata.type":"Edm.DateTime"`,
		`"T":"2025-01-15T12:00:00.1Z","T@odata.type":"Edm.DateTime"`,
		`"T":"2025-01-15T12:00:00.123Z","T@odata.type":"Edm.DateTime"`,       // JavaScript
		`"T":"2025-01-15T12:00:00.1234567Z","T@odata.type":"Edm.DateTime"`,   // .NET, Azure: 100 ns ticks
		`"T":"2025-01-15T12:00:00.0000000Z","T@odata.type":"Edm.DateTime"`,   // zeros kept
		`"T":"2025-01-15T12:00:00.123456789Z","T@odata.type":"Edm.DateTime"`, // nanoseconds
		`"T":"1601-01-01T00:00:00Z","T@odata.type":"Edm.DateTime"`,           // Azure's least DateTime
		`"T":"9999-12-31T23:59:59.9999999Z","T@odata.type":"Edm.DateTime"`,
		`"T":"1969-12-31T23:59:59.5Z","T@odata.type":"Edm.DateTime"`,    // before the epoch
		`"T":"2025-01-15T13:00:00+01:00","T@odata.type":"Edm.DateTime"`, // an offset: kept as sent
		`"G":"0000000a-0000-4000-8000-00000000000f","G@odata.type":"Edm.Guid"`,
		`"G":"0000000A-0000-4000-8000-00000000000F","G@odata.type":"Edm.Guid"`,
		`"G":"0000000a-0000-4000-8000-00000000000F","G@odata.type":"Edm.Guid"`, // mixed case: kept as sent
		`"X":"","X@odata.type":"Edm.Binary"`,
		`"X":"Af8=","X@odata.type":"Edm.Binary"`,
		`"X":"Af9=","X@odata.type":"Edm.Binary"`, // non-zero padding bits: kept as sent
		`"X":"` + maxBinary + `","X@odata.type":"Edm.Binary"`,
	} {
		body := `{"PartitionKey":"p","RowKey":"r",` + v + `}`
		t.Run(v[:min(len(v), 40)], func(t *testing.T) { checkLossless(t, "p", "r", body) })
	}
}

// TestCodecKeysAndNames stores keys and property names beyond ASCII, empty
// keys, and an entity with every property at once.
func TestCodecKeysAndNames(t *testing.T) {
	checkLossless(t, "", "", `{"A":1}`)
	checkLossless(t, "Ünïcødé 键", "😀'quote", `{"Ñame":"v","名前":"w","_x9":1}`)
	checkLossless(t, strings.Repeat("k", maxKeyBytes), strings.Repeat("é", maxKeyBytes/2), `{}`)
	checkLossless(t, "p", "r", `{"S":"a,b\"c","N":5,"D":2.5,"B":false,"Nul":null,
		"L":"-9007199254740993","L@odata.type":"Edm.Int64",
		"T":"2025-01-15T12:00:00.1234567Z","T@odata.type":"Edm.DateTime",
		"G":"0000000A-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid",
		"X":"Af8=","X@odata.type":"Edm.Binary","F":"NaN","F@odata.type":"Edm.Double"}`)
}

// TestCodecIsCompact checks that the common values are held in their
// compact forms, not as JSON: the point of the encoding.
func TestCodecIsCompact(t *testing.T) {
	tests := []struct {
		body string
		max  int // bytes of the compact properties
	}{
		{`{"Data":"` + strings.Repeat("x", 256) + `"}`, 1 + 1 + 2 + 256},                       // name id, tag, length
		{`{"N":"123456789012","N@odata.type":"Edm.Int64"}`, 1 + 1 + 6},                         // a varint
		{`{"T":"2025-01-15T12:00:00.1234567Z","T@odata.type":"Edm.DateTime"}`, 1 + 1 + 1 + 10}, // digits, seconds, nanoseconds
		{`{"G":"0000000a-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid"}`, 1 + 1 + 16},
		{`{"X":"` + base64.StdEncoding.EncodeToString(make([]byte, 300)) + `","X@odata.type":"Edm.Binary"}`, 1 + 1 + 2 + 300},
		{`{"B":true,"I":7}`, 2 * (1 + 1 + 1)},
	}
	for _, tt := range tests {
		e := checkLossless(t, "p", "r", tt.body)
		if len(e.props) > tt.max {
			t.Errorf("%.60s: %d bytes, want at most %d", tt.body, len(e.props), tt.max)
		}
	}
}

// TestCodecNamesOverflow checks that names past a full dictionary are
// stored in the entity, and read back the same.
func TestCodecNamesOverflow(t *testing.T) {
	nm := NewNames()
	for i := range maxNames {
		if _, ok := nm.id(fmt.Sprintf("n%d", i)); !ok {
			t.Fatalf("name %d refused", i)
		}
	}
	props := []Prop{{Name: "Extra", Raw: []byte(`"v"`)}, {Name: "n7", Raw: []byte(`1`)}}
	e := NewEntity("p", "r", props, time.Time{}, nm)
	if nm.len() != maxNames {
		t.Errorf("the dictionary grew to %d names past its %d", nm.len(), maxNames)
	}
	if got, want := string(e.AppendFragment(nil)), string(fragment(props)); got != want {
		t.Errorf("fragment %s, want %s", got, want)
	}
	if v, ok := e.Get("Extra"); !ok || v.S != "v" {
		t.Errorf("Extra = %+v %v", v, ok)
	}
}

func TestFragmentLen(t *testing.T) {
	for _, name := range []string{"A", "Ünï", "\xff", "a\"b", "x\ny"} {
		props := []Prop{{Name: name, Raw: []byte(`"v"`)}, {Name: "T", Raw: []byte(`"2025-01-15T12:00:00Z"`), Type: "Edm.DateTime"}, {Name: "D", Raw: []byte(`2`), Type: "Edm.Double"}}
		if got, want := fragmentLen(props), len(fragment(props)); got != want {
			t.Errorf("%q: fragmentLen %d, want %d", name, got, want)
		}
	}
}

// FuzzCodec stores any entity body the service accepts and checks that
// it reads back exactly.
func FuzzCodec(f *testing.F) {
	for _, s := range []string{
		`{"S":"x","N":1,"D":1.5,"B":true}`,
		`{"L":"12","L@odata.type":"Edm.Int64","T":"2025-01-15T12:00:00.12Z","T@odata.type":"Edm.DateTime"}`,
		`{"G":"0000000a-0000-4000-8000-000000000000","G@odata.type":"Edm.Guid","X":"AA==","X@odata.type":"Edm.Binary"}`,
		`{"S":"\u0000\ud800é"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if _, err := propsOf(body); err != nil {
			return
		}
		checkLossless(t, "p", "r", body)
	})
}

// detach returns a copy of e that owns its memory, for use after the
// table's lock is released (and its table is gone); nil for nil.
func (e *Entity) detach() *Entity {
	if e == nil {
		return nil
	}
	c := *e
	// One allocation for the keys and the properties; nothing writes it.
	b := make([]byte, 0, len(e.pk)+len(e.rk)+len(e.props))
	b = append(append(append(b, e.pk...), e.rk...), e.props...)
	c.pk, c.rk = stringAt(unsafe.SliceData(b), 0, len(e.pk)), stringAt(unsafe.SliceData(b), len(e.pk), len(e.rk))
	c.props = b[len(e.pk)+len(e.rk):]
	return &c
}
