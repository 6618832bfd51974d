package emulator

import (
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// TestEntityNeedsKeys holds R5: an entity body without a PartitionKey or
// a RowKey, or with a null one, is 400 PropertiesNeedValue.
func TestEntityNeedsKeys(t *testing.T) {
	tests := []struct {
		body string
		code string // "" when the entity is accepted
	}{
		{`{"PartitionKey":"p","RowKey":"r"}`, ""},
		{`{"PartitionKey":"p","RowKey":""}`, ""}, // empty keys are keys
		{`{"PartitionKey":"p"}`, "PropertiesNeedValue"},
		{`{"RowKey":"r","V":1}`, "PropertiesNeedValue"},
		{`{"PartitionKey":"p","RowKey":null}`, "PropertiesNeedValue"},
		{`{"PartitionKey":null,"RowKey":"r"}`, "PropertiesNeedValue"},
		{`{"PartitionKey":"p","RowKey":7}`, "InvalidInput"}, // not a string
	}
	for _, tt := range tests {
		_, _, _, err := parseEntity([]byte(tt.body))
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.body, err)
		case tt.code != "" && (err == nil || err.code != tt.code || err.status != 400):
			t.Errorf("%s: %v, want 400 %s", tt.body, err, tt.code)
		}
	}
}

// TestReadValue holds R2, R3, R7, R8 and R18: which JSON each Edm type
// takes (a typed string is converted as .NET converts it), the form the
// service stores and answers (a Double's round-trip text, a Guid in lower
// case with dashes, a DateTime in UTC), and the values refused with 400.
func TestReadValue(t *testing.T) {
	tests := []struct {
		raw, typ string
		want     string // the stored JSON, "" when refused
		wantTyp  string
	}{
		{`"17"`, "Edm.Int32", `17`, ""},                                                // a typed string (R2)
		{`" -17 "`, "Edm.Int32", `-17`, ""},                                            // .NET's Int32.Parse: white space, sign
		{`17`, "Edm.Int32", `17`, ""},                                                  // a number
		{`"true"`, "Edm.Boolean", `true`, ""},                                          // a typed string (R2)
		{`"False"`, "Edm.Boolean", `false`, ""},                                        // Boolean.Parse: any case
		{`true`, "Edm.Boolean", `true`, ""},                                            // a JSON Boolean
		{`"2.5"`, "Edm.Double", `2.5`, "Edm.Double"},                                   // a typed string (R2)
		{`"2"`, "Edm.Double", `2.0`, "Edm.Double"},                                     // as the JavaScript SDK sends a whole Double (R7)
		{`2`, "Edm.Double", `2.0`, "Edm.Double"},                                       // a number
		{`"1.23456789012346e+24"`, "Edm.Double", `1.23456789012346E+24`, "Edm.Double"}, // the recorded Azure answer
		{`"NaN"`, "Edm.Double", `"NaN"`, "Edm.Double"},                                 // not a JSON number: a string
		{`"-Infinity"`, "Edm.Double", `"-Infinity"`, "Edm.Double"},
		{`1e3`, "", `1000.0`, "Edm.Double"},                                                 // no annotation, an exponent: a Double (R7)
		{`2.5`, "", `2.5`, "Edm.Double"},                                                    // a Double as it is
		{`3000000000`, "", `3000000000.0`, "Edm.Double"},                                    // beyond 32 bits: a Double
		{`-0`, "", `0`, ""},                                                                 // an Int32
		{`"5"`, "Edm.Int64", `"5"`, "Edm.Int64"},                                            // an Int64 is a string
		{`"+5 "`, "Edm.Int64", `"5"`, "Edm.Int64"},                                          // Int64.Parse: sign, white space
		{`"2024-01-01T00:00:00"`, "Edm.DateTime", `"2024-01-01T00:00:00Z"`, "Edm.DateTime"}, // no zone: UTC (R3)
		{`"2024-01-01T01:00:00+01:00"`, "Edm.DateTime", `"2024-01-01T00:00:00Z"`, "Edm.DateTime"},
		{`"2024-01-01T00:00:00.1234567Z"`, "Edm.DateTime", `"2024-01-01T00:00:00.1234567Z"`, "Edm.DateTime"},
		{`"{0F8FAD5B-D9CB-469F-A165-70867728950E}"`, "Edm.Guid", `"0f8fad5b-d9cb-469f-a165-70867728950e"`, "Edm.Guid"}, // (R8)
		{`"0f8fad5bd9cb469fa16570867728950e"`, "Edm.Guid", `"0f8fad5b-d9cb-469f-a165-70867728950e"`, "Edm.Guid"},
		{`"AAEC/v8="`, "Edm.Binary", `"AAEC/v8="`, "Edm.Binary"},
		{`"x"`, "Edm.String", `"x"`, "Edm.String"},
		{`5`, "Edm.Int64", "", ""},                        // a number is no Int64
		{`"5x"`, "Edm.Int64", "", ""},                     // not an integer
		{`2147483648`, "Edm.Int32", "", ""},               // beyond 32 bits (R18)
		{`"2147483648"`, "Edm.Int32", "", ""},             // likewise as a string
		{`1.5`, "Edm.Int32", "", ""},                      // a Double is no Int32
		{`"maybe"`, "Edm.Boolean", "", ""},                // not a Boolean
		{`1`, "Edm.Boolean", "", ""},                      // a number is no Boolean
		{`true`, "Edm.Double", "", ""},                    // a Boolean is no Double
		{`"Inf"`, "Edm.Double", "", ""},                   // not .NET's name of infinity
		{`"0x10"`, "Edm.Double", "", ""},                  // not a decimal number
		{`1e400`, "", "", ""},                             // beyond a Double's range
		{`"0f8fad5b-d9cb-469f-a165"`, "Edm.Guid", "", ""}, // not a Guid (R18)
		{`"%%%"`, "Edm.Binary", "", ""},                   // not base64 (R18)
		{`"2024-01-01"`, "Edm.DateTime", "", ""},          // a date without a time
		{`1`, "Edm.String", "", ""},                       // a number is no String
		{`"x"`, "Edm.Decimal", "", ""},                    // an unknown type (R18)
		{`[1]`, "", "", ""},                               // an array
	}
	for _, tt := range tests {
		got, typ, err := readValue([]byte(tt.raw), tt.typ)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s %s: stored as %s %s, want refused", tt.typ, tt.raw, got, typ)
		case tt.want != "" && (err != nil || string(got) != tt.want || typ != tt.wantTyp):
			t.Errorf("%s %s: %s %q %v, want %s %q", tt.typ, tt.raw, got, typ, err, tt.want, tt.wantTyp)
		}
	}
	for _, v := range []struct{ raw, typ string }{ // stored forms already: no copy
		{`2.5`, ""}, {`17`, ""}, {`"5"`, "Edm.Int64"}, {`"2024-01-01T00:00:00.1234567Z"`, "Edm.DateTime"},
		{`"0f8fad5b-d9cb-469f-a165-70867728950e"`, "Edm.Guid"}, {`true`, ""}, {`"x"`, ""},
	} {
		raw := []byte(v.raw)
		if n := testing.AllocsPerRun(100, func() { readValue(raw, v.typ) }); n != 0 {
			t.Errorf("%s %s: %v allocations, want 0", v.typ, v.raw, n)
		}
	}
}

// TestMalformedIfMatch holds R11 and R20: an If-Match that is not a
// weak ETag is 400 InvalidInput on an update, a merge, a delete and inside
// a transaction (at its operation's index), before the entity is looked
// for; a weak ETag that does not match, in any form (W/"wrong", w/"…"),
// is 412.
func TestMalformedIfMatch(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"r"}`)), http.StatusNoContent)
	never := `W/"datetime'2024-01-01T00%3A00%3A00.0000000Z'"`
	for _, rk := range []string{"r", "missing"} {
		ent := "/t(PartitionKey='p',RowKey='" + rk + "')"
		for _, method := range []string{http.MethodPut, "MERGE", http.MethodDelete} {
			for _, v := range []string{`"wrong"`, `wrong`, `"`, `"datetime'2024-01-01T00%3A00%3A00.0000000Z'"`, `W/"a", W/"b"`} {
				r := signed(s, method, ent, "", []byte(`{"V":1}`))
				r.Header.Set("If-Match", v)
				w := serve(s, r)
				if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != 400 || code != "InvalidInput" {
					t.Errorf("%s %s If-Match %s: %d %s, want 400 InvalidInput", method, rk, v, w.Code, code)
				}
			}
			for _, v := range []string{never, `W/"wrong"`, `w/"wrong"`, `w/"datetime'2015-01-01T23%3A14%3A33.4980000Z'"`} {
				r := signed(s, method, ent, "", []byte(`{"V":1}`))
				r.Header.Set("If-Match", v)
				if want := map[string]int{"r": 412, "missing": 404}[rk]; serve(s, r).Code != want {
					t.Errorf("%s %s with the weak ETag %s never issued: want %d", method, rk, v, want)
				}
			}
		}
	}
	ct, body := aztablesBatch(t, []aztables.TransactionAction{
		act(aztables.TransactionTypeInsertMerge, "p", "a", ""),
		act(aztables.TransactionTypeUpdateMerge, "p", "r", "wrong"),
	})
	w := do(t, s, batchRequest(s, ct, body), http.StatusAccepted)
	if status, code, msg := innerError(t, w.Body.String()); status != "400 Bad Request" || code != "InvalidInput" || !strings.HasPrefix(msg, "1:") {
		t.Errorf("a transaction with a malformed If-Match: %s %s %q, want 400 InvalidInput at 1", status, code, msg)
	}
}

// TestNullsAndAnnotations holds R25 and R26: a null value, typed or not,
// is no property (a merge keeps the old value); annotations are not
// properties, whatever their term, nor are OData members (odata.*); a
// name that an @ begins or ends annotates nothing and is no identifier.
func TestNullsAndAnnotations(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	for _, tt := range []struct {
		members string
		code    string // the refusal's, "" for none
		want    string // the properties stored
	}{
		{`"V":null,"V@odata.type":"Edm.Int32"`, "", `{}`},
		{`"V@odata.type":"Edm.DateTime","V":null`, "", `{}`},
		{`"V":null`, "", `{}`},
		{`"X@custom.term":1,"X":2`, "", `{"X":2}`},
		{`"odata.foo":1,"Y":3`, "", `{"Y":3}`},
		{`"@x":1`, "PropertyNameInvalid", ""},
		{`"x@":1`, "PropertyNameInvalid", ""},
	} {
		w := serve(s, signed(s, http.MethodPut, "/t(PartitionKey='p',RowKey='r')", "", []byte(`{`+tt.members+`}`)))
		if tt.code != "" {
			if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != 400 || code != tt.code {
				t.Errorf("%s: %d %s, want 400 %s", tt.members, w.Code, code, tt.code)
			}
			continue
		}
		if w.Code != http.StatusNoContent {
			t.Fatalf("%s: %d %s", tt.members, w.Code, w.Body)
		}
		if got := "{" + string(s.store.Table("t").Get("p", "r").AppendFragment(nil)) + "}"; got != tt.want {
			t.Errorf("%s: stored %s, want %s", tt.members, got, tt.want)
		}
	}
	do(t, s, signed(s, http.MethodPut, "/t(PartitionKey='p',RowKey='r')", "", []byte(`{"V":1}`)), http.StatusNoContent)
	do(t, s, signed(s, "MERGE", "/t(PartitionKey='p',RowKey='r')", "", []byte(`{"V":null,"V@odata.type":"Edm.Int32","W":2}`)), http.StatusNoContent)
	if got := "{" + string(s.store.Table("t").Get("p", "r").AppendFragment(nil)) + "}"; got != `{"V":1,"W":2}` {
		t.Errorf("a merge of a typed null: stored %s, want the old value kept", got)
	}
}
