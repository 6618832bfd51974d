// Package faults is the embedded Table service's fault injection: shares of
// throttling answers (503 ServerBusy, 500 OperationTimedOut, 504 from a
// gateway, 429 from Cosmos DB), added latency, dropped connections and
// writes acknowledged but not stored, optionally only for named
// partitions. It has no HTTP: the service asks Decide before serving each
// request and carries out the Fault.
//
// Decisions are deterministic for a seed: the n-th decision (counting only
// requests the partition filter lets through) is a pure function of
// (seed, n, write), computed by hashing, not drawn from a shared generator.
// Each share is therefore exact in expectation and binomially distributed
// around it, and two injectors with the same Config give the same sequence.
package faults

import "time"

// Fault is what to do to one request before it is served. The zero Fault
// is "serve normally".
type Fault struct {
	// Status, when non-zero, is answered instead of serving the request
	// (503, 500, 504 or 429).
	Status int
	// Code is the Azure error code for Status ("ServerBusy",
	// "OperationTimedOut", "TooManyRequests"); "" for 504, which comes from
	// a gateway, not from the Table service.
	Code    string
	Message string
	// Delay is latency added before the request is handled (also before a
	// Status answer or a Drop).
	Delay time.Duration
	// Drop closes the connection without any answer.
	Drop bool
	// Discard, for writes only, acknowledges the write as a success but
	// does not store it (to prove read-back verification finds it).
	Discard bool
}

// answer is the error answer of one status fault.
type answer struct {
	status        int
	code, message string
}

// answers are the status faults, in the order Parse accepts and String
// writes them; the messages are Azure's and Cosmos DB's own.
var answers = [...]answer{
	{429, "TooManyRequests", "Message: {\"Errors\":[\"Request rate is large. More Request Units may be needed, so operation failed. Please retry after some time.\"]}"},
	{500, "OperationTimedOut", "Operation could not be completed within the specified time."},
	{503, "ServerBusy", "The server is currently unable to receive requests. Please retry your request."},
	{504, "", "Gateway Timeout"},
}
