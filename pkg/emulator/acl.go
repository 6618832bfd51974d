package emulator

import (
	"encoding/xml"
	"io"
	"net/http"
	"strings"

	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// maxPolicies is how many stored access policies a table holds (REST "Set
// Table ACL": "A table can have up to five stored access policies").
const maxPolicies = 5

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

// isACL reports whether a request on a table addresses its ACL
// (?comp=acl); the query string is parsed only when it may.
func isACL(r *http.Request) bool {
	return strings.Contains(r.URL.RawQuery, "comp=acl") && r.URL.Query().Get("comp") == "acl"
}

// tableACL answers GET and PUT /TABLE?comp=acl (REST "Get Table ACL",
// "Set Table ACL").
func (s *Server) tableACL(r *http.Request, name string) reply {
	t := s.store.Table(name)
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

func (s *Server) getACL(t *store.Table) reply {
	var doc signedIdentifiers
	for _, p := range t.Policies() {
		var id signedIdentifier
		id.ID, id.Policy.Start, id.Policy.Expiry, id.Policy.Permission = p.ID, p.Start, p.Expiry, p.Perms
		doc.Identifiers = append(doc.Identifiers, id)
	}
	body, _ := xml.Marshal(doc)
	return reply{status: http.StatusOK, table: t.Name(), ctype: "application/xml",
		body: append([]byte(xml.Header[:len(xml.Header)-1]), body...)}
}

// setACL replaces the table's policies: at most five, each with an Id of
// at most 64 characters, permissions among r, a, u, d, and ISO 8601
// times; anything else is 400 InvalidXmlDocument. An empty body removes
// every policy, revoking the SAS tokens that named them.
func (s *Server) setACL(r *http.Request, t *store.Table) reply {
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
	pols := make([]store.Policy, 0, len(doc.Identifiers))
	for _, id := range doc.Identifiers {
		p := store.Policy{ID: id.ID, Perms: id.Policy.Permission}
		if id.ID == "" || len(id.ID) > 64 || strings.Trim(p.Perms, "raud") != "" {
			return errReply(errInvalidXML, "")
		}
		for _, v := range []struct{ in, out *string }{{&id.Policy.Start, &p.Start}, {&id.Policy.Expiry, &p.Expiry}} {
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
	var c *journal.Commit
	t.Lock() // the policies' records in the order they are set
	t.SetPolicies(pols)
	if s.journal != nil {
		c = s.journal.Policies(t, pols)
	}
	t.Unlock()
	if err := c.Wait(); err != nil {
		return errReply(notDurable(err), "")
	}
	return reply{status: http.StatusNoContent, table: t.Name()}
}
