package emulator

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/tablestress/tablestress/internal/jsontext"
	"github.com/tablestress/tablestress/pkg/emulator/internal/edm"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// metadata levels of the JSON format (Accept or $format
// application/json;odata=nometadata|minimalmetadata|fullmetadata).
const (
	noMetadata = iota
	minimalMetadata
	fullMetadata
)

// view is how entities are rendered in one response: the metadata level,
// the $select projection (nil: every property), and the host, account and
// table that the service URLs of the metadata are built from.
type view struct {
	meta    int
	sel     *selection
	host    string // as the client addressed the service
	root    string // "/ACCOUNT" path-style, "" product-style (Server.root)
	account string
	table   string
	scheme  string // http or https, as the service is served
}

// base is the service URL, scheme://host/account (scheme://host
// product-style).
func (v *view) base() string { return v.scheme + "://" + v.host + v.root }

// appendMetadataURL appends, as a JSON string, the odata.metadata of an
// answer about the view's table; suffix follows the table's name
// ("/@Element" for a single entity, "" for a list).
func (v *view) appendMetadataURL(dst []byte, suffix string) []byte {
	dst = append(dst, '"')
	dst = append(dst, v.scheme...)
	dst = append(dst, "://"...)
	dst = jsontext.AppendChars(dst, v.host)
	dst = jsontext.AppendChars(dst, v.root)
	dst = append(dst, "/$metadata#"...)
	dst = jsontext.AppendChars(dst, v.table)
	dst = jsontext.AppendChars(dst, suffix)
	return append(dst, '"')
}

// want reports whether the projection keeps a property.
func (v *view) want(name string) bool { return v.sel.has(name) }

// appendEntity renders e as the service returns it; single is for the
// answer about one entity (a point read, an insert), which names its
// odata.metadata.
func (v *view) appendEntity(dst []byte, e *store.Entity, single bool) []byte {
	var tb [40]byte
	ts := edm.AppendTicks(tb[:0], e.Ticks(), ":") // for the ETag and the Timestamp
	dst = append(dst, '{')
	dst = v.appendAnnotations(dst, e, ts, single)
	n := len(dst)
	if dst = v.appendProperties(dst, e, ts); len(dst) == n && dst[n-1] == ',' {
		dst = dst[:n-1] // nothing followed the annotations: no dangling comma
	}
	return append(dst, '}')
}

// appendAnnotations appends the odata.* members of e's JSON, each followed
// by a comma, as the metadata level asks: odata.metadata for a single
// entity, odata.type, odata.id and odata.editLink with full metadata, and
// odata.etag (of the timestamp ts) with minimal or full metadata.
func (v *view) appendAnnotations(dst []byte, e *store.Entity, ts []byte, single bool) []byte {
	if v.meta >= minimalMetadata && single {
		dst = append(dst, `"odata.metadata":`...)
		dst = v.appendMetadataURL(dst, "/@Element")
		dst = append(dst, ',')
	}
	if v.meta == fullMetadata {
		path := v.table + "(PartitionKey='" + keyLiteral(e.PK()) + "',RowKey='" + keyLiteral(e.RK()) + "')"
		dst = append(dst, `"odata.type":`...)
		dst = jsontext.AppendString(dst, v.account+"."+v.table)
		dst = append(dst, `,"odata.id":`...)
		dst = jsontext.AppendString(dst, v.base()+"/"+path)
		dst = append(dst, ',')
	}
	if v.meta >= minimalMetadata {
		dst = append(dst, `"odata.etag":"W/\"datetime'`...)
		dst = edm.AppendColons(dst, ts, "%3A")
		dst = append(dst, `'\"",`...)
	}
	if v.meta == fullMetadata {
		dst = append(dst, `"odata.editLink":`...)
		dst = jsontext.AppendString(dst, v.table+"(PartitionKey='"+keyLiteral(e.PK())+"',RowKey='"+keyLiteral(e.RK())+"')")
		dst = append(dst, ',')
	}
	return dst
}

// appendProperties appends the members of e's JSON the projection keeps:
// its keys, its Timestamp (ts) and its properties, annotated as the
// metadata level asks, separated by commas.
func (v *view) appendProperties(dst []byte, e *store.Entity, ts []byte) []byte {
	n := len(dst)
	sep := func() {
		if len(dst) > n {
			dst = append(dst, ',')
		}
	}
	if v.want("PartitionKey") {
		dst = append(dst, `"PartitionKey":`...)
		dst = jsontext.AppendString(dst, e.PK())
	}
	if v.want("RowKey") {
		sep()
		dst = append(dst, `"RowKey":`...)
		dst = jsontext.AppendString(dst, e.RK())
	}
	if v.want("Timestamp") {
		sep()
		if v.meta == fullMetadata {
			dst = append(dst, `"Timestamp@odata.type":"Edm.DateTime",`...)
		}
		dst = append(dst, `"Timestamp":"`...)
		dst = append(dst, ts...) // digits, '-', ':', '.', 'T', 'Z': nothing to escape
		dst = append(dst, '"')
	}
	if v.sel == nil && (v.meta == minimalMetadata || !e.Annotated()) {
		// The stored fragment is the minimal-metadata form.
		if e.HasProperties() {
			sep()
			dst = e.AppendFragment(dst)
		}
		return dst
	}
	var written []bool // the selected names written, by their place in $select
	if v.sel != nil {
		written = make([]bool, len(v.sel.names))
	}
	for _, p := range e.Properties() {
		if !v.want(p.Name) {
			continue
		}
		if written != nil {
			written[v.sel.index[p.Name]] = true
		}
		sep()
		if v.meta == noMetadata {
			p.Type = ""
		}
		dst = store.AppendProp(dst, p)
	}
	for i := range written {
		if name := v.sel.names[i]; !written[i] && !systemProperty(name) {
			sep() // Azure writes a selected property the entity lacks as null
			dst = jsontext.AppendString(dst, name)
			dst = append(dst, ":null"...)
		}
	}
	return dst
}

// systemProperty reports whether name is one of the three properties
// every entity has.
func systemProperty(name string) bool {
	return name == "PartitionKey" || name == "RowKey" || name == "Timestamp"
}

// keyLiteral writes a key as it appears inside quotes in an entity URL:
// quotes doubled, other characters path-escaped.
func keyLiteral(k string) string {
	return strings.ReplaceAll(url.PathEscape(strings.ReplaceAll(k, "'", "''")), "%27", "'")
}

// metaLevel reads the JSON metadata level from Accept or $format.
func metaLevel(r *http.Request) int {
	a := queryValue(r, "$format")
	if a == "" {
		a = reqHeader(r, "Accept")
	}
	switch {
	case strings.Contains(a, "nometadata"):
		return noMetadata
	case strings.Contains(a, "fullmetadata"):
		return fullMetadata
	}
	return minimalMetadata
}

// viewOf is the rendering a request asks for.
func (s *Server) viewOf(r *http.Request, table string, sel *selection) view {
	return view{meta: metaLevel(r), sel: sel, host: r.Host, root: s.root(r), account: s.account, table: table, scheme: s.scheme}
}

// renderPooled renders one entity's answer into a buffer of bufPool,
// returned with it for reply.pooled.
func renderPooled(v *view, e *store.Entity) ([]byte, *[]byte) {
	buf := getBuf()
	*buf = v.appendEntity(*buf, e, true)
	return *buf, buf
}
