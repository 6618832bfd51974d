package emulator

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// maxPage is the most entities one query response holds.
const maxPage = 1000

// maxScan is the most entities one query page visits. Azure bounds the
// work of a page too (5 seconds) and then answers a short or empty page
// with a continuation; here the bound keeps a filter on non-key
// properties from holding a large table's read lock, and so its writers,
// for long.
const maxScan = 100_000

// selectSet parses $select; nil means every property.
func selectSet(s string) map[string]bool {
	if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "*" {
		return nil
	}
	m := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			m[p] = true
		}
	}
	return m
}

// topOf parses $top, capped at a page.
func topOf(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > maxPage {
		return maxPage
	}
	return n
}

// keyRangeNode keeps the entities within a SAS's key range that match x
// (nil: every entity).
type keyRangeNode struct {
	g *grant
	x node
}

func (n keyRangeNode) eval(r row) bool {
	er, ok := r.(entityRow)
	return ok && n.g.inRange(er.e.pk, er.e.rk) && (n.x == nil || n.x.eval(r))
}

// query answers GET /table() with one page: entities matching $filter in
// (PartitionKey, RowKey) order from the continuation on, at most $top, and
// the continuation of the next page when more may match.
func (s *Server) query(r *http.Request, name string, g *grant) reply {
	q := r.URL.Query()
	f, err := parseFilter(q.Get("$filter"))
	rg := rangeOf(f)
	if err == nil && g.limitsKeys() {
		f = keyRangeNode{g: g, x: f} // a SAS's key range bounds what the query sees
	}
	part := "*"
	if pk, ok := rg.partition(); ok {
		part = pk
	}
	if err != nil {
		return errReply(invalidInput("%v", err), part)
	}
	if _, refused := s.gate(r.Context(), name, part, 0, false, nil); refused != nil {
		return *refused
	}
	t := s.store.table(name)
	if t == nil {
		return errReply(errTableNotFound, part)
	}
	top := topOf(q.Get("$top"))
	v := s.viewOf(r, name, selectSet(q.Get("$select")))
	start := rg.start()
	if npk := q.Get("NextPartitionKey"); npk != "" || q.Get("NextRowKey") != "" {
		cont := &entity{pk: decodeToken(npk), rk: decodeToken(q.Get("NextRowKey"))}
		if entityLess(start, cont) {
			start = cont
		}
	}
	buf := getBuf()
	out := append(*buf, '{')
	if v.meta >= minimalMetadata {
		out = append(out, `"odata.metadata":`...)
		out = appendJSONString(out, s.baseURL(r)+"/$metadata#"+name)
		out = append(out, ',')
	}
	out = append(out, `"value":[`...)
	n := 0
	perPart := map[string]int{}
	t.mu.RLock()
	next, _ := t.scan(start, rg, f, top, func(e *entity) {
		if n > 0 {
			out = append(out, ',')
		}
		out = v.appendEntity(out, e, "")
		n++
		perPart[e.pk]++
	})
	t.mu.RUnlock()
	out = append(out, "]}"...)
	for pk, c := range perPart {
		s.model.Charge(name, pk, c)
	}
	*buf = out
	rep := reply{status: http.StatusOK, body: out, part: part, entities: n, pooled: buf}
	if next != nil {
		rep.header = map[string]string{"x-ms-continuation-NextPartitionKey": encodeToken(next.pk), "x-ms-continuation-NextRowKey": encodeToken(next.rk)}
	}
	return rep
}

// scan visits the entities from start on, in (PartitionKey, RowKey)
// order, within the key range, and emits those the filter matches, at most
// limit. It returns the next match after them (nil when there is none: the
// range or the table ended; the entity to resume from when maxScan entities
// were visited first) and how many entities it visited, which is the cost
// of the query: a filter that bounds the keys visits only the range.
// Callers hold the table's read lock.
func (t *table) scan(start *entity, rg keyRange, f node, limit int, emit func(*entity)) (next *entity, visited int) {
	n := 0
	t.tree.AscendGreaterOrEqual(start, func(e *entity) bool {
		visited++
		if rg.pkHi.above(e.pk) || (rg.pkEq && rg.rkHi.above(e.rk)) {
			return false
		}
		if visited > maxScan {
			next = e
			return false
		}
		if f != nil && !f.eval(entityRow{e: e}) {
			return true
		}
		if n == limit {
			next = e
			return false
		}
		emit(e)
		n++
		return true
	})
	return next, visited
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
