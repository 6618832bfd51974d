package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestSelectMissingProperties holds R1 (docs/conformance.md): a selected
// property the entity lacks is written as null, and an entity of which
// nothing selected is left is still valid JSON, at every metadata level,
// on a query and on a point read.
func TestSelectMissingProperties(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"a","S":"x","I":1}`)), http.StatusNoContent)
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"b"}`)), http.StatusNoContent)
	tests := []struct {
		sel  string
		want []map[string]any // the entities' properties besides odata.*
	}{
		{"Gone,Nope", []map[string]any{{"Gone": nil, "Nope": nil}, {"Gone": nil, "Nope": nil}}},
		{"S,Gone", []map[string]any{{"S": "x", "Gone": nil}, {"S": nil, "Gone": nil}}},
		{"RowKey,I,I", []map[string]any{{"RowKey": "a", "I": 1.0}, {"RowKey": "b", "I": nil}}},
		{",", []map[string]any{{}, {}}}, // nothing selected: nothing but annotations
	}
	for _, accept := range []string{"nometadata", "minimalmetadata", "fullmetadata"} {
		for _, tt := range tests {
			r := signed(s, http.MethodGet, "/t()", "$select="+url.QueryEscape(tt.sel), nil)
			r.Header.Set("Accept", "application/json;odata="+accept)
			body := do(t, s, r, http.StatusOK).Body.Bytes()
			var page struct{ Value []map[string]any }
			if err := json.Unmarshal(body, &page); err != nil {
				t.Fatalf("%s $select=%s: %v: %s", accept, tt.sel, err, body)
			}
			for i, e := range page.Value {
				if got := userMembers(e); !sameMembers(got, tt.want[i]) {
					t.Errorf("%s $select=%s: entity %d is %v, want %v", accept, tt.sel, i, got, tt.want[i])
				}
			}
			r = signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='b')", "$select="+url.QueryEscape(tt.sel), nil)
			r.Header.Set("Accept", "application/json;odata="+accept)
			var one map[string]any
			if body := do(t, s, r, http.StatusOK).Body.Bytes(); json.Unmarshal(body, &one) != nil {
				t.Errorf("%s point read $select=%s is not JSON: %s", accept, tt.sel, body)
			} else if got := userMembers(one); !sameMembers(got, tt.want[1]) {
				t.Errorf("%s point read $select=%s: %v, want %v", accept, tt.sel, got, tt.want[1])
			}
		}
	}
}

// userMembers drops an entity's odata.* and type annotation members.
func userMembers(e map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range e {
		if strings.HasPrefix(k, "odata.") || strings.Contains(k, "@") {
			continue
		}
		out[k] = v
	}
	return out
}

func sameMembers(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
