package table

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Result is the outcome of one request. It is never nil-like: a request that
// got no answer has an Outcome of class Transport, Timeout or Canceled.
type Result struct {
	Outcome outcome.Outcome
	// ETag of the entity written or read.
	ETag string
	// Entities the request served: 1 for a write or a found point read, the
	// entities of a query page, the actions of a successful transaction.
	Entities int
	// RetryAfter is the service's hint (Cosmos DB x-ms-retry-after-ms, or
	// Retry-After), 0 when none.
	RetryAfter time.Duration
	// FailedIndex is the failing operation of a failed transaction, else -1.
	FailedIndex int
	// Err is nil on success; otherwise a one-line description without secrets.
	Err error
}

func okResult(status, entities int, etag string) Result {
	return Result{Outcome: outcome.New(status, ""), Entities: entities, ETag: etag, FailedIndex: -1}
}

// classify turns an aztables error into a Result. ctx is the caller's
// context (canceled means the run is stopping); opCtx the one with the
// per-request timeout.
func classify(ctx, opCtx context.Context, err error) Result {
	res := Result{FailedIndex: -1}
	var re *azcore.ResponseError
	switch {
	case errors.As(err, &re):
		status, code, msg := re.StatusCode, re.ErrorCode, ""
		body := responseBody(re.RawResponse)
		if status == http.StatusAccepted {
			// A failed entity group transaction: the real answer is inside.
			status, code, msg, res.FailedIndex = parseBatchFailure(body)
		} else {
			c, m := parseODataError(body)
			if code == "" {
				code = c
			}
			msg = m
		}
		res.Outcome = outcome.New(status, code)
		if re.RawResponse != nil {
			res.RetryAfter = retryAfter(re.RawResponse.Header)
		}
		res.Err = fmt.Errorf("%s: %s", res.Outcome.Key(), firstLine(msg, http.StatusText(status)))
	case ctx.Err() != nil:
		res.Outcome = outcome.Outcome{Class: outcome.Canceled}
		res.Err = errors.New("canceled: the run is stopping")
	case opCtx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		res.Outcome = outcome.Outcome{Class: outcome.Timeout}
		res.Err = errors.New("timeout: no answer within the request timeout")
	default:
		res.Outcome = outcome.Outcome{Class: outcome.Transport}
		res.Err = fmt.Errorf("transport: %s", transportCause(err))
	}
	return res
}

// transportCause describes a transport error without the request URL (which
// may carry a SAS signature).
func transportCause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	// Some errors embed a URL anyway; cut from the first scheme.
	if i := strings.Index(msg, "http"); i >= 0 && strings.Contains(msg[i:], "://") {
		msg = strings.TrimSpace(msg[:i]) + " <url>"
	}
	return firstLine(msg, "no answer")
}

func responseBody(resp *http.Response) []byte {
	if resp == nil || resp.Body == nil {
		return nil
	}
	b, _ := runtime.Payload(resp) // azcore caches the body it already read
	return b
}

// parseODataError reads {"odata.error":{"code":..,"message":{"value":..}}}.
func parseODataError(body []byte) (code, msg string) {
	var e struct {
		Err struct {
			Code    string `json:"code"`
			Message struct {
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	if json.Unmarshal(bytes.TrimSpace(body), &e) != nil {
		return "", ""
	}
	return e.Err.Code, e.Err.Message.Value
}

var statusLineRE = regexp.MustCompile(`HTTP/1\.1 (\d{3})`)

// parseBatchFailure finds the failing operation in a transaction's
// multipart response: its status line and the JSON error after it, whose
// message starts with the operation's index ("0:The specified entity
// already exists."). Unparseable bodies are reported as 202 with the code
// "TransactionFailed" so they are never counted as success.
func parseBatchFailure(body []byte) (status int, code, msg string, index int) {
	index = -1
	for _, m := range statusLineRE.FindAllSubmatchIndex(body, -1) {
		st, _ := strconv.Atoi(string(body[m[2]:m[3]]))
		if st >= 200 && st < 300 {
			continue
		}
		status = st
		rest := body[m[1]:]
		if j := bytes.IndexByte(rest, '{'); j >= 0 {
			end := bytes.Index(rest[j:], []byte("\r\n--"))
			if end < 0 {
				end = bytes.Index(rest[j:], []byte("\n--"))
			}
			if end < 0 {
				end = len(rest) - j
			}
			code, msg = parseODataError(rest[j : j+end])
		}
		if k := strings.IndexByte(msg, ':'); k > 0 {
			if n, err := strconv.Atoi(msg[:k]); err == nil {
				index = n
				msg = msg[k+1:]
			}
		}
		return status, code, msg, index
	}
	return http.StatusAccepted, "TransactionFailed", "the transaction failed and its response could not be read", -1
}

func retryAfter(h http.Header) time.Duration {
	if v := h.Get("x-ms-retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
	}
	return 0
}

func firstLine(s, fallback string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return fallback
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
