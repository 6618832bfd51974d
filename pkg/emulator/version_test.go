package emulator

import (
	"net/http"
	"testing"
)

// TestVersionChecked holds R13: an x-ms-version that names no version of
// the service is 400 InvalidHeaderValue, before authentication; the
// versions the SDKs send, and every other released one, are served, as is
// a request without the header. Azurite runs in the suite with
// --skipApiVersionCheck, so this test, not the suite, holds the refusal.
func TestVersionChecked(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	for _, tt := range []struct {
		version string
		want    int
	}{
		{"", http.StatusOK},
		{"2019-02-02", http.StatusOK}, // aztables, @azure/data-tables, azure-data-tables, Azure.Data.Tables
		{"2017-04-17", http.StatusOK}, // azure-cosmosdb-table
		{"2020-12-06", http.StatusOK}, // Azure.Data.Tables' other version
		{"2017-07-29", http.StatusOK}, // Microsoft.Azure.Cosmos.Table
		{"2009-09-19", http.StatusOK}, // the first Table service version
		{"invalid", http.StatusBadRequest},
		{"2019-02-03", http.StatusBadRequest}, // a date never released
		{"2019-02-02 ", http.StatusBadRequest},
	} {
		r := signed(s, http.MethodGet, "/t()", "", nil)
		if tt.version != "" {
			r.Header.Set("x-ms-version", tt.version)
		}
		w := serve(s, r)
		if w.Code != tt.want {
			t.Errorf("x-ms-version %q: %d, want %d", tt.version, w.Code, tt.want)
		} else if w.Code == http.StatusBadRequest {
			if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != "InvalidHeaderValue" {
				t.Errorf("x-ms-version %q: %s, want InvalidHeaderValue", tt.version, code)
			}
		}
	}
	r := signed(s, http.MethodGet, "/t()", "", nil)
	r.Header.Set("x-ms-version", "invalid")
	r.Header.Set("Authorization", "SharedKeyLite devstoreaccount1:bm90IGEgc2lnbmF0dXJl")
	if w := serve(s, r); w.Code != http.StatusBadRequest || w.Header().Get("x-ms-error-code") != "InvalidHeaderValue" {
		t.Errorf("a bad version and a bad signature: %d %s, want 400 InvalidHeaderValue first", w.Code, w.Header().Get("x-ms-error-code"))
	}
}
