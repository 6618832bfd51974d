package faults

import (
	"errors"
	"strconv"
	"time"
)

// Config is a fault spec. The zero value injects nothing. Shares are
// fractions in [0, 1].
type Config struct {
	// Status maps an HTTP status (429, 500, 503, 504) to the share of
	// requests answered with it instead of being served. Status shares and
	// Drop are exclusive outcomes of one draw: they add up to at most 1.
	Status map[int]float64
	// Latency rules each add their delay to their share of requests,
	// independently of each other and of every other fault.
	Latency []Latency
	// Drop is the share of requests whose connection is closed without an
	// answer.
	Drop float64
	// Discard is the share of the writes that would be served (no status
	// answer, not dropped) that are acknowledged but not stored.
	Discard float64
	// Partitions, when not empty, limits faults to requests addressing one
	// of these PartitionKeys; other requests, and requests spanning
	// partitions, get none and do not count as decisions.
	Partitions []string
	// Seed selects the sequence of decisions.
	Seed uint64
}

// Latency is one latency rule: Share of requests get a delay uniform in
// [Min, Max] (exactly Min when Max ≤ Min).
type Latency struct {
	Min, Max time.Duration
	Share    float64
}

// maxLatency bounds the delays Parse accepts.
const maxLatency = 10 * time.Minute

// ErrSpec is what every Parse error wraps (errors.Is(err, ErrSpec)).
var ErrSpec = errors.New("faults: bad spec")

// SpecError is a Parse error: the offending item and what would be right.
// It unwraps to ErrSpec.
type SpecError struct {
	Item   string // the item as written ("503=abc"), or the whole spec
	Reason string
}

// Error returns `faults: "ITEM": REASON`.
func (e *SpecError) Error() string { return "faults: " + strconv.Quote(e.Item) + ": " + e.Reason }

// Unwrap returns ErrSpec.
func (e *SpecError) Unwrap() error { return ErrSpec }

// Forms describes the spec, for usage texts.
const Forms = "none, or comma-separated items: 503=2% 500=1% 504=0.5% 429=1% (shares of requests answered with that status: " +
	"503 ServerBusy, 500 OperationTimedOut, 504 gateway timeout, 429 Cosmos DB's Request rate is large), " +
	"latency=5ms (added to every request) or latency=1ms..20ms@10% (uniform, to a share; repeatable, delays add up), " +
	"drop=0.1% (close the connection unanswered), discard=0.1% (writes acknowledged but not stored), " +
	"partitions=a|b (only these PartitionKeys), seed=7; a share is a percentage like 2% or a fraction like 0.02"
