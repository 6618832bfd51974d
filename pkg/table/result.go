package table

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/tablestress/tablestress/pkg/outcome"
)

// Result is the outcome of one operation (one request, or none when the
// input was refused first). A request that got no answer has an Outcome of
// class Transport, Timeout or Canceled and Status 0.
type Result struct {
	Outcome outcome.Outcome
	// ETag of the entity written or read, when the service sent one.
	ETag string
	// Entities the request served: 1 for a write or a found point read, the
	// entities of a query page, the actions of a successful transaction; 0
	// for failures.
	Entities int
	// RetryAfter is the service's hint (x-ms-retry-after-ms, as Cosmos DB
	// sends with 429, retry-after-ms, or Retry-After in seconds); 0 when none.
	RetryAfter time.Duration
	// Entity is the entity a successful Get read, as the service sent it
	// (without a projection), else nil.
	Entity []byte
	// Charge is the request units the service charged for the request
	// (ChargeHeader, which Cosmos DB sends with every answer, refusals
	// included); Charged is false when it said nothing (or nothing
	// readable: a charge is a finite number, not negative).
	Charge  float64
	Charged bool
	// Visited is the rows a query page visited (VisitedHeader, the
	// embedded service); VisitedSent is false when the service did not
	// say.
	Visited     int
	VisitedSent bool
	// FailedIndex is the failing operation of a failed transaction (from
	// the service's "N:message", or the refused action), else -1.
	FailedIndex int
	// Err is nil on success; otherwise one line without secrets, e.g.
	// "503 ServerBusy: The server is currently unable to receive requests.".
	Err error
	// Detail is the answer's AuthenticationErrorDetail, when it has one:
	// which check a refused token or signature failed.
	Detail string
}

// ErrNotSent is wrapped by the Err of an operation refused before sending
// (a bad entity, a transaction too large): its Outcome is 400 InvalidInput,
// what the service would have answered, but no request was sent.
var ErrNotSent = errors.New("table: not sent")

// ErrNoAnswer is wrapped by the Err of a request that got no HTTP answer
// (Transport, Timeout and Canceled outcomes).
var ErrNoAnswer = errors.New("table: no answer")

// ErrSignIn is wrapped by the Err of a request not sent because no token
// could be obtained for it: DefaultAzureCredential found no credential, or
// the authority refused it. No retry cures it.
var ErrSignIn = errors.New("table: cannot sign in")

// resultError is a Result's Err: the outcome's key and a message.
type resultError struct {
	key   string
	msg   string
	cause error
}

func (e *resultError) Error() string { return e.key + ": " + e.msg }
func (e *resultError) Unwrap() error { return e.cause }

// okResult is the Result of a successful request of call c (nil: none was
// sent): its status, or def when none was seen, and what the answer
// measured (its charge and rows visited).
func okResult(c *call, def, entities int, etag string) Result {
	status := def
	if c != nil {
		status = c.statusOr(def)
	}
	res := Result{Outcome: outcome.Outcome{Status: status, Class: outcome.Classify(status, "")},
		Entities: entities, ETag: etag, FailedIndex: -1}
	c.measured(&res)
	return res
}

var invalidInput = outcome.New(http.StatusBadRequest, "InvalidInput")

// notSent is the Result of an operation refused before sending.
func notSent(err error, index int) Result {
	return Result{Outcome: invalidInput, FailedIndex: index,
		Err: &resultError{key: invalidInput.Key(), msg: err.Error() + " (not sent)", cause: errors.Join(ErrNotSent, err)}}
}

// wrapf adds detail to a sentinel, keeping it matchable with errors.Is.
func wrapf(err error, detail string) error { return &detailError{err: err, detail: detail} }

type detailError struct {
	err    error
	detail string
}

func (e *detailError) Error() string { return e.err.Error() + ": " + e.detail }
func (e *detailError) Unwrap() error { return e.err }

// classify turns an error of aztables into a Result. ctx is the caller's
// context (canceled or past its own deadline: the run is stopping), c the
// operation's, bounded by the request timeout.
func classify(ctx context.Context, c *call, err error) Result {
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		res := answered(re)
		c.measured(&res)
		return res
	}
	var se *json.SyntaxError
	if c.status == 0 && errors.As(err, &se) {
		// aztables decodes the entity before sending: no answer and a
		// syntax error mean the entity was not JSON and nothing was sent.
		return notSent(errNotJSON, -1)
	}
	res := Result{FailedIndex: -1}
	switch {
	case ctx.Err() != nil:
		res.Outcome = outcome.Outcome{Class: outcome.Canceled}
		res.Err = &resultError{key: "canceled", msg: "the caller's context ended before the answer", cause: ErrNoAnswer}
	case c.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		res.Outcome = outcome.Outcome{Class: outcome.Timeout}
		res.Err = &resultError{key: "timeout", msg: "no answer within the request timeout", cause: ErrNoAnswer}
	default:
		res.Outcome = outcome.Outcome{Class: outcome.Transport}
		res.Err = &resultError{key: "transport", msg: transportCause(err), cause: ErrNoAnswer}
		if cause := signinCause(err); cause != "" {
			res.Err = &resultError{key: "signin", msg: cause, cause: errors.Join(ErrNoAnswer, ErrSignIn)}
		}
	}
	return res
}

// answered classifies an HTTP answer: its status and error code (the
// x-ms-error-code header, else the body's), and for a failed transaction,
// which aztables reports as a 202 ResponseError without a code, the status
// and code of the failing operation inside the multipart body.
func answered(re *azcore.ResponseError) Result {
	res := Result{FailedIndex: -1}
	status, code := re.StatusCode, re.ErrorCode
	body := responseBody(re.RawResponse)
	var msg string
	if status == http.StatusAccepted {
		res.Outcome, msg, res.FailedIndex = transactionOutcome(body)
	} else {
		c, m := errorDetail(body)
		if code == "" {
			code = c
		}
		res.Outcome, msg = outcome.New(status, code), m
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			res.Detail = authDetail(body)
		}
	}
	if re.RawResponse != nil {
		res.RetryAfter = retryAfter(re.RawResponse.Header)
	}
	if msg == "" {
		msg = http.StatusText(res.Outcome.Status)
	}
	res.Err = &resultError{key: res.Outcome.Key(), msg: msg}
	return res
}

// transactionOutcome classifies a failed transaction's 202 body. An inner
// status line gives the status; a JSON error body with a code but no
// status line is a client error kept as 202 with that code; anything
// unreadable is a Transport outcome "202 TransactionFailed", never a success.
func transactionOutcome(body []byte) (o outcome.Outcome, msg string, index int) {
	if f, ok := parseBatchFailure(body); ok {
		return outcome.New(f.status, f.code), f.msg, f.index
	}
	if code, m := errorDetail(body); code != "" {
		return outcome.Outcome{Status: http.StatusAccepted, Code: code, Class: outcome.ClientError}, m, -1
	}
	return outcome.Outcome{Status: http.StatusAccepted, Code: "TransactionFailed", Class: outcome.Transport},
		"the transaction failed and its answer could not be read", -1
}

// retryAfter reads the service's retry hint, 0 when none.
func retryAfter(h http.Header) time.Duration {
	for _, k := range [...]string{"X-Ms-Retry-After-Ms", "Retry-After-Ms"} {
		if v := h[k]; len(v) > 0 {
			if ms, err := strconv.ParseFloat(v[0], 64); err == nil && ms >= 0 && ms < 1e9 {
				return time.Duration(ms * float64(time.Millisecond))
			}
		}
	}
	if v := h["Retry-After"]; len(v) > 0 {
		if s, err := strconv.Atoi(v[0]); err == nil && s >= 0 && s < 1e6 {
			return time.Duration(s) * time.Second
		}
	}
	return 0
}
