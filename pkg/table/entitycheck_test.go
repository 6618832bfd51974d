package table

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCheckEntity(t *testing.T) {
	tests := []struct {
		entity string
		err    string // "" when accepted
	}{
		{`{"PartitionKey":"p","RowKey":"r"}`, ""},
		// White space anywhere JSON allows it; empty keys are valid keys.
		{" {\n \"PartitionKey\" : \"\" ,\t\"RowKey\":\"r\" } ", ""},
		// Nested objects and arrays, quotes and braces inside strings.
		{`{"A":{"PartitionKey":1},"B":[{"x":"}"}],"C":"\"{","PartitionKey":"p","RowKey":"r","N":-1.5e3,"T":true,"Z":null}`, ""},
		// Escaped names are what aztables decodes.
		{`{"Partition\u004bey":"p","RowKey":"r"}`, ""},
		{`{"PartitionKey":"p","Row\u004bey":7}`, "RowKey is not a string"},
		// Duplicate names: the last one counts, as in encoding/json.
		{`{"PartitionKey":1,"PartitionKey":"p","RowKey":"r"}`, ""},
		{`{"PartitionKey":"p","PartitionKey":1,"RowKey":"r"}`, "PartitionKey is not a string"},
		// What aztables would panic on or fail to encode.
		{`{"RowKey":"r"}`, "has no PartitionKey"},
		{`{"PartitionKey":"p"}`, "has no RowKey"},
		{`{"PartitionKey":null,"RowKey":"r"}`, "PartitionKey is not a string"},
		{`{"PartitionKey":"p","RowKey":{"x":"y"}}`, "RowKey is not a string"},
		// A key nested deeper does not count.
		{`{"X":{"PartitionKey":"p","RowKey":"r"}}`, "has no PartitionKey"},
		{`[{"PartitionKey":"p","RowKey":"r"}]`, "not a JSON object"},
		{`"PartitionKey"`, "not a JSON object"},
		{`{"PartitionKey":"p","RowKey":"r"`, "not a JSON object"},
		{`{"PartitionKey":"p" "RowKey":"r"}`, "not a JSON object"},
		{`{"PartitionKey":"p","RowKey":"r",}`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{``, "not a JSON object"},
		// Invalid JSON the scan does not notice: aztables' decoding refuses it
		// before sending (TestBadInputNotSent).
		{`{"PartitionKey":"p","RowKey":"r","V":tru}`, ""},
	}
	for _, tt := range tests {
		err := checkEntity([]byte(tt.entity))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("checkEntity(%s) = %v, want nil", tt.entity, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, ErrEntity)):
			t.Errorf("checkEntity(%s) = %v, want %q", tt.entity, err, tt.err)
		}
	}
}

func TestEntityKeysAndMembers(t *testing.T) {
	e := []byte(`{"odata.etag":"W/\"datetime'2026-11-22T12%3A00%3A00Z'\"","PartitionKey":"p\u00e9","RowKey":"r1","Timestamp":"2026-11-22T12:00:00Z"}`)
	pk, rk, ok := EntityKeys(e)
	if pk != "pé" || rk != "r1" || !ok {
		t.Errorf("EntityKeys = %q %q %v", pk, rk, ok)
	}
	if etag, ok := stringMember(e, "odata.etag"); etag != `W/"datetime'2026-11-22T12%3A00%3A00Z'"` || !ok {
		t.Errorf("odata.etag = %q %v", etag, ok)
	}
	if _, _, ok := EntityKeys([]byte(`{"PartitionKey":"p","RowKey":3}`)); ok {
		t.Error("EntityKeys accepted a number RowKey")
	}
	if _, ok := stringMember([]byte(`{"a":"b"`), "a"); ok {
		t.Error("stringMember read a truncated object")
	}
}

// FuzzCheckEntity: checkEntity never panics, and for any text that decodes
// as aztables decodes it, it accepts exactly the objects with string
// PartitionKey and RowKey: aztables' type assertions cannot panic on what
// it accepts, and it refuses nothing aztables could send. (Text that does
// not decode fails in aztables before sending.) EntityKeys agrees.
func FuzzCheckEntity(f *testing.F) {
	f.Add([]byte(`{"PartitionKey":"p","RowKey":"r","V":1}`))
	f.Add([]byte(`{"Partition\u004bey":"p","RowKey":"r"}`))
	f.Add([]byte(`{"PartitionKey":1,"PartitionKey":"p","RowKey":"r"}`))
	f.Add([]byte(`{"X":{"PartitionKey":"p"},"RowKey":"r"}`))
	f.Fuzz(func(t *testing.T, entity []byte) {
		err := checkEntity(entity)
		var obj map[string]any
		decodeErr := json.Unmarshal(entity, &obj)
		pk, pkOK := obj["PartitionKey"].(string)
		rk, rkOK := obj["RowKey"].(string)
		if decodeErr != nil {
			return
		}
		if (err == nil) != (pkOK && rkOK) {
			t.Fatalf("checkEntity(%q) = %v; decoding: %v, PartitionKey ok %v, RowKey ok %v", entity, err, decodeErr, pkOK, rkOK)
		}
		if err == nil && !strings.Contains(string(entity), `\`) {
			gpk, grk, ok := EntityKeys(entity)
			if !ok || gpk != pk || grk != rk {
				t.Fatalf("EntityKeys(%q) = %q %q %v, want %q %q", entity, gpk, grk, ok, pk, rk)
			}
		}
	})
}
