package report

// Client is what a run cost the machine it ran on over the measured
// window: the CPU of tablestress's process (with the embedded service
// when it ran in the same process) and of the whole machine, so that a
// run that dropped work can say whether the client ran out of CPU.
type Client struct {
	// CPUSeconds is the process's CPU time, user and system.
	CPUSeconds float64 `json:"cpu_s"`
	// Cores is the CPUs the process may use at once (GOMAXPROCS).
	Cores int `json:"cores"`
	// Busy is CPUSeconds over Cores × the window: the share of its CPUs
	// the process kept busy.
	Busy float64 `json:"busy"`
	// MachineBusy is the share of the machine's CPU time that was busy,
	// by any process; absent where the system does not say.
	MachineBusy *float64 `json:"machine_busy,omitempty"`
	// CPUPerOpUs is the process's CPU time per completed operation, in µs.
	CPUPerOpUs float64 `json:"cpu_us_per_op"`
	// Workers is how many workers the run started: all of an open loop's
	// (run.workers) when its operations needed them all at once.
	Workers int `json:"workers"`
	// WithService is set when the process ran the embedded service too
	// (the embedded target in process): its CPU is client and service
	// together.
	WithService bool `json:"with_service,omitempty"`
	// Limit is set when the run dropped work because the client could
	// not offer the load (JudgeClient).
	Limit *ClientLimit `json:"limit,omitempty"`
}
