package emulator

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// Tokens the SDKs generated for the development account (valid
// 2026-01-01..2027-01-01): the golden vectors of Azure's string-to-sign,
// computed by code nobody here wrote.
const (
	// azure-data-tables 12.4.2 generate_table_sas: sp=ra, keys (b,2)..(d,*).
	pyTableSAS = "st=2026-01-01T00%3A00%3A00Z&se=2027-01-01T00%3A00%3A00Z&sp=ra&sv=2019-02-02&tn=SasTable&spk=b&srk=2&epk=d&sig=ZPpD5N7XMojbR32BG9baPU4111qln5JfH0z3zo%2B7t1A%3D"
	// azure-data-tables 12.4.2 generate_account_sas: sp=rla, srt=o.
	pyAccountSAS = "st=2026-01-01T00%3A00%3A00Z&se=2027-01-01T00%3A00%3A00Z&sp=rla&sv=2019-02-02&ss=t&srt=o&sig=ui7JA4Z4AYxGK4XniLkxYugsCBZykuL2KQTaH%2Bi5wsc%3D"
	// azure-cosmosdb-table 1.0.5, version 2017-04-17: sp=raud, keys b..d.
	legacyTableSAS = "st=2026-01-01T00%3A00%3A00Z&se=2027-01-01T00%3A00%3A00Z&sp=raud&sv=2017-04-17&tn=SasTable&spk=b&epk=d&sig=tTtd6n8KruRHVCeUppQpRHpenQvxQWKVgaEh8xH4u3Y%3D"
	// azure-cosmosdb-table 1.0.5: sp=rl, srt=co.
	legacyAccountSAS = "st=2026-01-01T00%3A00%3A00Z&se=2027-01-01T00%3A00%3A00Z&sp=rl&sv=2017-04-17&ss=t&srt=co&sig=ZkBQc6zL6jzKAW7y5pV9h/QOXmfd7FvL3nk5iYiDpnk%3D"
	// azure-cosmosdb-table 1.0.5: the stored access policy policy1 only.
	legacyPolicySAS = "sv=2017-04-17&si=policy1&tn=SasTable&sig=e7gnx99RcbyLfgoI9CycVbHm2cYfTkR92aLCfWSQBS8%3D"
)

// sasServer is a service whose clock reads now, with table SasTable
// holding entities (a,1) (b,1) (b,3) (c,1) (e,1).
func sasServer(t *testing.T, now time.Time) *Server {
	t.Helper()
	s, err := New(Config{Model: model.Off(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	s.store.Create("SasTable")
	for _, k := range [][2]string{{"a", "1"}, {"b", "1"}, {"b", "3"}, {"c", "1"}, {"e", "1"}} {
		do(t, s, signed(s, http.MethodPost, "/SasTable", "", []byte(`{"PartitionKey":"`+k[0]+`","RowKey":"`+k[1]+`"}`)), http.StatusNoContent)
	}
	return s
}

// sasRequest is a request authorized by a SAS token alone.
func sasRequest(s *Server, method, path, token string, body []byte) *http.Request {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	r := httptest.NewRequest(method, "http://127.0.0.1/"+s.account+path+sep+token, bytes.NewReader(body))
	r.RemoteAddr = "127.0.0.1:40000"
	r.Header.Set("Accept", "application/json;odata=nometadata")
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Prefer", "return-no-content")
	return r
}

// answer is a response as "STATUS CODE", or "STATUS" on success.
func answer(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	if w.Code < 400 {
		return http.StatusText(w.Code)
	}
	code, _ := odataError(t, w.Body.Bytes(), w.Header())
	return code
}

var june2026 = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func TestSASPermissionsAndRanges(t *testing.T) {
	ent := func(pk, rk string) []byte { return []byte(`{"PartitionKey":"` + pk + `","RowKey":"` + rk + `"}`) }
	tests := []struct {
		name, token, method, path string
		body                      []byte
		want                      string
	}{
		{"table SAS: query", pyTableSAS, "GET", "/SasTable()", nil, "OK"},
		{"table SAS: point read in range", pyTableSAS, "GET", "/SasTable(PartitionKey='b',RowKey='3')", nil, "OK"},
		{"table SAS: point read below srk", pyTableSAS, "GET", "/SasTable(PartitionKey='b',RowKey='1')", nil, "AuthorizationFailure"},
		{"table SAS: point read past epk", pyTableSAS, "GET", "/SasTable(PartitionKey='e',RowKey='1')", nil, "AuthorizationFailure"},
		{"table SAS: insert in range", pyTableSAS, "POST", "/SasTable", ent("c", "2"), "No Content"},
		{"table SAS: insert out of range", pyTableSAS, "POST", "/SasTable", ent("a", "2"), "AuthorizationFailure"},
		{"table SAS: table name in another case", pyTableSAS, "GET", "/sastable()", nil, "OK"},
		{"table SAS: upsert needs update", pyTableSAS, "PUT", "/SasTable(PartitionKey='c',RowKey='1')", ent("c", "1"), "AuthorizationPermissionMismatch"},
		{"table SAS: delete", pyTableSAS, "DELETE", "/SasTable(PartitionKey='c',RowKey='1')", nil, "AuthorizationPermissionMismatch"},
		{"table SAS: another table", pyTableSAS, "GET", "/Other()", nil, "AuthorizationFailure"},
		{"table SAS: list tables", pyTableSAS, "GET", "/Tables", nil, "AuthorizationFailure"},
		{"table SAS: create table", pyTableSAS, "POST", "/Tables", []byte(`{"TableName":"New1"}`), "AuthorizationFailure"},
		{"table SAS: get ACL", pyTableSAS, "GET", "/SasTable?comp=acl", nil, "AuthorizationFailure"},
		{"legacy table SAS: delete in range", legacyTableSAS, "DELETE", "/SasTable(PartitionKey='c',RowKey='1')", nil, "No Content"},
		{"legacy table SAS: upsert in range", legacyTableSAS, "PUT", "/SasTable(PartitionKey='d',RowKey='9')", ent("d", "9"), "No Content"},
		{"legacy table SAS: whole partition b", legacyTableSAS, "GET", "/SasTable(PartitionKey='b',RowKey='1')", nil, "OK"},
		{"account SAS: query", pyAccountSAS, "GET", "/SasTable()", nil, "OK"},
		{"account SAS: insert", pyAccountSAS, "POST", "/SasTable", ent("z", "1"), "No Content"},
		{"account SAS: delete entity", pyAccountSAS, "DELETE", "/SasTable(PartitionKey='a',RowKey='1')", nil, "AuthorizationPermissionMismatch"},
		{"account SAS: list tables, srt=o", pyAccountSAS, "GET", "/Tables", nil, "AuthorizationResourceTypeMismatch"},
		{"legacy account SAS: list tables", legacyAccountSAS, "GET", "/Tables", nil, "OK"},
		{"legacy account SAS: create table", legacyAccountSAS, "POST", "/Tables", []byte(`{"TableName":"New2"}`), "AuthorizationPermissionMismatch"},
		{"legacy account SAS: insert", legacyAccountSAS, "POST", "/SasTable", ent("z", "2"), "AuthorizationPermissionMismatch"},
		{"legacy account SAS: set ACL", legacyAccountSAS, "PUT", "/SasTable?comp=acl", nil, "AuthorizationFailure"},
		{"signature changed", strings.Replace(pyTableSAS, "sig=Z", "sig=Y", 1), "GET", "/SasTable()", nil, "AuthenticationFailed"},
		{"permissions widened", strings.Replace(pyTableSAS, "sp=ra", "sp=raud", 1), "GET", "/SasTable()", nil, "AuthenticationFailed"},
		{"range widened", strings.Replace(pyTableSAS, "epk=d", "epk=z", 1), "GET", "/SasTable()", nil, "AuthenticationFailed"},
		{"no signature", "sv=2019-02-02&tn=SasTable&sp=r", "GET", "/SasTable()", nil, "AuthenticationFailed"},
		{"https only", "sv=2019-02-02&tn=SasTable&sp=r&spr=https&sig=x", "GET", "/SasTable()", nil, "AuthenticationFailed"},
	}
	for _, tt := range tests {
		s := sasServer(t, june2026)
		r := sasRequest(s, tt.method, tt.path, tt.token, tt.body)
		if tt.method == "DELETE" {
			r.Header.Set("If-Match", "*")
		}
		if got := answer(t, serve(s, r)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// A query through a SAS with a key range returns what lies in the range.
func TestSASQueryKeepsToItsRange(t *testing.T) {
	s := sasServer(t, june2026)
	w := do(t, s, sasRequest(s, "GET", "/SasTable()", pyTableSAS, nil), http.StatusOK)
	var got []string
	for _, e := range strings.Split(w.Body.String(), `{"PartitionKey":`)[1:] {
		got = append(got, e[:strings.Index(e, `,"Timestamp"`)])
	}
	if want := `"b","RowKey":"3" "c","RowKey":"1"`; strings.Join(got, " ") != want {
		t.Errorf("returned %s, want %s", strings.Join(got, " "), want)
	}
}

// A SAS is honoured from its start to its expiry and not outside them.
func TestSASTimeFrame(t *testing.T) {
	for _, tt := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2025, 12, 31, 23, 59, 59, 0, time.UTC), "AuthenticationFailed"},
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "OK"},
		{time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC), "OK"},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "AuthenticationFailed"},
	} {
		s := sasServer(t, tt.now)
		if got := answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", pyAccountSAS, nil))); got != tt.want {
			t.Errorf("at %s: %s, want %s", tt.now, got, tt.want)
		}
	}
}

// A SAS naming a stored access policy gets the policy's permissions and
// time frame, and nothing once the policy is removed.
func TestSASStoredPolicy(t *testing.T) {
	s := sasServer(t, june2026)
	get := func() string { return answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", legacyPolicySAS, nil))) }
	setACL := func(xml string) {
		t.Helper()
		do(t, s, signed(s, http.MethodPut, "/SasTable", "comp=acl", []byte(xml)), http.StatusNoContent)
	}
	if got := get(); got != "AuthenticationFailed" {
		t.Errorf("before the policy exists: %s", got)
	}
	setACL(`<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>policy1</Id><AccessPolicy><Start>2026-01-01T00:00:00Z</Start><Expiry>2026-07-01T00:00:00Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`)
	if got := get(); got != "OK" {
		t.Errorf("with the policy: %s", got)
	}
	if got := answer(t, serve(s, sasRequest(s, "POST", "/SasTable", legacyPolicySAS, []byte(`{"PartitionKey":"x","RowKey":"y"}`)))); got != "AuthorizationPermissionMismatch" {
		t.Errorf("insert under a read policy: %s", got)
	}
	setACL(`<SignedIdentifiers><SignedIdentifier><Id>policy1</Id><AccessPolicy><Expiry>2026-05-01T00:00:00Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`)
	if got := get(); got != "AuthenticationFailed" {
		t.Errorf("with the policy expired: %s", got)
	}
	setACL(`<SignedIdentifiers></SignedIdentifiers>`)
	if got := get(); got != "AuthenticationFailed" {
		t.Errorf("with the policy removed: %s", got)
	}
}

// noTableNameSAS names stored access policy policy1 with every ad hoc field
// blank and no tn, sv=2020-10-02, spr=https,http: signed over
// /table/devstoreaccount1/sastable as Azurite's suite signs its test 9
// (tests/table/auth/sas.test.ts) and REST "Create a service SAS" builds
// the canonicalized resource, from the table addressed.
const noTableNameSAS = "sv=2020-10-02&si=policy1&spr=https%2Chttp&sig=80xblkn5HqabOb8rE8HlqLwG6Mgr558%2BALQjONdXOwE%3D"

// TestSASWithoutTableName holds R22: a service SAS without tn signs the
// table its request addresses; it works there, under its stored access
// policy as the policy changes, and fails to authenticate on another
// table.
func TestSASWithoutTableName(t *testing.T) {
	s := sasServer(t, june2026)
	s.store.Create("Other")
	for _, tb := range []string{"SasTable", "Other"} {
		do(t, s, signed(s, http.MethodPut, "/"+tb, "comp=acl", []byte(`<SignedIdentifiers><SignedIdentifier><Id>policy1</Id><AccessPolicy><Start>2017-12-31T11:22:33.4560000Z</Start><Expiry>2026-07-01T00:00:00Z</Expiry><Permission>raud</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`)), http.StatusNoContent)
	}
	insert := func(tb, rk string) string {
		return answer(t, serve(s, sasRequest(s, "POST", "/"+tb, noTableNameSAS, []byte(`{"PartitionKey":"n","RowKey":"`+rk+`"}`))))
	}
	if got := insert("SasTable", "1"); got != "No Content" {
		t.Errorf("insert into the table signed: %s, want No Content", got)
	}
	if got := insert("Other", "1"); got != "AuthenticationFailed" {
		t.Errorf("insert into another table: %s, want AuthenticationFailed", got)
	}
	do(t, s, signed(s, http.MethodPut, "/SasTable", "comp=acl", []byte(`<SignedIdentifiers><SignedIdentifier><Id>policy1</Id><AccessPolicy><Expiry>2026-07-01T00:00:00Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`)), http.StatusNoContent)
	if got := insert("SasTable", "2"); got != "AuthorizationPermissionMismatch" {
		t.Errorf("insert once the policy reads only: %s, want AuthorizationPermissionMismatch", got)
	}
}

// A transaction through a SAS is checked operation by operation: the
// first one refused fails the changeset at its index.
func TestSASTransaction(t *testing.T) {
	s := sasServer(t, june2026)
	body := func(ops ...string) (string, []byte) {
		var b strings.Builder
		b.WriteString("--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n")
		for _, o := range ops {
			b.WriteString("--c\r\nContent-Type: application/http\r\n\r\n" + o + "\r\n")
		}
		b.WriteString("--c--\r\n--b--\r\n")
		return "multipart/mixed; boundary=b", []byte(b.String())
	}
	insert := func(rk string) string {
		return "POST /devstoreaccount1/SasTable HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"c\",\"RowKey\":\"" + rk + "\"}"
	}
	del := "DELETE /devstoreaccount1/SasTable(PartitionKey='c',RowKey='1') HTTP/1.1\r\nIf-Match: *\r\n"
	ct, b := body(insert("5"), insert("6"))
	r := sasRequest(s, "POST", "/$batch", pyTableSAS, b)
	r.Header.Set("Content-Type", ct)
	if w := do(t, s, r, http.StatusAccepted); strings.Count(w.Body.String(), "204 No Content") != 2 {
		t.Errorf("two inserts: %s", w.Body.String())
	}
	ct, b = body(insert("7"), del)
	r = sasRequest(s, "POST", "/$batch", pyTableSAS, b)
	r.Header.Set("Content-Type", ct)
	status, code, msg := innerError(t, do(t, s, r, http.StatusAccepted).Body.String())
	if status != "403 Forbidden" || code != "AuthorizationPermissionMismatch" || !strings.HasPrefix(msg, "1:") {
		t.Errorf("a delete without d: %s %s %q", status, code, msg)
	}
	if n, _ := s.Rows("SasTable"); n != 7 {
		t.Errorf("%d rows, want 7: the refused transaction wrote nothing", n)
	}
}

// TestSASFieldTwice holds R14: a query string giving sig, or any other
// field of the token, twice is refused with 403 AuthorizationFailure,
// whichever value would be read; and a token whose stored access policy
// was changed to no longer allow the operation is refused as an
// authorization failure, AuthorizationPermissionMismatch, not as a
// signature that does not match.
func TestSASFieldTwice(t *testing.T) {
	s := sasServer(t, june2026)
	sig := pyTableSAS[strings.Index(pyTableSAS, "&sig=")+len("&sig="):]
	for _, tt := range []struct{ what, token string }{
		{"the token", pyTableSAS},
		{"sig twice", pyTableSAS + "&sig=" + sig},
		{"two different sig", pyTableSAS + "&sig=CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk%3D"},
		{"sv twice", pyTableSAS + "&sv=2019-02-02"},
		{"tn twice", pyTableSAS + "&tn=SasTable"},
		{"sp twice", "sp=r&" + pyTableSAS},
	} {
		got := answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", tt.token, nil)))
		if want := map[bool]string{true: "OK", false: "AuthorizationFailure"}[tt.token == pyTableSAS]; got != want {
			t.Errorf("%s: %s, want %s", tt.what, got, want)
		}
	}
	setACL := func(perm string) {
		t.Helper()
		do(t, s, signed(s, http.MethodPut, "/SasTable", "comp=acl", []byte(`<SignedIdentifiers><SignedIdentifier><Id>policy1</Id><AccessPolicy>`+
			`<Start>2026-01-01T00:00:00Z</Start><Expiry>2026-07-01T00:00:00Z</Expiry><Permission>`+perm+`</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`)), http.StatusNoContent)
	}
	setACL("r")
	if got := answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", legacyPolicySAS, nil))); got != "OK" {
		t.Errorf("query under a read policy: %s", got)
	}
	setACL("a")
	if got := answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", legacyPolicySAS, nil))); got != "AuthorizationPermissionMismatch" {
		t.Errorf("query after the policy was changed to add only: %s, want AuthorizationPermissionMismatch", got)
	}
	if got := answer(t, serve(s, sasRequest(s, "POST", "/SasTable", legacyPolicySAS, []byte(`{"PartitionKey":"x","RowKey":"y"}`)))); got != "No Content" {
		t.Errorf("insert after the policy was changed to add only: %s", got)
	}
}

// TestSASBesideAnAuthorizationHeader holds R24: Azure authenticates a
// request by its Authorization header when it has one; a SAS beside it is
// not read, so a valid SAS does not rescue a Shared Key Lite signed over
// another path (or without a date), and a SAS that would fail does not
// refuse a good signature.
func TestSASBesideAnAuthorizationHeader(t *testing.T) {
	s := sasServer(t, june2026)
	sasAndKey := func(token, signedPath string) *http.Request {
		r := sasRequest(s, "GET", "/SasTable()", token, nil)
		r.Header.Set("x-ms-date", time.Now().UTC().Format(http.TimeFormat))
		mac := hmac.New(sha256.New, s.key)
		mac.Write([]byte(r.Header.Get("x-ms-date") + "\n/" + s.account + "/" + s.account + signedPath))
		r.Header.Set("Authorization", "SharedKeyLite "+s.account+":"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
		return r
	}
	if got := answer(t, serve(s, sasRequest(s, "GET", "/SasTable()", pyAccountSAS, nil))); got != "OK" {
		t.Fatalf("the SAS alone: %s", got)
	}
	if got := answer(t, serve(s, sasAndKey(pyAccountSAS, "/SasTable"))); got != "AuthenticationFailed" {
		t.Errorf("a good SAS beside a Shared Key Lite signed over another path: %s, want AuthenticationFailed", got)
	}
	r := sasAndKey(pyAccountSAS, "/SasTable()")
	r.Header.Del("x-ms-date")
	if got := answer(t, serve(s, r)); got != "AuthenticationFailed" {
		t.Errorf("a good SAS beside a Shared Key Lite without a date: %s, want AuthenticationFailed", got)
	}
	if got := answer(t, serve(s, sasAndKey(strings.Replace(pyAccountSAS, "sig=", "sig=x", 1), "/SasTable()"))); got != "OK" {
		t.Errorf("a bad SAS beside a good Shared Key Lite: %s, want OK", got)
	}
}
