package emulator

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tablestress/tablestress/pkg/azure"
	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// maxPage is the most entities one query response holds.
const maxPage = azure.PageRows

// selection is a $select projection: the names it keeps, in the order
// $select names them (each once).
type selection struct {
	names []string
	index map[string]int
}

// selectSet parses $select; nil means every property.
func selectSet(s string) *selection {
	if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "*" {
		return nil
	}
	sel := &selection{index: map[string]int{}}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			if _, dup := sel.index[p]; !dup {
				sel.index[p] = len(sel.names)
				sel.names = append(sel.names, p)
			}
		}
	}
	return sel
}

// has reports whether the projection keeps name (nil keeps every one).
func (sel *selection) has(name string) bool {
	if sel == nil {
		return true
	}
	_, ok := sel.index[name]
	return ok
}

// errTopValue refuses a $top that is not an integer of at least 0:
// "If a value less than 0 is specified, the URI is considered to be
// malformed" ([MS-ODATA] 2.2.3.6.1.8 "Top System Query Option"), the
// common code of an invalid query parameter (REST "Common REST API error
// codes").
var errTopValue = &apiError{400, "InvalidQueryParameterValue", "An invalid value was specified for one of the query parameters in the request URI: $top must be an integer of at least 0."}

// errTopRange refuses a $top over a page's 1,000 entities: "The value
// specified for the Take operator must be less than or equal to 1,000. If
// it is greater than 1,000, the service returns status code 400 (Bad
// Request)" (REST "Query operators supported for the Table service"; Take
// is how the .NET client writes $top). The code is the common one of a
// query parameter outside its range (REST "Common REST API error codes"),
// inferred: the page names the status only.
var errTopRange = &apiError{400, "OutOfRangeQueryParameterValue", "One of the query parameters specified in the request URI is outside the permissible range: $top must be at most " + strconv.Itoa(maxPage) + "."}

// topOf parses $top: the matches a page holds, 0 to a page's 1,000 (""
// asks for a full page; 0 for none).
func topOf(s string) (int, *apiError) {
	if s == "" {
		return maxPage, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || s[0] == '+' {
		return 0, errTopValue
	}
	if n > maxPage {
		return 0, errTopRange
	}
	return n, nil
}

// keyRangeNode keeps the entities within a SAS's key range that match x
// (nil: every entity).
type keyRangeNode struct {
	g *grant
	x filter.Node
}

func (n keyRangeNode) Eval(r filter.Row) bool {
	e, ok := r.(*store.Entity)
	return ok && n.g.inRange(e.PK(), e.RK()) && (n.x == nil || n.x.Eval(r))
}

// query answers GET /table() with one page: entities matching $filter in
// (PartitionKey, RowKey) order from the continuation on, at most $top, and
// the continuation of the next page when the query goes on (see page.go
// for where a page ends). The model judges the page at the partition it
// starts in and charges it afterwards for every entity it visited.
func (s *Server) query(r *http.Request, name string, g *grant) reply {
	q := r.URL.Query()
	f, err := filter.Parse(q.Get("$filter"))
	rg := filter.RangeOf(f)
	if err == nil && g.limitsKeys() {
		f = keyRangeNode{g: g, x: f} // a SAS's key range bounds what the query sees
	}
	part := "*"
	if pk, ok := rg.Partition(); ok {
		part = pk
	}
	if err != nil {
		return errReply(invalidInput("%v", err), part)
	}
	top, aerr := topOf(q.Get("$top"))
	if aerr != nil {
		return errReply(aerr, part)
	}
	t := s.store.Table(name)
	start := queryStart(q, rg)
	_, refused, d := s.gate(r.Context(), part, s.pageRequest(t, name, part, start, rg), nil)
	if refused != nil {
		return *refused
	}
	if t == nil {
		return errReply(errTableNotFound, part)
	}
	p := newPage(top)
	if s.model.Active() {
		p.budget = s.model.PageVisits()
		p.place = func(pk string) int { return s.model.Place(name, pk) }
		p.end = t.EndOf
	}
	v := s.viewOf(r, name, selectSet(q.Get("$select")))
	buf := getBuf()
	t.RLock()
	out, next, more := v.appendPage(*buf, t, start, rg, f, p)
	t.RUnlock()
	charge := s.model.ChargePage(name, p.visits)
	s.counters.visits(name, p.visits)
	*buf = out
	rep := timedReply(reply{status: http.StatusOK, body: out, part: part, entities: p.n, pooled: buf}, model.OpQuery, 0, 0, d)
	rep.work.Charge += charge
	rep.work.Visited = p.seen
	// What the page visited, for the client to attribute to its own
	// operations (the counters of /_tablestress/stats sum it per table).
	rep.header = map[string]string{visitedHeader: strconv.Itoa(p.seen)}
	if more && top > 0 { // $top=0 asks for nothing, now or after
		rep.header["x-ms-continuation-NextPartitionKey"], rep.header["x-ms-continuation-NextRowKey"] = encodeToken(next.pk), encodeToken(next.rk)
	}
	return rep
}

// queryStart is where a query's page starts: the start of its key range,
// or its continuation when that lies beyond.
func queryStart(q url.Values, rg filter.KeyRange) keys {
	var start keys
	start.pk, start.rk = rg.Start()
	if npk := q.Get("NextPartitionKey"); npk != "" || q.Get("NextRowKey") != "" {
		if cont := (keys{decodeToken(npk), decodeToken(q.Get("NextRowKey"))}); start.less(cont) {
			start = cont
		}
	}
	return start
}

// pageRequest is what the model judges of a query page of table t (nil:
// missing) named name, counted under part: the partition it starts in, and
// the end range that lies in, when the model is active.
func (s *Server) pageRequest(t *store.Table, name, part string, start keys, rg filter.KeyRange) model.Request {
	req := model.Request{Table: name, Op: model.OpQuery}
	if part != "*" {
		req.Partition = part
	}
	if t != nil && s.model.Active() {
		t.RLock()
		if first := firstIn(t, start, rg); first != "" {
			req.Partition, req.Extends = first, t.EndOf(first)
		}
		t.RUnlock()
	}
	return req
}

// appendPage appends the answer of one query page of table t, read by
// scan from start on, and returns it with the keys the next page starts
// at (more false when there is none). Callers hold t's read lock.
func (v *view) appendPage(out []byte, t *store.Table, start keys, rg filter.KeyRange, f filter.Node, p *page) (_ []byte, next keys, more bool) {
	out = append(out, '{')
	if v.meta >= minimalMetadata {
		out = append(out, `"odata.metadata":`...)
		out = v.appendMetadataURL(out, "")
		out = append(out, ',')
	}
	out = append(out, `"value":[`...)
	next, more = scan(t, start, rg, f, p, func(e *store.Entity) {
		if p.n > 0 {
			out = append(out, ',')
		}
		out = v.appendEntity(out, e, false)
	})
	return append(out, "]}"...), next, more
}

// firstIn returns the PartitionKey of the first entity of table t from
// start on within the key range, "" when there is none. Callers hold a
// read lock.
func firstIn(t *store.Table, start keys, rg filter.KeyRange) (pk string) {
	t.Ascend(start.pk, start.rk, func(e *store.Entity) bool {
		if !rg.Past(e.PK(), e.RK()) {
			pk = strings.Clone(e.PK()) // it outlives the view
		}
		return false
	})
	return pk
}

// Continuation tokens are opaque to clients, as Azure's are: the key in
// URL-safe base64 behind a "1!" version prefix, so any key survives a
// header and a query string.
func encodeToken(key string) string { return "1!" + base64.RawURLEncoding.EncodeToString([]byte(key)) }

func decodeToken(tok string) string {
	if b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(tok, "1!")); err == nil && strings.HasPrefix(tok, "1!") {
		return string(b)
	}
	return tok
}
