package emulator

import (
	"net/http"
	"net/url"
	"strings"
)

// metadata levels of the JSON format (Accept or $format
// application/json;odata=nometadata|minimalmetadata|fullmetadata).
const (
	noMetadata = iota
	minimalMetadata
	fullMetadata
)

// view is how entities are rendered in one response: the metadata level,
// the $select projection (nil: every property), and for full metadata the
// service URL and table that odata.id and odata.editLink are built from.
type view struct {
	meta    int
	sel     map[string]bool
	base    string // http://host/account
	table   string
	account string
}

// want reports whether the projection keeps a property.
func (v *view) want(name string) bool { return v.sel == nil || v.sel[name] }

// appendEntity renders e as the service returns it; metadataURL, when not
// empty, is the odata.metadata of a single-entity response.
func (v *view) appendEntity(dst []byte, e *entity, metadataURL string) []byte {
	dst = append(dst, '{')
	if v.meta >= minimalMetadata && metadataURL != "" {
		dst = append(dst, `"odata.metadata":`...)
		dst = appendJSONString(dst, metadataURL)
		dst = append(dst, ',')
	}
	if v.meta == fullMetadata {
		path := v.table + "(PartitionKey='" + keyLiteral(e.pk) + "',RowKey='" + keyLiteral(e.rk) + "')"
		dst = append(dst, `"odata.type":`...)
		dst = appendJSONString(dst, v.account+"."+v.table)
		dst = append(dst, `,"odata.id":`...)
		dst = appendJSONString(dst, v.base+"/"+path)
		dst = append(dst, ',')
	}
	if v.meta >= minimalMetadata {
		dst = append(dst, `"odata.etag":`...)
		dst = appendJSONString(dst, e.etag())
		dst = append(dst, ',')
	}
	if v.meta == fullMetadata {
		dst = append(dst, `"odata.editLink":`...)
		dst = appendJSONString(dst, v.table+"(PartitionKey='"+keyLiteral(e.pk)+"',RowKey='"+keyLiteral(e.rk)+"')")
		dst = append(dst, ',')
	}
	n := len(dst)
	sep := func() {
		if len(dst) > n {
			dst = append(dst, ',')
		}
	}
	if v.want("PartitionKey") {
		dst = append(dst, `"PartitionKey":`...)
		dst = appendJSONString(dst, e.pk)
	}
	if v.want("RowKey") {
		sep()
		dst = append(dst, `"RowKey":`...)
		dst = appendJSONString(dst, e.rk)
	}
	if v.want("Timestamp") {
		sep()
		if v.meta == fullMetadata {
			dst = append(dst, `"Timestamp@odata.type":"Edm.DateTime",`...)
		}
		dst = append(dst, `"Timestamp":`...)
		dst = appendJSONString(dst, e.time().Format(timeLayout))
	}
	if v.sel == nil && (v.meta == minimalMetadata || !e.annotated()) {
		// The stored fragment is the minimal-metadata form.
		if len(e.props) > 0 {
			sep()
			dst = e.appendFragment(dst)
		}
		return append(dst, '}')
	}
	for _, p := range e.properties() {
		if !v.want(p.name) {
			continue
		}
		sep()
		if v.meta == noMetadata {
			p.typ = ""
		}
		dst = appendProp(dst, p)
	}
	return append(dst, '}')
}

// keyLiteral writes a key as it appears inside quotes in an entity URL:
// quotes doubled, other characters path-escaped.
func keyLiteral(k string) string {
	return strings.ReplaceAll(url.PathEscape(strings.ReplaceAll(k, "'", "''")), "%27", "'")
}

// timeLayout is how the service writes Edm.DateTime values and Timestamps:
// seven fractional digits, UTC.
const timeLayout = "2006-01-02T15:04:05.0000000Z"

// viewOf is the rendering a request asks for.
func (s *Server) viewOf(r *http.Request, table string, sel map[string]bool) *view {
	return &view{meta: metaLevel(r), sel: sel, base: s.baseURL(r), table: table, account: s.account}
}
