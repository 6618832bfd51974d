package emulator

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tablestress/tablestress/internal/jsontext"
)

// apiError is an answer in Azure's error format.
type apiError struct {
	status int
	code   string
	msg    string
}

func (e *apiError) Error() string { return strconv.Itoa(e.status) + " " + e.code + ": " + e.msg }

// Azure Table service errors (REST reference "Table service error codes").
var (
	errTableNotFound   = &apiError{404, "TableNotFound", "The table specified does not exist."}
	errTableExists     = &apiError{409, "TableAlreadyExists", "The table specified already exists."}
	errNotFound        = &apiError{404, "ResourceNotFound", "The specified resource does not exist."}
	errEntityExists    = &apiError{409, "EntityAlreadyExists", "The specified entity already exists."}
	errCondition       = &apiError{412, "UpdateConditionNotSatisfied", "The update condition specified in the request was not satisfied."}
	errAuth            = &apiError{403, "AuthenticationFailed", "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."}
	errTableNameLength = &apiError{400, "OutOfRangeInput", "The specified resource name length is not within the permissible limits."}
	errTableNameChars  = &apiError{400, "InvalidResourceName", "The specified resource name contains invalid characters."}
	errDuplicateRow    = &apiError{400, "InvalidDuplicateRow", "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."}
	errMixedPartitions = &apiError{400, "CommandsInBatchActOnDifferentPartitions", "All commands in a batch must operate on same entity group."}
	errTooManyOps      = &apiError{400, "InvalidInput", "The batch request operation exceeds the maximum 100 changes per change set."}
	errBodyTooLarge    = &apiError{413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit."}
	errMethod          = &apiError{405, "UnsupportedHttpVerb", "The resource doesn't support specified Http Verb."}
	errMissingIfMatch  = &apiError{400, "MissingRequiredHeader", "An HTTP header that's mandatory for this request is not specified."}
	errBadKey          = &apiError{400, "InvalidInput", "One of the request inputs is not valid. The PartitionKey or RowKey holds a character that is not allowed (/ \\ # ? or a control character)."}
)

func invalidInput(format string, a ...any) *apiError {
	return &apiError{400, "InvalidInput", "One of the request inputs is not valid. " + fmt.Sprintf(format, a...)}
}

// errorBody renders Azure's JSON error; prefix is the failing operation's
// index in a batch ("0:") or "".
func errorBody(e *apiError, prefix string, now time.Time) []byte {
	msg := prefix + e.msg + "\nRequestId:" + requestID(now) + "\nTime:" + now.UTC().Format("2006-01-02T15:04:05.0000000Z")
	b := []byte(`{"odata.error":{"code":`)
	b = jsontext.AppendString(b, e.code)
	b = append(b, `,"message":{"lang":"en-US","value":`...)
	b = jsontext.AppendString(b, msg)
	return append(b, `}}}`...)
}

// writeErrorFor answers e as writeError does, in XML when the request
// asked for XML (Accept: application/xml, as the SDKs send for service
// properties and table ACLs), as Azure answers such a request: an
// <Error> document with its Code and Message.
func writeErrorFor(w http.ResponseWriter, r *http.Request, e *apiError, now time.Time) {
	if a := reqHeader(r, "Accept"); !strings.Contains(a, "application/xml") || strings.Contains(a, "json") {
		writeError(w, e, now)
		return
	}
	h := w.Header()
	h["Content-Type"] = []string{"application/xml"}
	if e.code != "" {
		h["X-Ms-Error-Code"] = []string{e.code}
	}
	w.WriteHeader(e.status)
	msg := e.msg + "\nRequestId:" + requestID(now) + "\nTime:" + now.UTC().Format("2006-01-02T15:04:05.0000000Z")
	w.Write([]byte(`<?xml version="1.0" encoding="utf-8"?><Error><Code>` + xmlText.Replace(e.code) +
		`</Code><Message>` + xmlText.Replace(msg) + `</Message></Error>`))
}

// xmlText escapes text for an XML element (its line breaks kept, as
// Azure writes its messages' RequestId and Time lines).
var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// writeError answers e, with the x-ms-error-code header Azure sends.
func writeError(w http.ResponseWriter, e *apiError, now time.Time) {
	h := w.Header()
	h["Content-Type"] = hdrJSON
	if e.code != "" {
		h["X-Ms-Error-Code"] = []string{e.code}
	}
	w.WriteHeader(e.status)
	w.Write(errorBody(e, "", now))
}
