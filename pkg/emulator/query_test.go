package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// TestTopValues holds R6: $top is an integer of at least 0; 0 answers no
// entity and no continuation, a larger value a page of at most that many
// (1,000 at most), anything else 400 InvalidQueryParameterValue, for
// queries of entities and of tables alike.
func TestTopValues(t *testing.T) {
	s := newServer(t)
	fill(s, "t", []string{"a", "b"}, 3)
	tests := []struct {
		top  string
		n    int    // entities in the page
		cont bool   // a continuation follows
		code string // the refusal's code, "" for none
	}{
		{"", 6, false, ""},
		{"2", 2, true, ""},
		{"6", 6, false, ""},
		{"1000", 6, false, ""},
		{"1001", 0, false, "OutOfRangeQueryParameterValue"},
		{"5000", 0, false, "OutOfRangeQueryParameterValue"},
		{"0", 0, false, ""},
		{"-1", 0, false, "InvalidQueryParameterValue"},
		{"abc", 0, false, "InvalidQueryParameterValue"},
		{"1.5", 0, false, "InvalidQueryParameterValue"},
		{"+2", 0, false, "InvalidQueryParameterValue"},
	}
	for _, path := range []string{"/t()", "/Tables"} {
		if path == "/Tables" {
			for _, n := range []string{"tb", "tc", "td", "te", "tf"} {
				s.store.Create(n) // six tables, as the table t has six entities
			}
		}
		for _, tt := range tests {
			q := ""
			if tt.top != "" {
				q = "$top=" + url.QueryEscape(tt.top)
			}
			w := serve(s, signed(s, http.MethodGet, path, q, nil))
			if tt.code != "" {
				if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != 400 || code != tt.code {
					t.Errorf("%s $top=%s: %d %s, want 400 %s", path, tt.top, w.Code, code, tt.code)
				}
				continue
			}
			var page struct{ Value []json.RawMessage }
			if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &page) != nil {
				t.Fatalf("%s $top=%s: %d %s", path, tt.top, w.Code, w.Body)
			}
			cont := w.Header().Get("x-ms-continuation-NextPartitionKey") + w.Header().Get("x-ms-continuation-NextTableName")
			if len(page.Value) != tt.n || (cont != "") != tt.cont {
				t.Errorf("%s $top=%s: %d entities, continuation %q; want %d, %v", path, tt.top, len(page.Value), cont, tt.n, tt.cont)
			}
		}
	}
}
