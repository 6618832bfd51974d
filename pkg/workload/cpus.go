package workload

import (
	"runtime"

	"github.com/tablestress/tablestress/pkg/clock"
)

// virtualCPUs is how many CPUs a run on a virtual clock sizes itself for
// (the open loop's recorders, the seed phase's producers), whatever the
// machine has: its goroutines run one at a time anyway, and what it
// reports must not depend on the machine it ran on.
const virtualCPUs = 2

// cpus is how many CPUs a run on c sizes itself for: the process's on the
// wall clock, virtualCPUs on a virtual one.
func cpus(c Clock) int {
	if clock.IsVirtual(c) {
		return virtualCPUs
	}
	return runtime.GOMAXPROCS(0)
}
