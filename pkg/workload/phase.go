package workload

// Phase is a step of a run, in order: create the tables, seed them, count
// the seeded rows, warm up, drive the measured workload, read back the
// writes.
type Phase uint8

// The phases of a run. PhaseWarmup comes only with a warm-up; PhaseRun
// starts the measured window.
const (
	PhaseCreate Phase = iota
	PhaseSeed
	PhaseCountSeed
	PhaseWarmup
	PhaseRun
	PhaseVerify
	PhaseDone
)

var phaseNames = [...]string{"create tables", "seed", "verify seed", "warming up", "run", "verify", "done"}

// String names the phase as the live status line shows it.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Measured is an optional capability of a Service whose behaviour differs
// between setup and measurement: the embedded service suspends its
// throttling model and fault injection outside the run phase (seeding is
// setup, not measurement). Run calls SetMeasured(true) as the warm-up (or
// the run phase) starts and SetMeasured(false) before and after them.
type Measured interface {
	SetMeasured(on bool)
}

// enter announces phase p to the service (when it is Measured, and its
// measurement changes) and to the Events hook.
func (c *Config) enter(p Phase) {
	on := p == PhaseWarmup || p == PhaseRun
	if m, ok := c.Service.(Measured); ok && (on != c.measuring || p == PhaseCreate) {
		m.SetMeasured(on)
	}
	c.measuring = on
	if c.Events.Phase != nil {
		c.Events.Phase(p)
	}
}
