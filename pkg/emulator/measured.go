package emulator

import (
	"sync"

	"github.com/tablestress/tablestress/pkg/emulator/faults"
)

// measuring is whether the service measures (models throttling and injects
// faults) and the fault injection it injects while it does.
type measuring struct {
	mu     sync.Mutex
	on     bool
	faults faults.Config
}

// SetFaults sets the fault injection (a zero Config injects nothing); it
// applies from the next request on while the service measures (see
// SetMeasured), with its counts starting again from zero.
func (s *Server) SetFaults(cfg faults.Config) {
	s.measure.mu.Lock()
	defer s.measure.mu.Unlock()
	s.measure.faults = cfg
	s.installFaults()
}

// SetMeasured switches measurement on or off. Off (while a client sets up a
// run: creating and seeding its tables, reading them back) the partition
// model admits everything and no fault is injected; on (the default, and
// during a run's measured phase) both apply, the fault counts starting
// again from zero.
func (s *Server) SetMeasured(on bool) {
	s.measure.mu.Lock()
	defer s.measure.mu.Unlock()
	s.measure.on = on
	s.model.SetPaused(!on)
	s.installFaults()
}

// installFaults installs the injection for the current state; s.measure.mu
// is held.
func (s *Server) installFaults() {
	cfg := s.measure.faults
	if !s.measure.on {
		cfg = faults.Config{}
	}
	s.faults.Store(faults.New(cfg))
}
