package table

import (
	"bytes"
	"strconv"
	"strings"
)

// batchFailure is the failing operation of an entity group transaction.
type batchFailure struct {
	status int
	code   string
	msg    string
	index  int // -1 when the answer does not say
}

var (
	statusLinePrefix = []byte("HTTP/1.")
	partBoundary     = []byte("\n--")
)

// parseBatchFailure finds the failing operation in a failed transaction's
// multipart answer, which aztables hands over as a 202 ResponseError:
//
//	--batchresponse_…
//	Content-Type: multipart/mixed; boundary=changesetresponse_…
//
//	--changesetresponse_…
//	Content-Type: application/http
//
//	HTTP/1.1 409 Conflict
//	Content-Type: application/json;odata=minimalmetadata;…
//
//	{"odata.error":{"code":"EntityAlreadyExists","message":{"value":"1:The specified entity already exists.\nRequestId:…"}}}
//	--changesetresponse_…--
//
// The first non-2xx status line gives the status (a 424 Failed Dependency,
// which marks the operations that did not run, only when nothing else
// failed); its part's x-ms-error-code header or JSON error gives the code,
// and the message's "N:" prefix the index of the operation. When the
// message has no prefix but the answer holds one part per operation, the
// part's position is the index. ok is false when the body holds no failed
// status line. It scans with bytes.Index: no regular expression, no
// allocation but the code and message strings.
func parseBatchFailure(body []byte) (f batchFailure, ok bool) {
	f.index = -1
	parts, failAt, failEnd := 0, -1, 0
	for pos := 0; ; {
		i := bytes.Index(body[pos:], statusLinePrefix)
		if i < 0 {
			break
		}
		i += pos
		pos = i + len(statusLinePrefix)
		// "HTTP/1.1 409 Conflict" at the start of a line.
		if (i > 0 && body[i-1] != '\n') || i+len("HTTP/1.1 409") > len(body) || body[i+8] != ' ' {
			continue
		}
		st, err := strconv.Atoi(string(body[i+9 : i+12]))
		if err != nil || st < 100 || st > 599 {
			continue
		}
		if st < 200 || st >= 300 {
			if failAt < 0 || (f.status == 424 && st != 424) {
				failAt, f.status, failEnd = parts, st, i+12
			}
		}
		parts++
	}
	if failAt < 0 {
		return batchFailure{index: -1}, false
	}
	part := body[failEnd:]
	if j := bytes.Index(part, partBoundary); j >= 0 {
		part = part[:j]
	}
	head, payload := part, []byte(nil)
	if j := bytes.Index(part, []byte("\r\n\r\n")); j >= 0 {
		head, payload = part[:j], part[j+4:]
	} else if j := bytes.Index(part, []byte("\n\n")); j >= 0 {
		head, payload = part[:j], part[j+2:]
	}
	f.code = headerValue(head, "x-ms-error-code")
	code, msg := errorDetail(payload)
	if f.code == "" {
		f.code = code
	}
	f.msg = msg
	if k := strings.IndexByte(msg, ':'); k > 0 && k <= 3 {
		if n, err := strconv.Atoi(msg[:k]); err == nil && n >= 0 && n < MaxTransactionActions {
			f.index, f.msg = n, msg[k+1:]
		}
	}
	if f.index < 0 && parts > 1 {
		f.index = failAt
	}
	return f, true
}

// headerValue returns the value of the header name (case-insensitive) in
// a block of header lines, "" when absent.
func headerValue(head []byte, name string) string {
	for len(head) > 0 {
		line := head
		if j := bytes.IndexByte(head, '\n'); j >= 0 {
			line, head = head[:j], head[j+1:]
		} else {
			head = nil
		}
		k := bytes.IndexByte(line, ':')
		if k > 0 && strings.EqualFold(string(bytes.TrimSpace(line[:k])), name) {
			return string(bytes.TrimSpace(line[k+1:]))
		}
	}
	return ""
}
