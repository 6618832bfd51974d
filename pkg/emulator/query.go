package emulator

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// maxPage is the most entities one query response holds.
const maxPage = 1000

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

// query answers GET /table() with one page: entities matching $filter in
// (PartitionKey, RowKey) order from the continuation on, at most $top, and
// the continuation of the next page when more may match.
func (s *Server) query(r *http.Request, name string) reply {
	t := s.store.table(name)
	q := r.URL.Query()
	f, err := parseFilter(q.Get("$filter"))
	rg := rangeOf(f)
	part := "*"
	if pk, ok := rg.partition(); ok {
		part = pk
	}
	if t == nil {
		return errReply(errTableNotFound, part)
	}
	if err != nil {
		return errReply(invalidInput("%v", err), part)
	}
	if _, refused := s.gate(r.Context(), name, part, 0, false, nil); refused != nil {
		return *refused
	}
	top := topOf(q.Get("$top"))
	sel := selectSet(q.Get("$select"))
	meta := metaLevel(r)
	start := &entity{pk: rg.pkLo}
	if rg.pkEq {
		start.rk = rg.rkLo
	}
	if npk := q.Get("NextPartitionKey"); npk != "" || q.Get("NextRowKey") != "" {
		cont := &entity{pk: decodeToken(npk), rk: decodeToken(q.Get("NextRowKey"))}
		if entityLess(start, cont) {
			start = cont
		}
	}
	buf := getBuf()
	out := append(*buf, '{')
	if meta >= minimalMetadata {
		out = append(out, `"odata.metadata":`...)
		out = appendJSONString(out, s.baseURL(r)+"/$metadata#"+name)
		out = append(out, ',')
	}
	out = append(out, `"value":[`...)
	n := 0
	var next *entity
	perPart := map[string]int{}
	t.mu.RLock()
	t.tree.AscendGreaterOrEqual(start, func(e *entity) bool {
		if rg.hasPKHi && e.pk > rg.pkHi {
			return false
		}
		if rg.pkEq && rg.hasRKHi && e.rk > rg.rkHi {
			return false
		}
		if f != nil && !f.eval(&entityRow{e: e}) {
			return true
		}
		if n == top {
			next = e
			return false
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = e.appendJSON(out, meta, sel, "")
		n++
		perPart[e.pk]++
		return true
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
