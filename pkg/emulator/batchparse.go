package emulator

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
)

// errMalformedBatch answers a $batch body whose framing cannot be read:
// Azure's InvalidInput message, with no detail, as Azure gives it.
var errMalformedBatch = &apiError{400, "InvalidInput", "One of the request inputs is not valid."}

// innerRequest is one request of a changeset, as the client framed it.
type innerRequest struct {
	method string
	target string // the request URI: absolute, or a path
	header textproto.MIMEHeader
	body   []byte
}

// parseBatch reads a $batch body: one changeset of HTTP requests inside a
// multipart/mixed batch. Framing errors (not multipart, no changeset, an
// inner request without a request line) answer errMalformedBatch; an
// operation that is framed but wrong (bad JSON, a limit exceeded, an
// unsupported method) is returned with its error set, so the transaction
// fails at that operation's index as Azure's does. At most maxBatchOps+1
// operations are read: one more is enough to refuse the transaction.
// account is the service's account, which path-style inner URLs begin with.
func parseBatch(contentType string, body []byte, account string) ([]batchOp, *apiError) {
	outer, err := multipartReader(contentType, bytes.NewReader(body))
	if err != nil {
		return nil, errMalformedBatch
	}
	cs, err := outer.NextPart()
	if err != nil {
		return nil, errMalformedBatch
	}
	inner, err := multipartReader(cs.Header.Get("Content-Type"), cs)
	if err != nil {
		return nil, errMalformedBatch
	}
	var ops []batchOp
	for len(ops) <= maxBatchOps {
		p, err := inner.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errMalformedBatch
		}
		raw, err := io.ReadAll(p)
		if err != nil {
			return nil, errMalformedBatch
		}
		req, ok := parseInnerRequest(raw)
		if !ok {
			return nil, errMalformedBatch
		}
		ops = append(ops, batchOperation(req, account))
	}
	return ops, nil
}

// multipartReader reads a multipart/mixed body with the boundary of its
// Content-Type.
func multipartReader(contentType string, r io.Reader) (*multipart.Reader, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, errMalformedBatch
	}
	return multipart.NewReader(r, params["boundary"]), nil
}

// parseInnerRequest reads one application/http part the way Azure does:
// a request line (after any blank lines), header lines up to a blank line
// or the end of the part, and as the body everything after that blank
// line up to the boundary, without the blank lines and spaces around it,
// whatever Content-Length says or does not. Lines end in CRLF or LF. So
// the forms SDKs send all read alike: with Content-Length and one blank
// line (Go, Python), without Content-Length and with a second blank line
// before the JSON (JavaScript), and a DELETE whose headers end the part
// with no blank line (the legacy Python SDK).
func parseInnerRequest(raw []byte) (innerRequest, bool) {
	rest := raw
	line := func() ([]byte, bool) {
		if len(rest) == 0 {
			return nil, false
		}
		l, after, found := bytes.Cut(rest, []byte("\n"))
		if !found {
			after = nil
		}
		rest = after
		return bytes.TrimSuffix(l, []byte("\r")), true
	}
	var reqLine []byte
	for {
		l, ok := line()
		if !ok {
			return innerRequest{}, false
		}
		if len(bytes.TrimSpace(l)) > 0 {
			reqLine = l
			break
		}
	}
	fields := strings.Fields(string(reqLine))
	if len(fields) < 2 || len(fields) > 3 || (len(fields) == 3 && !strings.HasPrefix(fields[2], "HTTP/")) {
		return innerRequest{}, false
	}
	req := innerRequest{method: fields[0], target: fields[1], header: textproto.MIMEHeader{}}
	for {
		l, ok := line()
		if !ok || len(bytes.TrimSpace(l)) == 0 {
			break
		}
		k, v, found := bytes.Cut(l, []byte(":"))
		name := strings.TrimSpace(string(k))
		if !found || name == "" || strings.ContainsAny(name, " \t") {
			return innerRequest{}, false
		}
		req.header.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(string(v)))
	}
	req.body = bytes.TrimSpace(rest)
	return req, true
}

// innerPath is the path of an inner request's URI after the account:
// "/table(...)" from http://host/ACCOUNT/table(...), /ACCOUNT/table(...)
// or /table(...) (the legacy SDK's form, as for an account host).
func innerPath(target, account string) (string, bool) {
	u, err := url.Parse(target)
	if err != nil {
		return "", false
	}
	p := u.EscapedPath()
	if rest, ok := strings.CutPrefix(p, "/"+account+"/"); ok {
		return "/" + rest, true
	}
	return p, true
}

// batchOperation turns one inner request into an operation; err is set
// when the operation must fail the transaction.
func batchOperation(req innerRequest, account string) batchOp {
	path, ok := innerPath(req.target, account)
	if !ok {
		return batchOp{err: invalidInput("The request URI of the operation is malformed.")}
	}
	rt, aerr := parseRoute(path)
	if aerr != nil {
		return batchOp{err: aerr}
	}
	o := batchOp{table: rt.table, op: op{pk: rt.pk, rk: rt.rk, ifMatch: req.header.Get("If-Match")}}
	switch {
	case req.method == http.MethodPost && rt.kind == routeEntities:
		pk, rk, props, aerr := parseEntity(req.body)
		if o.err = aerr; aerr == nil {
			o.kind, o.pk, o.rk, o.props, o.insert = opInsert, pk, rk, props, true
		}
	case rt.kind != routeEntity:
		o.err = invalidInput("A batch operation must address an entity.")
	case req.method == http.MethodDelete:
		o.kind = opDelete
		if o.ifMatch == "" {
			o.ifMatch = "*"
		}
	case req.method == http.MethodPut || req.method == http.MethodPatch || req.method == "MERGE":
		_, _, _, props, aerr := parseBody(req.body)
		o.kind, o.props, o.merge, o.err = opWrite, props, req.method != http.MethodPut, aerr
	default:
		o.err = errMethod
	}
	if o.err == nil {
		o.err = checkIfMatch(o.ifMatch)
	}
	return o
}
