package emulator

import (
	"encoding/xml"
	"io"
	"net/http"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
)

// maxPolicies is how many stored access policies a table holds (REST "Set
// Table ACL": "A table can have up to five stored access policies").
const maxPolicies = 5

// accessPolicy is a stored access policy: what a service SAS naming it by
// si gets, and what deleting it revokes. Empty fields are left to the SAS.
type accessPolicy struct {
	id, start, expiry, perms string
}

// signedIdentifiers is the XML of Get and Set Table ACL.
type signedIdentifiers struct {
	XMLName     xml.Name           `xml:"SignedIdentifiers"`
	Identifiers []signedIdentifier `xml:"SignedIdentifier"`
}

type signedIdentifier struct {
	ID     string `xml:"Id"`
	Policy struct {
		Start      string `xml:"Start,omitempty"`
		Expiry     string `xml:"Expiry,omitempty"`
		Permission string `xml:"Permission,omitempty"`
	} `xml:"AccessPolicy"`
}

var errInvalidXML = &apiError{400, "InvalidXmlDocument", "XML specified is not syntactically valid."}

// policy returns the table's stored access policy id, or nil.
func (t *table) policy(id string) *accessPolicy {
	for _, p := range t.policies() {
		if p.id == id {
			return &p
		}
	}
	return nil
}

// policies returns the table's stored access policies. Read only.
func (t *table) policies() []accessPolicy {
	if p := t.acl.Load(); p != nil {
		return *p
	}
	return nil
}

// isACL reports whether a request on a table addresses its ACL
// (?comp=acl); the query string is parsed only when it may.
func isACL(r *http.Request) bool {
	return strings.Contains(r.URL.RawQuery, "comp=acl") && r.URL.Query().Get("comp") == "acl"
}

// tableACL answers GET and PUT /TABLE?comp=acl (REST "Get Table ACL",
// "Set Table ACL").
func (s *Server) tableACL(r *http.Request, name string) reply {
	t := s.store.table(name)
	if t == nil {
		return errReply(errTableNotFound, "")
	}
	switch r.Method {
	case http.MethodGet:
		return s.getACL(t)
	case http.MethodPut:
		return s.setACL(r, t)
	}
	return errReply(errMethod, "")
}

func (s *Server) getACL(t *table) reply {
	var doc signedIdentifiers
	for _, p := range t.policies() {
		var id signedIdentifier
		id.ID, id.Policy.Start, id.Policy.Expiry, id.Policy.Permission = p.id, p.start, p.expiry, p.perms
		doc.Identifiers = append(doc.Identifiers, id)
	}
	body, _ := xml.Marshal(doc)
	return reply{status: http.StatusOK, table: t.name, ctype: "application/xml",
		body: append([]byte(xml.Header[:len(xml.Header)-1]), body...)}
}

// setACL replaces the table's policies: at most five, each with an Id of
// at most 64 characters, permissions among r, a, u, d, and ISO 8601
// times; anything else is 400 InvalidXmlDocument. An empty body removes
// every policy, revoking the SAS tokens that named them.
func (s *Server) setACL(r *http.Request, t *table) reply {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		return errReply(invalidInput("The request body could not be read."), "")
	}
	var doc signedIdentifiers
	if len(strings.TrimSpace(string(body))) > 0 && xml.Unmarshal(body, &doc) != nil {
		return errReply(errInvalidXML, "")
	}
	if len(doc.Identifiers) > maxPolicies {
		return errReply(errInvalidXML, "")
	}
	pols := make([]accessPolicy, 0, len(doc.Identifiers))
	for _, id := range doc.Identifiers {
		p := accessPolicy{id: id.ID, perms: id.Policy.Permission}
		if id.ID == "" || len(id.ID) > 64 || strings.Trim(p.perms, "raud") != "" {
			return errReply(errInvalidXML, "")
		}
		for _, v := range []struct{ in, out *string }{{&id.Policy.Start, &p.start}, {&id.Policy.Expiry, &p.expiry}} {
			if *v.in == "" {
				continue
			}
			tm, err := sasTime(*v.in)
			if err != nil {
				return errReply(errInvalidXML, "")
			}
			*v.out = tm.UTC().Format(edm.TimeLayout)
		}
		pols = append(pols, p)
	}
	t.acl.Store(&pols)
	return reply{status: http.StatusNoContent, table: t.name}
}

// getTable answers GET /Tables('name'): the table, or 404
// ResourceNotFound (REST "Query Tables").
func (s *Server) getTable(r *http.Request, name string) reply {
	t := s.store.table(name)
	if t == nil {
		return errReply(errNotFound, "")
	}
	out := []byte(`{"odata.metadata":`)
	out = jsontext.AppendString(out, s.baseURL(r)+"/$metadata#Tables/@Element")
	out = append(out, `,"TableName":`...)
	out = jsontext.AppendString(out, t.name)
	return reply{status: http.StatusOK, table: t.name, body: append(out, '}')}
}
