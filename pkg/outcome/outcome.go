// Package outcome is the shared vocabulary for what happened to one request sent
// to a Table endpoint: its HTTP status, Azure error code and class. The table
// client produces outcomes, the metrics recorder counts them by Key, and the
// embedded service keys its own counters the same way, so client and server
// counts can be compared map to map.
package outcome

import (
	"strconv"
)

// Class is the coarse kind of a request outcome.
type Class uint8

// The classes of a request outcome. Every outcome has exactly one.
const (
	// OK is any 2xx answer (for an entity group transaction: every operation succeeded).
	OK Class = iota
	// Throttled is the service shedding load: 503 (ServerBusy and friends),
	// 500 OperationTimedOut, 504 from a gateway, and 429 from Cosmos DB.
	Throttled
	// ClientError is any other 4xx: 400, 403, 404, 409, 412, 413...
	ClientError
	// ServerError is any other 5xx (500 InternalError, 501, 505...).
	ServerError
	// Transport is a request that got no HTTP answer: refused or reset connection,
	// malformed response.
	Transport
	// Timeout is a request that hit the per-request deadline without an answer.
	Timeout
	// Canceled is a request abandoned because the run was stopping.
	Canceled
)

var classNames = [...]string{"ok", "throttled", "client_error", "server_error", "transport", "timeout", "canceled"}

// String returns the lower-case name used in reports ("ok", "throttled", ...).
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class(" + strconv.Itoa(int(c)) + ")"
}

// Outcome is what one request came back with.
type Outcome struct {
	// Status is the HTTP status; 0 when there was no HTTP answer.
	Status int
	// Code is the Azure error code (x-ms-error-code or the odata.error body),
	// empty for successes and for answers that carried none.
	Code string
	// Class is the coarse kind derived from Status and Code (see Classify).
	Class Class
}

// New returns the outcome for an HTTP answer, classified by Classify.
func New(status int, code string) Outcome {
	return Outcome{Status: status, Code: code, Class: Classify(status, code)}
}

// Classify maps an HTTP status and Azure error code to a Class. Throttling is
// 503 (any code), 504, 429, and 500 with code OperationTimedOut; those are the
// answers Azure and Cosmos DB give when a partition, server or account is over
// its target.
func Classify(status int, code string) Class {
	switch {
	case status >= 200 && status < 300:
		return OK
	case status == 503, status == 504, status == 429:
		return Throttled
	case status == 500 && code == "OperationTimedOut":
		return Throttled
	case status >= 400 && status < 500:
		return ClientError
	case status >= 500:
		return ServerError
	}
	return Transport
}

// Key is the report's status key: "200", "503 ServerBusy", "409 EntityAlreadyExists";
// "transport", "timeout" or "canceled" when there was no HTTP answer.
func (o Outcome) Key() string {
	switch o.Class {
	case Transport, Timeout, Canceled:
		if o.Status == 0 {
			return o.Class.String()
		}
	}
	if o.Code == "" {
		if o.Status >= 0 && o.Status < len(statusKeys) {
			return statusKeys[o.Status] // every answer counts one: no allocation
		}
		return strconv.Itoa(o.Status)
	}
	return strconv.Itoa(o.Status) + " " + o.Code
}

// statusKeys are the keys of the HTTP statuses without an error code.
var statusKeys = func() (k [600]string) {
	for i := range k {
		k[i] = strconv.Itoa(i)
	}
	return k
}()

// Retryable reports whether the retry strategies of REST "Design a scalable
// partitioning strategy for Azure Table storage", "Retry strategy", apply:
// throttling, timeouts, transport failures and 5xx answers other than 501 and
// 505. Client errors (4xx other than 429) are never retried.
func (o Outcome) Retryable() bool {
	switch o.Class {
	case Throttled, Timeout, Transport:
		return true
	case ServerError:
		return o.Status != 501 && o.Status != 505
	}
	return false
}
