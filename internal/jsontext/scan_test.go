package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// objectCases are texts ScanObject must read as json.Unmarshal into a
// map[string]json.RawMessage does.
var objectCases = []string{
	"", " ", "null", " null\n", "nul", "nullx", "{}", " { } ", "[]", "1", `"s"`, "true",
	`{"a":1}`, `{"a":1,"a":2}`, `{"b":1,"a":2,"b":"x"}`, `{"a":1,}`, `{"a" 1}`, `{"a":1 "b":2}`, `{,}`, `{"a"}`,
	`{"a":01}`, `{"a":-}`, `{"a":-0}`, `{"a":1.}`, `{"a":.5}`, `{"a":1.5e}`, `{"a":1e+5}`, `{"a":-1.25E-3}`, `{"a":+1}`,
	`{"a":"\u00e9"}`, `{"a":"\u00g9"}`, `{"a":"\u00e"}`, `{"a":"\x"}`, `{"a":"\/\b\f\n\r\t\\\""}`,
	`{"\u0041":1,"A":2}`, `{"a\"b":1}`, `{"\ud800":1}`, "{\"a\":\"x\x01\"}", "{\"\xff\":1}", "{\"a\":\"\xff\xfe\"}",
	`{"a":[1,{"b":[]}],"c":{}}`, `{"a":[1,]}`, `{"a":[1 2]}`, `{"a":{"b":1,}}`, `{"a":true,"b":false,"c":null}`,
	`{"a":tru}`, `{"a":nulll}`, `{"a":1}x`, `{"a":1} `, "\t{\"a\":1}\r\n", `{"a":1}{`, `{"a":1`, `{"a":"x`, `{"a":`,
	`{"PartitionKey":"p","RowKey":"r","N":1,"N@odata.type":"Edm.Int64","Data":"` + strings.Repeat("x", 1000) + `"}`,
	"\xef\xbb\xbf{}", "{\"a\":1}\x00",
}

// nested is an object holding n arrays one inside the other, so that
// containers nest n+1 deep.
func nested(n int) string {
	return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"
}

// checkScanObject fails unless ScanObject reads b as encoding/json does,
// and StringValue reads each member's value as json.Unmarshal into a
// string does.
func checkScanObject(t *testing.T, b []byte) {
	t.Helper()
	var want map[string]json.RawMessage
	err := json.Unmarshal(b, &want)
	o, ok := ScanObject(b)
	defer o.Release()
	got := o.Members
	if ok != (err == nil) {
		t.Fatalf("%q: ScanObject ok %v, json.Unmarshal error %v", b, ok, err)
	}
	if !ok {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d members, json.Unmarshal %d", b, len(got), len(want))
	}
	for k, m := range got {
		if k > 0 && got[k-1].Name >= m.Name {
			t.Fatalf("%q: members %q and %q out of order", b, got[k-1].Name, m.Name)
		}
		if w, found := want[m.Name]; !found || !bytes.Equal(w, m.Raw) {
			t.Fatalf("%q: member %q is %q, json.Unmarshal %q (found %v)", b, m.Name, m.Raw, w, found)
		}
		if raw, found := o.Get(m.Name, ""); !found || !bytes.Equal(raw, m.Raw) {
			t.Fatalf("%q: Get(%q) = %q, %v", b, m.Name, raw, found)
		}
		var ws string
		wantErr := json.Unmarshal(m.Raw, &ws)
		gs, gok := StringValue(m.Raw)
		if gok != (wantErr == nil) || gok && gs != ws {
			t.Fatalf("%q: StringValue(%q) = %q, %v; json.Unmarshal %q, %v", b, m.Raw, gs, gok, ws, wantErr)
		}
	}
}

func TestScanObjectAsEncodingJSON(t *testing.T) {
	for _, c := range objectCases {
		checkScanObject(t, []byte(c))
	}
	// encoding/json lets containers nest 10,000 deep, not deeper.
	for _, n := range []int{9999, 10000} {
		checkScanObject(t, []byte(nested(n)))
	}
}

func FuzzScanObject(f *testing.F) {
	for _, c := range objectCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScanObject(t, b) })
}

// TestObjectGet finds a name given in two parts among names that sort
// around it.
func TestObjectGet(t *testing.T) {
	o, ok := ScanObject([]byte(`{"N":1,"N0":2,"N@odata.type":"Edm.Int64","NA":3,"M":4,"O":5,"N@odata.typf":6}`))
	if !ok {
		t.Fatal("not read")
	}
	tests := []struct {
		a, b, want string // want "" for absent
	}{
		{"N", "@odata.type", `"Edm.Int64"`},
		{"N", "", "1"},
		{"N0", "", "2"},
		{"", "N@odata.typf", "6"},
		{"N@", "odata.type", `"Edm.Int64"`},
		{"NA", "@odata.type", ""},
		{"N", "@odata.typ", ""},
		{"", "", ""},
		{"P", "", ""},
	}
	for _, tt := range tests {
		raw, found := o.Get(tt.a, tt.b)
		if string(raw) != tt.want || found != (tt.want != "") {
			t.Errorf("get(%q, %q) = %q, %v; want %q", tt.a, tt.b, raw, found, tt.want)
		}
	}
}

// TestInternTable interns from many goroutines at once (run it with
// -race): every string read back is the one asked for, and the table
// stops growing at maxInterned.
func TestInternTable(t *testing.T) {
	var it internTable
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 3 * maxInterned {
				name := fmt.Sprintf("Name%d", (i*7+w)%(2*maxInterned))
				if got := it.get([]byte(name)); got != name {
					t.Errorf("get(%q) = %q", name, got)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := len(*it.m.Load()); n > maxInterned || n < maxInterned/2 {
		t.Errorf("%d names interned, want at most %d (and many)", n, maxInterned)
	}
	var fresh internTable
	a, b := fresh.get([]byte("Name1")), fresh.get([]byte("Name1"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("an interned name is allocated again")
	}
}

// TestSortMembersAsStableSort holds sortMembers to slices.SortStableFunc
// by name, on lists of both its sizes with names that share 8-byte
// prefixes, are prefixes of each other, hold NUL bytes or repeat.
func TestSortMembersAsStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	stems := []string{"", "a", "EventTim", "EventTime", "EventTime@odata.type", "Seq", "ab\x00", "ab", "\xff\xfe", "PartitionKey"}
	for round := range 5000 {
		n := r.IntN(40)
		ms := make([]Member, n)
		for i := range ms {
			name := stems[r.IntN(len(stems))]
			if r.IntN(2) == 0 {
				name += string(rune('A' + r.IntN(3)))
			}
			ms[i] = Member{Name: name, Raw: []byte{byte(i)}, key: nameKey(name)}
		}
		want := slices.Clone(ms)
		slices.SortStableFunc(want, func(a, b Member) int { return strings.Compare(a.Name, b.Name) })
		sortMembers(ms)
		for i := range ms {
			if ms[i].Name != want[i].Name || ms[i].Raw[0] != want[i].Raw[0] {
				t.Fatalf("round %d, %d members: at %d %q (#%d), want %q (#%d)", round, n, i, ms[i].Name, ms[i].Raw[0], want[i].Name, want[i].Raw[0])
			}
		}
	}
}

// TestObjectAfterAsGet holds After(k, suffix) to Get(name of k,
// suffix) on objects whose names share prefixes with their annotations'
// (N, N0, N@a, N@odata.type, N@odata.typf, NA, ...).
func TestObjectAfterAsGet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	stems := []string{"N", "N0", "N_", "NA", "M", "Na", "N0A", ""}
	tails := []string{"", "@odata.type", "@odata.typ", "@odata.typf", "@a", "@odata.type0", "0", "@"}
	suffixes := []string{"@odata.type", "0", "@", "@odata.typ"}
	for round := range 3000 {
		var body strings.Builder
		body.WriteByte('{')
		for i := range r.IntN(12) {
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, "%q:%d", stems[r.IntN(len(stems))]+tails[r.IntN(len(tails))], i)
		}
		body.WriteByte('}')
		o, ok := ScanObject([]byte(body.String()))
		if !ok {
			t.Fatalf("%s: not read", body.String())
		}
		for k, m := range o.Members {
			for _, s := range suffixes {
				got, gotOK := o.After(k, s)
				want, wantOK := o.Get(m.Name, s)
				if string(got) != string(want) || gotOK != wantOK {
					t.Fatalf("round %d, %s: After(%d %q, %q) = %q, %v; Get = %q, %v", round, body.String(), k, m.Name, s, got, gotOK, want, wantOK)
				}
			}
		}
		o.Release()
	}
}
