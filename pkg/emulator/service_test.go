package emulator

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// rule is a CORS rule of a Set Table Service Properties body.
func rule(origins, methods, allowed, exposed, age string) string {
	return "<CorsRule><AllowedOrigins>" + origins + "</AllowedOrigins><AllowedMethods>" + methods + "</AllowedMethods><MaxAgeInSeconds>" +
		age + "</MaxAgeInSeconds><ExposedHeaders>" + exposed + "</ExposedHeaders><AllowedHeaders>" + allowed + "</AllowedHeaders></CorsRule>"
}

// setProps sends Set Table Service Properties and returns the answer.
func setProps(s *Server, body string) *httptest.ResponseRecorder {
	r := signed(s, http.MethodPut, "/", "restype=service&comp=properties", []byte(`<?xml version="1.0" encoding="utf-8"?>`+body))
	r.Header.Set("Content-Type", "application/xml")
	return serve(s, r)
}

// TestServiceProperties holds R12's properties: Set keeps what it is
// given (booleans in any case, as the legacy SDK writes them), leaves the
// elements it does not name as they were, replaces every CORS rule with a
// Cors element even empty, and refuses six rules, a rule out of its
// limits and retention days out of 1..365; Get answers what was set.
func TestServiceProperties(t *testing.T) {
	s := newServer(t)
	get := func() serviceProperties {
		t.Helper()
		w := do(t, s, signed(s, http.MethodGet, "/", "restype=service&comp=properties", nil), http.StatusOK)
		var p serviceProperties
		if err := xml.Unmarshal(w.Body.Bytes(), &p); err != nil {
			t.Fatalf("Get answered %s: %v", w.Body, err)
		}
		return p
	}
	if p := get(); p.Logging.Read != "false" || p.HourMetrics.Enabled != "false" || len(p.Cors.Rules) != 0 {
		t.Errorf("defaults: %+v", p)
	}
	w := setProps(s, `<StorageServiceProperties><Logging><Version>1.0</Version><Delete>True</Delete><Read>true</Read><Write>False</Write>`+
		`<RetentionPolicy><Enabled>true</Enabled><Days>3</Days></RetentionPolicy></Logging><HourMetrics><Version>1.0</Version><Enabled>true</Enabled>`+
		`<IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics>`+
		`<Cors>`+rule("https://app.example", "GET,PUT", "x-ms-meta-*,content-type", "x-ms-request-id", "600")+`</Cors></StorageServiceProperties>`)
	if w.Code != http.StatusAccepted {
		t.Fatalf("Set: %d %s", w.Code, w.Body)
	}
	p := get()
	if p.Logging.Delete != "True" || *p.Logging.Retention.Days != "3" || *p.HourMetrics.IncludeAPIs != "true" || len(p.Cors.Rules) != 1 ||
		p.Cors.Rules[0].AllowedHeaders != "x-ms-meta-*,content-type" || p.MinuteMetrics.Enabled != "false" {
		t.Errorf("after Set: %+v %+v %+v", p.Logging, p.HourMetrics, p.Cors)
	}
	setProps(s, `<StorageServiceProperties><Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write>`+
		`<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging></StorageServiceProperties>`)
	if p := get(); p.Logging.Delete != "false" || len(p.Cors.Rules) != 1 || p.HourMetrics.Enabled != "true" {
		t.Errorf("a Set without Cors or HourMetrics changed them: %+v %+v", p.HourMetrics, p.Cors)
	}
	for _, bad := range []struct{ what, body, code string }{
		{"six rules", `<StorageServiceProperties><Cors>` + strings.Repeat(rule("*", "GET", "", "", "1"), 6) + `</Cors></StorageServiceProperties>`, "InvalidXmlDocument"},
		{"a method", `<StorageServiceProperties><Cors>` + rule("*", "FETCH", "", "", "1") + `</Cors></StorageServiceProperties>`, "InvalidXmlNodeValue"},
		{"no origin", `<StorageServiceProperties><Cors>` + rule("", "GET", "", "", "1") + `</Cors></StorageServiceProperties>`, "InvalidXmlNodeValue"},
		{"three prefixes", `<StorageServiceProperties><Cors>` + rule("*", "GET", "a*,b*,c*", "", "1") + `</Cors></StorageServiceProperties>`, "InvalidXmlNodeValue"},
		{"an origin of 257", `<StorageServiceProperties><Cors>` + rule(strings.Repeat("o", 257), "GET", "", "", "1") + `</Cors></StorageServiceProperties>`, "InvalidXmlNodeValue"},
		{"a negative age", `<StorageServiceProperties><Cors>` + rule("*", "GET", "", "", "-1") + `</Cors></StorageServiceProperties>`, "InvalidXmlNodeValue"},
		{"366 days", `<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>true</Enabled><RetentionPolicy><Enabled>true</Enabled><Days>366</Days></RetentionPolicy></HourMetrics></StorageServiceProperties>`, "InvalidXmlDocument"},
		{"a Boolean", `<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>yes</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics></StorageServiceProperties>`, "InvalidXmlNodeValue"},
		{"not the document", `<SignedIdentifiers/>`, "InvalidXmlDocument"},
	} {
		w := setProps(s, bad.body)
		if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != 400 || code != bad.code {
			t.Errorf("%s: %d %s, want 400 %s", bad.what, w.Code, code, bad.code)
		}
	}
	if p := get(); len(p.Cors.Rules) != 1 {
		t.Errorf("a refused Set changed the rules: %+v", p.Cors)
	}
	setProps(s, `<StorageServiceProperties><Cors/></StorageServiceProperties>`)
	if p := get(); len(p.Cors.Rules) != 0 || p.HourMetrics.Enabled != "true" {
		t.Errorf("an empty Cors kept %d rules", len(p.Cors.Rules))
	}
}

// TestServiceStatsAndSecondary holds R12's secondary endpoint: Get Table
// Service Stats answers there (live, synchronised) and is refused on the
// primary; the secondary serves reads and refuses writes.
func TestServiceStatsAndSecondary(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"r"}`)), http.StatusNoContent)
	secondary := func(method, path, query string, body []byte) *http.Request {
		r := signed(s, method, path, query, body)
		u := "http://127.0.0.1/" + s.account + secondarySuffix + path
		if query != "" {
			u += "?" + query
		}
		r.URL, _ = url.Parse(u)
		return resign(s, r)
	}
	w := do(t, s, secondary(http.MethodGet, "/", "restype=service&comp=stats", nil), http.StatusOK)
	var st struct {
		Status   string `xml:"GeoReplication>Status"`
		LastSync string `xml:"GeoReplication>LastSyncTime"`
	}
	if err := xml.Unmarshal(w.Body.Bytes(), &st); err != nil || st.Status != "live" || st.LastSync == "" {
		t.Errorf("stats on the secondary: %s (%v)", w.Body, err)
	}
	w = serve(s, signed(s, http.MethodGet, "/", "restype=service&comp=stats", nil))
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != 400 || code != "InvalidQueryParameterValue" {
		t.Errorf("stats on the primary: %d %s", w.Code, code)
	}
	do(t, s, secondary(http.MethodGet, "/t(PartitionKey='p',RowKey='r')", "", nil), http.StatusOK)
	do(t, s, secondary(http.MethodGet, "/t()", "", nil), http.StatusOK)
	w = serve(s, secondary(http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"s"}`)))
	if code, _ := odataError(t, w.Body.Bytes(), w.Header()); w.Code != 403 || code != "InsufficientAccountPermissions" {
		t.Errorf("an insert on the secondary: %d %s", w.Code, code)
	}
	if n, _ := s.Rows("t"); n != 1 {
		t.Errorf("the secondary stored an entity: %d rows", n)
	}
}

// TestCors holds R12's CORS: a preflight is answered, unauthenticated,
// from the first rule allowing its origin, method and headers (200 with
// them and the rule's max age), 403 when none does or there is no rule,
// 400 without its CORS headers, each in Azure's words (R23); an answer to a request with an Origin a
// rule allows carries the origin and the exposed headers.
func TestCors(t *testing.T) {
	s := newServer(t)
	s.store.Create("t")
	do(t, s, signed(s, http.MethodPost, "/t", "", []byte(`{"PartitionKey":"p","RowKey":"r"}`)), http.StatusNoContent)
	preflight := func(origin, method, headers string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodOptions, "http://127.0.0.1/devstoreaccount1/t(PartitionKey='p',RowKey='r')", nil)
		for k, v := range map[string]string{"Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		return serve(s, r)
	}
	if w := preflight("https://app.example", "GET", ""); w.Code != http.StatusForbidden {
		t.Errorf("a preflight without rules: %d, want 403", w.Code)
	}
	setProps(s, `<StorageServiceProperties><Cors>`+rule("https://app.example", "GET,PUT", "x-ms-meta-*,content-type", "x-ms-request-id,x-ms-meta-*", "600")+
		rule("*", "DELETE", "", "", "5")+`</Cors></StorageServiceProperties>`)
	w := preflight("https://APP.example", "GET", "content-type,x-ms-meta-a")
	h := w.Header()
	if w.Code != http.StatusOK || h.Get("Access-Control-Allow-Origin") != "https://APP.example" || h.Get("Access-Control-Allow-Methods") != "GET" ||
		h.Get("Access-Control-Allow-Headers") != "content-type,x-ms-meta-a" || h.Get("Access-Control-Max-Age") != "600" || h.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("an allowed preflight: %d %v", w.Code, h)
	}
	for _, tt := range []struct {
		origin, method, headers string
		want                    int
	}{
		{"https://other.example", "GET", "", http.StatusForbidden},       // another origin
		{"https://app.example", "MERGE", "", http.StatusForbidden},       // a method no rule allows it
		{"https://app.example", "GET", "x-custom", http.StatusForbidden}, // a header not allowed
		{"https://other.example", "DELETE", "", http.StatusOK},           // the second rule: any origin
		{"https://app.example", "", "", http.StatusBadRequest},           // no request method
		{"", "GET", "", http.StatusBadRequest},                           // no origin
	} {
		w := preflight(tt.origin, tt.method, tt.headers)
		if w.Code != tt.want {
			t.Errorf("preflight %s %s %s: %d, want %d", tt.origin, tt.method, tt.headers, w.Code, tt.want)
		}
		if tt.want == http.StatusOK {
			continue
		}
		// R23: Azure's words for the refusal, its first line.
		_, msg := odataError(t, w.Body.Bytes(), w.Header())
		want := map[int]string{http.StatusForbidden: "CORS not enabled or no matching rule found for this request.",
			http.StatusBadRequest: "A required CORS header is not present."}[tt.want]
		if first, _, _ := strings.Cut(msg, "\n"); first != want {
			t.Errorf("preflight %s %s %s: message %q, want %q", tt.origin, tt.method, tt.headers, first, want)
		}
	}
	r := signed(s, http.MethodGet, "/t(PartitionKey='p',RowKey='r')", "", nil)
	r.Header.Set("Origin", "https://app.example")
	h = do(t, s, r, http.StatusOK).Header()
	if h.Get("Access-Control-Allow-Origin") != "https://app.example" || h.Get("Access-Control-Expose-Headers") != "x-ms-request-id" ||
		h.Get("Vary") != "Origin" || h.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("an answer to a browser: %v", h)
	}
	r = signed(s, http.MethodDelete, "/t(PartitionKey='p',RowKey='missing')", "", nil)
	r.Header.Set("Origin", "https://other.example")
	r.Header.Set("If-Match", "*")
	h = do(t, s, r, http.StatusNotFound).Header()
	if h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Vary") != "" {
		t.Errorf("an error answer under a rule for any origin: %v", h)
	}
	r = signed(s, http.MethodGet, "/t()", "", nil)
	r.Header.Set("Origin", "https://other.example")
	if h := do(t, s, r, http.StatusOK).Header(); h.Get("Access-Control-Allow-Origin") != "" || h.Get("Vary") != "Origin" {
		t.Errorf("an answer to an origin no rule allows: %v", h)
	}
	if h := do(t, s, signed(s, http.MethodGet, "/t()", "", nil), http.StatusOK).Header(); h.Get("Vary") != "" || h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("an answer without Origin: %v", h)
	}
}

// TestExposedHeaders: a rule's prefixes list the answer's headers they
// name, as Azure writes their names, and its named headers follow.
func TestExposedHeaders(t *testing.T) {
	h := http.Header{"X-Ms-Request-Id": nil, "X-Ms-Version": nil, "Etag": nil, "Content-Length": nil}
	got := exposedHeaders(corsRuleXML{ExposedHeaders: "x-ms-*, etag*,Server"}, h, []string{"Content-Type"})
	if want := "x-ms-request-id,x-ms-version,ETag,Server"; got != want {
		t.Errorf("exposed %q, want %q", got, want)
	}
}
