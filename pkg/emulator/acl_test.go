package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// policiesXML is n stored access policies as Set Table ACL takes them.
func policiesXML(n int, perm string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>`)
	for i := range n {
		fmt.Fprintf(&b, `<SignedIdentifier><Id>p%d</Id><AccessPolicy><Start>2026-01-01T00:00:00Z</Start><Expiry>2026-02-01T10:00:00.5Z</Expiry><Permission>%s</Permission></AccessPolicy></SignedIdentifier>`, i, perm)
	}
	return b.String() + `</SignedIdentifiers>`
}

func TestTableACL(t *testing.T) {
	s := newServer(t)
	s.store.Create("acl")
	get := func() string {
		w := do(t, s, signed(s, http.MethodGet, "/acl", "comp=acl", nil), http.StatusOK)
		if ct := w.Header().Get("Content-Type"); ct != "application/xml" {
			t.Errorf("Content-Type %q", ct)
		}
		return w.Body.String()
	}
	if got, want := get(), `<?xml version="1.0" encoding="UTF-8"?><SignedIdentifiers></SignedIdentifiers>`; got != want {
		t.Errorf("no policy: %s, want %s", got, want)
	}
	do(t, s, signed(s, http.MethodPut, "/acl", "comp=acl", []byte(policiesXML(5, "raud"))), http.StatusNoContent)
	got := get()
	if n := strings.Count(got, "<SignedIdentifier>"); n != 5 || !strings.Contains(got,
		`<SignedIdentifier><Id>p4</Id><AccessPolicy><Start>2026-01-01T00:00:00.0000000Z</Start><Expiry>2026-02-01T10:00:00.5000000Z</Expiry><Permission>raud</Permission></AccessPolicy></SignedIdentifier>`) {
		t.Errorf("5 policies read back as %s", got)
	}
	for _, bad := range []string{policiesXML(6, "r"), policiesXML(1, "rw"), `<SignedIdentifiers><SignedIdentifier>`, policiesXML(1, "r")[:0] + `<SignedIdentifiers><SignedIdentifier><Id></Id></SignedIdentifier></SignedIdentifiers>`,
		`<SignedIdentifiers><SignedIdentifier><Id>` + strings.Repeat("i", 65) + `</Id></SignedIdentifier></SignedIdentifiers>`,
		strings.Replace(policiesXML(1, "r"), "2026-01-01T00:00:00Z", "yesterday", 1)} {
		w := do(t, s, signed(s, http.MethodPut, "/acl", "comp=acl", []byte(bad)), http.StatusBadRequest)
		if code, _ := odataError(t, w.Body.Bytes(), w.Header()); code != "InvalidXmlDocument" {
			t.Errorf("%.60s...: %s, want InvalidXmlDocument", bad, code)
		}
	}
	if n := strings.Count(get(), "<SignedIdentifier>"); n != 5 {
		t.Errorf("refused ACLs changed the policies: %d left", n)
	}
	do(t, s, signed(s, http.MethodPut, "/acl", "comp=acl", nil), http.StatusNoContent)
	if n := strings.Count(get(), "<SignedIdentifier>"); n != 0 {
		t.Errorf("an empty ACL left %d policies", n)
	}
}
