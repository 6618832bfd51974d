package emulator

import (
	"net/http"
	"net/url"
	"strings"
)

// routeKind is what a request path addresses.
type routeKind uint8

const (
	routeTables   routeKind = iota // /Tables: create or list tables
	routeTable                     // /Tables('name'): get or delete one
	routeEntities                  // /name or /name(): insert, query, the table's ACL
	routeEntity                    // /name(PartitionKey='p',RowKey='r'): one entity
	routeBatch                     // /$batch: an entity group transaction
	routeService                   // /: the service itself (?restype=service)
)

// route is a parsed request path.
type route struct {
	kind      routeKind
	table     string
	pk, rk    string
	secondary bool // addressed to the account's secondary endpoint
}

// entityTable is the table whose entities the route addresses (its own
// path, or its ACL), "" for any other route.
func (rt route) entityTable() string {
	if rt.kind == routeEntities || rt.kind == routeEntity {
		return rt.table
	}
	return ""
}

// parseRoute reads the path after the account.
func parseRoute(p string) (route, *apiError) {
	p = strings.TrimPrefix(p, "/")
	switch {
	case p == "Tables" || p == "Tables()":
		return route{kind: routeTables}, nil
	case len(p) >= len("Tables('')") && strings.HasPrefix(p, "Tables('") && strings.HasSuffix(p, "')"):
		name, err := unescape(p[len("Tables('") : len(p)-2])
		if err != nil {
			return route{}, err
		}
		return route{kind: routeTable, table: name}, nil
	case p == "$batch":
		return route{kind: routeBatch}, nil
	case p == "":
		return route{kind: routeService}, nil
	}
	open := strings.IndexByte(p, '(')
	if open < 0 {
		if strings.Contains(p, "/") {
			return route{}, invalidInput("The requested URI does not represent any resource on the server.")
		}
		return route{kind: routeEntities, table: p}, nil
	}
	if !strings.HasSuffix(p, ")") {
		return route{}, invalidInput("The requested URI is malformed.")
	}
	rt := route{table: p[:open]}
	inner := p[open+1 : len(p)-1]
	if inner == "" {
		rt.kind = routeEntities
		return rt, nil
	}
	un, err := unescape(inner)
	if err != nil {
		return route{}, err
	}
	pk, rest, ok := keyValue(un, "PartitionKey=")
	if !ok || !strings.HasPrefix(rest, ",") {
		return route{}, invalidInput("The requested URI has malformed keys.")
	}
	rk, rest, ok := keyValue(rest[1:], "RowKey=")
	if !ok || rest != "" {
		return route{}, invalidInput("The requested URI has malformed keys.")
	}
	rt.kind, rt.pk, rt.rk = routeEntity, pk, rk
	return rt, nil
}

// keyValue reads NAME='value' (quotes doubled inside) from the start of s.
// The value is a substring of s unless it has a doubled quote.
func keyValue(s, name string) (string, string, bool) {
	if len(s) <= len(name) || s[:len(name)] != name || s[len(name)] != '\'' {
		return "", "", false
	}
	start := len(name) + 1
	var b []byte // the value so far, once a doubled quote was met
	from := start
	for i := start; i < len(s); i++ {
		if s[i] != '\'' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b = append(b, s[from:i+1]...) // up to one of the two quotes
			i++
			from = i + 1
			continue
		}
		if b == nil {
			return s[start:i], s[i+1:], true
		}
		return string(append(b, s[from:i]...)), s[i+1:], true
	}
	return "", "", false
}

func unescape(s string) (string, *apiError) {
	out, err := url.PathUnescape(s)
	if err != nil {
		return "", invalidInput("The requested URI is not correctly encoded.")
	}
	return out, nil
}

// queryValue is the first value of a query parameter, "" when absent;
// the query is parsed only when there is one.
func queryValue(r *http.Request, key string) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return r.URL.Query().Get(key)
}
