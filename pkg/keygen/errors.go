// Package keygen is tablestress's population model and key schemes.
//
// Entity i (i = 0, 1, 2, ...) of a population is a pure function of the
// population seed and i: every field value is drawn from that field's own
// deterministic stream, the event time is Start + i*Interval, and the payload
// is a slice of a seeded buffer. A key scheme is a pair of templates
// (PartitionKey, RowKey) over those fields, so comparing schemes replays the
// same entity stream through different key functions.
//
// Nothing in this package talks to a server or reads a clock.
package keygen

import "errors"

// Sentinel errors; every error of this package wraps one of them.
var (
	ErrDistribution = errors.New("keygen: bad distribution")
	ErrField        = errors.New("keygen: bad field")
	ErrTemplate     = errors.New("keygen: bad key template")
	ErrKey          = errors.New("keygen: invalid key")
	ErrScheme       = errors.New("keygen: bad key scheme")
)
