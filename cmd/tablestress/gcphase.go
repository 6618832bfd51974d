package main

import "github.com/tablestress/tablestress/pkg/workload"

// measureHeadroom is the least a process hosting the embedded service lets
// its heap grow between collections while a run measures (its warm-up and
// measured window). A collection's marking takes CPU from the service and
// the client, and its assists and pauses land in the latencies measured:
// at 15,000 inserts/s with an index row each, in process, the collector
// took 6% of the CPU with serviceHeadroom. Seeding and the phases around
// it keep serviceHeadroom, so that a table of millions of entities does
// not take a gigabyte more while it is written.
const measureHeadroom = 1 << 30

// measure returns ev with its Phase hook also giving the collector
// measureHeadroom while the run measures and serviceHeadroom in the other
// phases. It returns ev as it is unless the process follows a service
// host's policy (applyGC with hostsService, and neither GOGC nor
// GOMEMLIMIT set by the user).
func (g *gcTune) measure(ev workload.Events) workload.Events {
	if !g.hosts.Load() {
		return ev
	}
	next := ev.Phase
	ev.Phase = func(p workload.Phase) {
		h := int64(serviceHeadroom)
		if p == workload.PhaseWarmup || p == workload.PhaseRun {
			h = measureHeadroom
		}
		if g.headroom.Swap(h) != h {
			select {
			case g.kick <- struct{}{}:
			default:
			}
		}
		if next != nil {
			next(p)
		}
	}
	return ev
}
