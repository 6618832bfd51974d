package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/journal"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

func (s *Server) createTable(r *http.Request) reply {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	var req struct {
		TableName string `json:"TableName"`
	}
	if json.Unmarshal(body, &req) != nil || req.TableName == "" {
		return errReply(invalidInput("The request body must name the table: {\"TableName\":\"...\"}."), "")
	}
	if e := checkTableName(req.TableName); e != nil {
		return reply{status: e.status, err: e, table: req.TableName}
	}
	var c *journal.Commit
	var then func(*store.Table)
	if s.journal != nil {
		then = func(t *store.Table) { c = s.journal.Created(t) }
	}
	if !s.store.CreateThen(req.TableName, then) {
		return reply{status: errTableExists.status, err: errTableExists, table: req.TableName}
	}
	if err := c.Wait(); err != nil {
		return reply{status: 500, err: notDurable(err), table: req.TableName}
	}
	rep := reply{status: http.StatusCreated, table: req.TableName, prefer: returnContent}
	if preference(r) == returnNoContent {
		rep.status, rep.prefer = http.StatusNoContent, returnNoContent
		return rep
	}
	out := []byte(`{"odata.metadata":`)
	out = jsontext.AppendString(out, s.baseURL(r)+"/$metadata#Tables/@Element")
	out = append(out, `,"TableName":`...)
	out = jsontext.AppendString(out, req.TableName)
	rep.body = append(out, '}')
	return rep
}

// checkTableName applies Azure's rule, ^[A-Za-z][A-Za-z0-9]{2,62}$ and not
// "tables": a name of the wrong length is OutOfRangeInput, one with a
// wrong character InvalidResourceName.
func checkTableName(n string) *apiError {
	if len(n) < 3 || len(n) > 63 {
		return errTableNameLength
	}
	for i, c := range n {
		letter := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return errTableNameChars
		}
	}
	if strings.EqualFold(n, "tables") {
		return errTableNameChars
	}
	return nil
}

// getTable answers GET /Tables('name'): the table, or 404
// ResourceNotFound (REST "Query Tables").
func (s *Server) getTable(r *http.Request, name string) reply {
	t := s.store.Table(name)
	if t == nil {
		return errReply(errNotFound, "")
	}
	out := []byte(`{"odata.metadata":`)
	out = jsontext.AppendString(out, s.baseURL(r)+"/$metadata#Tables/@Element")
	out = append(out, `,"TableName":`...)
	out = jsontext.AppendString(out, t.Name())
	return reply{status: http.StatusOK, table: t.Name(), body: append(out, '}')}
}

func (s *Server) deleteTable(name string) reply {
	var c *journal.Commit
	var then func(*store.Table)
	if s.journal != nil {
		then = func(t *store.Table) { c = s.journal.Dropped(t) }
	}
	if !s.store.DropThen(name, then) {
		return errReply(errNotFound, "") // Delete Table answers ResourceNotFound (entity operations say TableNotFound)
	}
	if err := c.Wait(); err != nil {
		return errReply(notDurable(err), "")
	}
	return reply{status: http.StatusNoContent}
}

// appendTableElement appends a table of a Query Tables answer: its name,
// and with full metadata its type, id and edit link (REST "Query Tables":
// "odata.type":"myaccount.Tables", "odata.id":
// "https://myaccount.table.core.windows.net/Tables('mytable')",
// "odata.editLink":"Tables('mytable')").
func (s *Server) appendTableElement(out []byte, meta int, base, name string) []byte {
	out = append(out, '{')
	if meta == fullMetadata {
		link := "Tables('" + name + "')"
		out = jsontext.AppendString(append(out, `"odata.type":`...), s.account+".Tables")
		out = jsontext.AppendString(append(out, `,"odata.id":`...), base+"/"+link)
		out = jsontext.AppendString(append(out, `,"odata.editLink":`...), link)
		out = append(out, ',')
	}
	out = jsontext.AppendString(append(out, `"TableName":`...), name)
	return append(out, '}')
}

// tableRow evaluates filters on table names.
type tableRow string

func (t tableRow) Get(name string) (filter.Value, bool) {
	if name == "TableName" {
		return filter.Value{Kind: filter.String, S: string(t)}, true
	}
	return filter.Value{}, false
}

func (s *Server) listTables(r *http.Request) reply {
	q := r.URL.Query()
	f, err := filter.Parse(q.Get("$filter"))
	if err != nil {
		return errReply(invalidInput("%v", err), "")
	}
	top, aerr := topOf(q.Get("$top"))
	if aerr != nil {
		return errReply(aerr, "")
	}
	after := q.Get("NextTableName")
	meta, base := metaLevel(r), s.baseURL(r)
	out := []byte(`{`)
	if meta != noMetadata {
		out = jsontext.AppendString(append(out, `"odata.metadata":`...), base+"/$metadata#Tables")
		out = append(out, ',')
	}
	out = append(out, `"value":[`...)
	n, next := 0, ""
	for _, name := range s.store.Names() {
		if after != "" && name < after {
			continue
		}
		if f != nil && !f.Eval(tableRow(name)) {
			continue
		}
		if n == top {
			next = name
			if top == 0 {
				next = "" // $top=0 asks for nothing, now or after
			}
			break
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = s.appendTableElement(out, meta, base, name)
		n++
	}
	rep := reply{status: http.StatusOK, body: append(out, "]}"...), entities: n}
	if next != "" {
		rep.header = map[string]string{"x-ms-continuation-NextTableName": next}
	}
	return rep
}
