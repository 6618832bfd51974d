package emulator

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// Keys and entities at and over Azure's limits (REST "Understanding the
// Table service data model"), with the codes of "Table service error codes".
func TestEntityKeysAndLimits(t *testing.T) {
	many := make([]string, 253)
	for i := range many {
		many[i] = fmt.Sprintf(`"P%d":1`, i)
	}
	tests := []struct {
		body string
		code string // "" for success
	}{
		{`{"PartitionKey":"a","RowKey":"b"}`, ""},                                                               // plain
		{`{"PartitionKey":"","RowKey":""}`, ""},                                                                 // empty keys are allowed
		{`{"PartitionKey":"` + strings.Repeat("k", 512) + `","RowKey":"b"}`, ""},                                // 1 KiB of UTF-16
		{`{"PartitionKey":"` + strings.Repeat("k", 513) + `","RowKey":"b"}`, "KeyValueTooLarge"},                // over 1 KiB
		{`{"PartitionKey":"a","RowKey":"` + strings.Repeat("日", 400) + `"}`, ""},                                // 800 bytes of UTF-16, 1,200 of UTF-8
		{`{"PartitionKey":"a","RowKey":"` + strings.Repeat("日", 513) + `"}`, "KeyValueTooLarge"},                // 513 units
		{`{"PartitionKey":"a","RowKey":"` + strings.Repeat("\U0001F600", 256) + `"}`, ""},                       // 256 surrogate pairs: 512 units
		{`{"PartitionKey":"a","RowKey":"` + strings.Repeat("k", 511) + "\U0001F600" + `"}`, "KeyValueTooLarge"}, // 511 + 2 units
		{`{"PartitionKey":"a/b","RowKey":"b"}`, "InvalidInput"},                                                 // slash
		{`{"PartitionKey":"a","RowKey":"b\\c"}`, "InvalidInput"},                                                // backslash
		{`{"PartitionKey":"a#","RowKey":"b"}`, "InvalidInput"},                                                  // hash
		{`{"PartitionKey":"a","RowKey":"?"}`, "InvalidInput"},                                                   // question mark
		{`{"PartitionKey":"a\u0001","RowKey":"b"}`, "InvalidInput"},                                             // C0 control
		{`{"PartitionKey":"a","RowKey":"b\u007f"}`, "InvalidInput"},                                             // DEL
		{`{"PartitionKey":"a","RowKey":"b\u0085"}`, "InvalidInput"},                                             // C1 control
		{`{"PartitionKey":1,"RowKey":"b"}`, "InvalidInput"},                                                     // not a string
		{`{"RowKey":"b"}`, "PropertiesNeedValue"},                                                               // no PartitionKey
		{`{"PartitionKey":"a","RowKey":"b","N":"x","N@odata.type":"Edm.Int64"}`, "InvalidInput"},                // bad Int64
		{`{"PartitionKey":"a","RowKey":"b","N":[1]}`, "InvalidInput"},                                           // array value
		{`{"PartitionKey":"a","RowKey":"b","bad name":1}`, "PropertyNameInvalid"},                               // not a C# identifier
		{`{"PartitionKey":"a","RowKey":"b","1a":1}`, "PropertyNameInvalid"},                                     // starts with a digit
		{`{"PartitionKey":"a","RowKey":"b","` + strings.Repeat("n", 255) + `":1}`, ""},                          // 255 characters
		{`{"PartitionKey":"a","RowKey":"b","` + strings.Repeat("n", 256) + `":1}`, "PropertyNameTooLong"},
		{`{"PartitionKey":"a","RowKey":"b",` + strings.Join(many[:252], ",") + `}`, ""}, // 252 + 3 system properties
		{`{"PartitionKey":"a","RowKey":"b",` + strings.Join(many, ",") + `}`, "TooManyProperties"},
		{`{"PartitionKey":"a","RowKey":"b","D":"` + strings.Repeat("x", 32768) + `"}`, ""},                               // 64 KiB of UTF-16
		{`{"PartitionKey":"a","RowKey":"b","D":"` + strings.Repeat("x", 32769) + `"}`, "PropertyValueTooLarge"},          // one more
		{`{"PartitionKey":"a","RowKey":"b","D":"` + strings.Repeat("\U0001F600", 16384) + `"}`, ""},                      // surrogate pairs: 32,768 units
		{`{"PartitionKey":"a","RowKey":"b","D":"` + strings.Repeat("\U0001F600", 16385) + `"}`, "PropertyValueTooLarge"}, // 32,770 units in 65,540 bytes of UTF-8
		{`{"PartitionKey":"a","RowKey":"b","D":"` + strings.Repeat("\u00e9", 32769) + `"}`, "PropertyValueTooLarge"},
		{`{"PartitionKey":"a","RowKey":"b","D@odata.type":"Edm.Binary","D":"` + zeroBinary(65536) + `"}`, ""},
		{`{"PartitionKey":"a","RowKey":"b","D@odata.type":"Edm.Binary","D":"` + zeroBinary(65537) + `"}`, "PropertyValueTooLarge"},
		{`{"PartitionKey":"a","RowKey":"b","D":"` + strings.Repeat("x", 1<<20) + `"}`, "PropertyValueTooLarge"},
		{`{"PartitionKey":"a","RowKey":"b",` + bigStrings(15) + `}`, ""},                               // 15 × 64 KiB: under 1 MiB
		{`{"PartitionKey":"a","RowKey":"b",` + bigStrings(16) + `}`, "EntityTooLarge"},                 // 16 × 64 KiB and names: over, in 0.5 MiB of JSON
		{`{"PartitionKey":"a","RowKey":"b",` + strings.ReplaceAll(bigStrings(15), "x", "é") + `}`, ""}, // 15 × 32,768 units in 983,040 bytes of UTF-8: under
		{`not json`, "InvalidInput"},
	}
	for i, tt := range tests {
		s := newServer(t)
		s.store.Create("t")
		w := serve(s, signed(s, http.MethodPost, "/t", "", []byte(tt.body)))
		if tt.code == "" {
			if w.Code != http.StatusNoContent {
				t.Errorf("row %d: %d %s, want 204", i, w.Code, w.Body)
			}
			continue
		}
		if w.Code != http.StatusBadRequest {
			t.Errorf("row %d: %d, want 400 %s", i, w.Code, tt.code)
			continue
		}
		if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != tt.code {
			t.Errorf("row %d: %s, want %s", i, code, tt.code)
		}
	}
}

// zeroBinary is n zero bytes as a base64 value.
func zeroBinary(n int) string { return base64.StdEncoding.EncodeToString(make([]byte, n)) }

// bigStrings is n properties of 32,768 characters each.
func bigStrings(n int) string {
	var b []string
	for i := range n {
		b = append(b, fmt.Sprintf(`"S%d":"%s"`, i, strings.Repeat("x", 32768)))
	}
	return strings.Join(b, ",")
}

// The size bound checkEntity tries first is never below the exact size,
// and equals it for ASCII.
func TestEntitySizeBound(t *testing.T) {
	for _, body := range []string{
		`{"S":"abc","I":1,"L":"5","L@odata.type":"Edm.Int64","D":1.5,"B":true}`,
		`{"S":"é日本🙂","Bin":"AAEC/v8=","Bin@odata.type":"Edm.Binary","G":"0f8fad5b-d9cb-469f-a165-70867728950e","G@odata.type":"Edm.Guid"}`,
		`{"S":"a\"b\u00e9"}`,
	} {
		_, _, _, props, err := parseBody([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		bound, exact := entitySize("pk", "rk", props, false), entitySize("pk", "rk", props, true)
		if bound < exact {
			t.Errorf("%s: bound %d below the exact size %d", body, bound, exact)
		}
	}
	_, _, _, props, _ := parseBody([]byte(`{"S":"abc","I":1,"B":true,"Bin":"AAEC/v8=","Bin@odata.type":"Edm.Binary"}`))
	// 4 + 2×4 (keys) + S: 8+2+4+6 + I: 8+2+4 + B: 8+2+1 + Bin: 8+6+4+5
	if got, want := entitySize("pk", "rk", props, true), 4+8+20+14+11+23; got != want {
		t.Errorf("exact size %d, want %d", got, want)
	}
}

// TestTypeValue: typeValue reads what jsontext.StringValue reads, and
// reads the name of an Edm type without a copy.
func TestTypeValue(t *testing.T) {
	raws := []string{`"Edm.Strin"`, `"Edm.Int64 "`, `"edm.int64"`, `"Edm.Int6\u0034"`, `null`, `1`, `""`, `"x"`}
	for _, typ := range edmTypes {
		raws = append(raws, `"`+typ+`"`)
	}
	for _, raw := range raws {
		gs, gok := typeValue([]byte(raw))
		ws, wok := jsontext.StringValue([]byte(raw))
		if gs != ws || gok != wok {
			t.Errorf("%s: %q %v, want (StringValue) %q %v", raw, gs, gok, ws, wok)
		}
	}
	for _, typ := range edmTypes {
		raw := []byte(`"` + typ + `"`)
		if n := testing.AllocsPerRun(100, func() { typeValue(raw) }); n != 0 {
			t.Errorf("%s: %v allocations, want 0", typ, n)
		}
	}
}
