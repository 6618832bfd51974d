package session

import (
	"context"
	"crypto/x509"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/metrics"
	"github.com/tablestress/tablestress/pkg/plan"
	"github.com/tablestress/tablestress/pkg/table"
	"github.com/tablestress/tablestress/pkg/workload"
)

// The ways a client reaches the embedded service (Options.Transport).
const (
	// InProcess hands the SDK's requests to the service in this process,
	// with no socket and no HTTP text (the default).
	InProcess = "in-process"
	// Socket serves the embedded service on a free loopback port.
	Socket = "socket"
)

// The clocks a session may live on (Options.Clock).
const (
	ClockVirtual = "virtual"
	ClockWall    = "wall"
)

// DefaultDownAfter is how long a target may answer nothing (or only
// refusals) before it counts as down: --down-after's default, and the
// proof's.
const DefaultDownAfter = 5 * time.Second

// Options are a session: what to run, where, on which clock, and who
// watches. The zero value of a field is its default.
type Options struct {
	// Spec is the compiled run (plan.Build): the schemes, the seed, the
	// load, the warm-up and the measured window. Required.
	Spec *plan.Spec
	// Source is the scenario file as run, kept in the reports (nil: none).
	Source []byte
	// Target is where to run; KindEmbedded starts the embedded service
	// described by Embedded.
	Target table.Target
	// Embedded is the embedded service's configuration (model, faults).
	Embedded emulator.Config
	// Transport is how the client reaches the embedded service: InProcess
	// ("" too) or Socket.
	Transport string
	// Start, when set, starts the embedded service in place of Transport's
	// way; the service it starts is reached however it says, on its own
	// clock (tests serve it over in-memory connections).
	Start func(emulator.Config) (*Embedded, error)
	// Clock is ClockVirtual, ClockWall or "" (virtual where it can serve,
	// else wall); ClockGiven says it was asked for, so that a virtual
	// clock where it cannot serve is a *ClockError, not the wall clock.
	Clock      string
	ClockGiven bool
	// Before, when set, is called with the target as it will be reached
	// (the embedded service already started), before any connection to
	// it: an error (a refusal to load a remote account, say) ends Open.
	Before func(table.Target) error
	// Roots, when set, returns the certificates to trust besides the
	// system's, for the target's TLS; called once, after Before.
	Roots func() (*x509.CertPool, error)
	// UserAgent is sent with every request.
	UserAgent string
	// PartitionUnits is the RU/s a charged partition is judged against;
	// 0: the embedded cosmos model's physical partition share, else none.
	PartitionUnits float64
	Settings
	Watch
}

// Settings are the settings of each run of a session (workload.Config's).
type Settings struct {
	Table            string
	Reuse, Keep      bool
	SkipSeed, Verify bool
	Reconnect        bool
	DownAfter, Grace time.Duration
	RunID            string
	// SeedRequests and SeedPartitionEntities pace the seed phase
	// (requests/s to the account, entities/s per partition) when set;
	// else workload.SeedLimitsFor the target decides.
	SeedRequests, SeedPartitionEntities *float64
	// Hard, when done, cancels the requests in flight too (a second
	// interrupt); nil: never.
	Hard context.Context
}

// Watch are the callbacks that watch a session's runs; each may be nil.
type Watch struct {
	// Progress is called as a run of scheme starts, on the session's clock
	// c, with its warm-up and measured window: the events it returns
	// watch the run, and done is called when the run has ended.
	Progress func(scheme string, c clock.Clock, warmup, window time.Duration) (ev workload.Events, done func())
	// Registry receives each run's live metrics, as a snapshot taken on
	// the session's clock.
	Registry func(scheme string, snapshot func() *metrics.Summary)
	// Warn receives what went wrong without failing a run (a table left
	// behind).
	Warn func(error)
}
