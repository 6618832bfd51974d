package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// odataError reads an error answer: the x-ms-error-code header must match
// the body's code, and the message must end with Azure's RequestId and
// Time lines.
func odataError(t *testing.T, body []byte, header http.Header) (code, msg string) {
	t.Helper()
	var e struct {
		Err struct {
			Code    string `json:"code"`
			Message struct {
				Lang  string `json:"lang"`
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if h := header.Get("x-ms-error-code"); h != e.Err.Code {
		t.Errorf("x-ms-error-code %q, body code %q", h, e.Err.Code)
	}
	if e.Err.Message.Lang != "en-US" || !regexp.MustCompile(`\nRequestId:[0-9a-f-]{36}\nTime:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$`).MatchString(e.Err.Message.Value) {
		t.Errorf("message %q lacks Azure's RequestId and Time lines", e.Err.Message.Value)
	}
	return e.Err.Code, e.Err.Message.Value
}

func TestTableNames(t *testing.T) {
	tests := []struct {
		name string
		code string // "" when valid
	}{
		{"abc", ""},                                        // shortest
		{"A" + strings.Repeat("b1", 31), ""},               // 63 characters
		{"ab", "OutOfRangeInput"},                          // too short
		{"a" + strings.Repeat("b", 63), "OutOfRangeInput"}, // 64 characters
		{"1abc", "InvalidResourceName"},                    // starts with a digit
		{"ab-c", "InvalidResourceName"},                    // dash
		{"ab_c", "InvalidResourceName"},                    // underscore
		{"abcé", "InvalidResourceName"},                    // not ASCII
		{"Tables", "InvalidResourceName"},                  // reserved
	}
	for _, tt := range tests {
		s := newServer(t)
		w := serve(s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"`+tt.name+`"}`)))
		switch {
		case tt.code == "" && w.Code != http.StatusNoContent:
			t.Errorf("%q: %d %s, want 204", tt.name, w.Code, w.Body)
		case tt.code != "" && w.Code != http.StatusBadRequest:
			t.Errorf("%q: %d, want 400 %s", tt.name, w.Code, tt.code)
		case tt.code != "":
			if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != tt.code {
				t.Errorf("%q: %s, want %s", tt.name, code, tt.code)
			}
		}
	}
}

func TestTableLifecycle(t *testing.T) {
	s := newServer(t)
	r := signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"Orders"}`))
	r.Header.Del("Prefer")
	w := do(t, s, r, http.StatusCreated)
	if want := `{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#Tables/@Element","TableName":"Orders"}`; w.Body.String() != want {
		t.Errorf("create answered %s, want %s", w.Body, want)
	}
	w = do(t, s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"orders"}`)), http.StatusConflict)
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != "TableAlreadyExists" {
		t.Errorf("names differing in case: %s, want TableAlreadyExists", code)
	}
	w = do(t, s, signed(s, http.MethodPost, "/nosuch", "", []byte(`{"PartitionKey":"a","RowKey":"b"}`)), http.StatusNotFound)
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != "TableNotFound" {
		t.Errorf("insert into a missing table: %s", code)
	}
	do(t, s, signed(s, http.MethodDelete, "/Tables('ORDERS')", "", nil), http.StatusNoContent)
	w = do(t, s, signed(s, http.MethodDelete, "/Tables('Orders')", "", nil), http.StatusNotFound)
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != "ResourceNotFound" {
		t.Errorf("delete of a missing table: %s", code)
	}
}

func TestListTablesPaging(t *testing.T) {
	s := newServer(t)
	for _, n := range []string{"alpha", "beta", "gamma", "delta", "omega"} {
		do(t, s, signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"`+n+`"}`)), http.StatusNoContent)
	}
	var got []string
	next := ""
	for pages := 0; pages < 10; pages++ {
		q := "$top=2&$filter=" + url.QueryEscape("TableName ge 'b' and TableName lt 'p'")
		if next != "" {
			q += "&NextTableName=" + url.QueryEscape(next)
		}
		w := do(t, s, signed(s, http.MethodGet, "/Tables()", q, nil), http.StatusOK)
		var page struct{ Value []struct{ TableName string } }
		json.Unmarshal(w.Body.Bytes(), &page)
		var names []string
		for _, v := range page.Value {
			names = append(names, v.TableName)
		}
		got = append(got, strings.Join(names, ","))
		if next = w.Header().Get("x-ms-continuation-NextTableName"); next == "" {
			break
		}
	}
	if want := "beta,delta|gamma,omega"; strings.Join(got, "|") != want {
		t.Errorf("pages %v, want %s", got, want)
	}
}

func TestETagsAndConditions(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	ent := "/t(PartitionKey='p',RowKey='r')"
	w := do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"r","A":1}`)), http.StatusNoContent)
	e1 := w.Header().Get("ETag")
	if !regexp.MustCompile(`^W/"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{7}Z'"$`).MatchString(e1) {
		t.Fatalf("ETag %q is not Azure's form", e1)
	}
	put := func(method, ifMatch string, want int) string {
		r := signed(s, method, ent, "", []byte(`{"B":2}`))
		if ifMatch != "" {
			r.Header.Set("If-Match", ifMatch)
		}
		return do(t, s, r, want).Header().Get("ETag")
	}
	e2 := put("MERGE", e1, http.StatusNoContent)
	if e2 == e1 || e2 == "" {
		t.Errorf("a merge kept the ETag %q", e1)
	}
	w = serve(s, func() *http.Request {
		r := signed(s, http.MethodPut, ent, "", []byte(`{}`))
		r.Header.Set("If-Match", e1)
		return r
	}())
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != http.StatusPreconditionFailed || code != "UpdateConditionNotSatisfied" {
		t.Errorf("stale ETag: %d %s", w.Code, code)
	}
	e3 := put(http.MethodPatch, "*", http.StatusNoContent)
	get := do(t, s, signed(s, http.MethodGet, ent, "", nil), http.StatusOK)
	if get.Header().Get("ETag") != e3 || !strings.Contains(get.Body.String(), `"A":1,"B":2`) {
		t.Errorf("read ETag %q (want %q), body %s", get.Header().Get("ETag"), e3, get.Body)
	}
	put(http.MethodPut, "", http.StatusNoContent) // insert-or-replace drops A
	if body := do(t, s, signed(s, http.MethodGet, ent, "", nil), http.StatusOK).Body.String(); strings.Contains(body, `"A"`) {
		t.Errorf("replace kept A: %s", body)
	}
	r := signed(s, http.MethodPut, "/t(PartitionKey='p',RowKey='missing')", "", []byte(`{}`))
	r.Header.Set("If-Match", "*")
	w = serve(s, r)
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != http.StatusNotFound || code != "ResourceNotFound" {
		t.Errorf("update of a missing entity: %d %s", w.Code, code)
	}
	do(t, s, signed(s, http.MethodDelete, ent, "", nil), http.StatusBadRequest) // Delete needs If-Match
	r = signed(s, http.MethodDelete, ent, "", nil)
	r.Header.Set("If-Match", e1)
	do(t, s, r, http.StatusPreconditionFailed)
	r = signed(s, http.MethodDelete, ent, "", nil)
	r.Header.Set("If-Match", "*")
	do(t, s, r, http.StatusNoContent)
	if n, _ := s.Rows("t"); n != 0 {
		t.Errorf("%d entities after the delete", n)
	}
}

func TestMetadataLevels(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"r'1","L":"5","L@odata.type":"Edm.Int64","S":"x"}`)), http.StatusNoContent)
	tests := []struct {
		accept string
		want   []string // members in order
	}{
		{"application/json;odata=nometadata", []string{"PartitionKey", "RowKey", "Timestamp", "L", "S"}},
		{"application/json;odata=minimalmetadata", []string{"odata.metadata", "odata.etag", "PartitionKey", "RowKey", "Timestamp", "L@odata.type", "L", "S"}},
		{"application/json;odata=fullmetadata", []string{"odata.metadata", "odata.type", "odata.id", "odata.etag", "odata.editLink", "PartitionKey", "RowKey", "Timestamp@odata.type", "Timestamp", "L@odata.type", "L", "S"}},
	}
	for _, tt := range tests {
		r := signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='r''1')", "", nil)
		r.Header.Set("Accept", tt.accept)
		body := do(t, s, r, http.StatusOK).Body.String()
		dec := json.NewDecoder(strings.NewReader(body))
		dec.Token()
		var got []string
		for dec.More() {
			k, _ := dec.Token()
			var v any
			dec.Decode(&v)
			got = append(got, k.(string))
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: %v, want %v\n%s", tt.accept, got, tt.want, body)
		}
		if strings.Contains(tt.accept, "full") && !strings.Contains(body, `"odata.editLink":"t(PartitionKey='p',RowKey='r''1')"`) {
			t.Errorf("full metadata edit link: %s", body)
		}
	}
}

func TestRoutesAndMethods(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	tests := []struct {
		method, path string
		status       int
		code         string
	}{
		{http.MethodGet, "/t(PartitionKey='a')", 400, "InvalidInput"},                  // a key missing
		{http.MethodGet, "/t(PartitionKey='a',RowKey='b'", 400, "InvalidInput"},        // unclosed
		{http.MethodGet, "/t(PartitionKey='a',RowKey='b',X='c')", 400, "InvalidInput"}, // extra key
		{http.MethodGet, "/a/b", 400, "InvalidInput"},                                  // not a resource
		{http.MethodGet, "/Tables('')", 404, "ResourceNotFound"},                       // GET of no table
		{http.MethodGet, "/Tables('t')", 200, ""},                                      // GET of one table (the legacy SDK's exists())
		{http.MethodGet, "/Tables('nope')", 404, "ResourceNotFound"},                   // GET of a missing one
		{http.MethodPut, "/Tables('t')", 405, "UnsupportedHttpVerb"},                   // PUT of one table
		{http.MethodPost, "/t?comp=acl", 405, "UnsupportedHttpVerb"},                   // POST of an ACL
		{http.MethodGet, "/nope?comp=acl", 404, "TableNotFound"},                       // ACL of a missing table
		{http.MethodGet, "/Tables(')", 400, "InvalidInput"},                            // half a quote
		{http.MethodPut, "/t", 405, "UnsupportedHttpVerb"},                             // PUT on a table
		{http.MethodGet, "/$batch", 405, "UnsupportedHttpVerb"},                        // GET of $batch

	}
	for _, tt := range tests {
		path, query, _ := strings.Cut(tt.path, "?")
		u := &url.URL{Scheme: "http", Host: "127.0.0.1", RawPath: "/" + s.account + path, Path: "/" + s.account + path, RawQuery: query}
		r := signed(s, tt.method, "", "", nil)
		r.URL = u
		r = resign(s, r)
		w := serve(s, r)
		code := ""
		if w.Code >= 400 {
			code, _ = odataError(t, w.Body.Bytes(), w.Header())
		}
		if w.Code != tt.status || code != tt.code {
			t.Errorf("%s %s: %d %s, want %d %s", tt.method, tt.path, w.Code, code, tt.status, tt.code)
		}
	}
	r := signed(s, http.MethodGet, "/t()", "", nil)
	r.URL.Path = "/otheraccount/t()"
	if w := serve(s, r); w.Code != http.StatusBadRequest {
		t.Errorf("another account's path: %d, want 400", w.Code)
	}
}

// Insert Entity and Create Table honour Prefer and say so in
// Preference-Applied (REST "Insert Entity").
func TestPreferenceApplied(t *testing.T) {
	tests := []struct {
		prefer  string
		status  int
		applied string
	}{
		{"return-content", http.StatusCreated, "return-content"},
		{"return-no-content", http.StatusNoContent, "return-no-content"},
		{"", http.StatusCreated, "return-content"}, // the default: the content
	}
	for i, tt := range tests {
		s := newServer(t)
		for _, r := range []*http.Request{
			signed(s, http.MethodPost, "/Tables", "", []byte(`{"TableName":"pref"}`)),
			signed(s, http.MethodPost, "/pref", "", []byte(`{"PartitionKey":"a","RowKey":"b","V":1}`)),
		} {
			r.Header.Set("Prefer", tt.prefer)
			w := do(t, s, r, tt.status)
			if got := w.Header().Get("Preference-Applied"); got != tt.applied {
				t.Errorf("row %d %s: Preference-Applied %q, want %q", i, r.URL.Path, got, tt.applied)
			}
			if (tt.status == http.StatusCreated) != (w.Body.Len() > 0) {
				t.Errorf("row %d %s: %d with a body of %d bytes", i, r.URL.Path, w.Code, w.Body.Len())
			}
		}
	}
}
