package main

import (
	"testing"

	"github.com/tablestress/tablestress/pkg/workload"
)

// A service host's collector gets measureHeadroom while the run measures
// (warm-up and run) and serviceHeadroom in every other phase, told at once
// (a kick), with the hook it wraps still called; a process that does not
// follow a service host's policy keeps its hooks as they are.
func TestGCMeasureHeadroom(t *testing.T) {
	g := &gcTune{kick: make(chan struct{}, 1)}
	g.hosts.Store(true)
	g.headroom.Store(serviceHeadroom)
	var seen []workload.Phase
	ev := g.measure(workload.Events{Phase: func(p workload.Phase) { seen = append(seen, p) }})
	for _, step := range []struct {
		p    workload.Phase
		want int64
		kick bool
	}{
		{workload.PhaseSeed, serviceHeadroom, false},
		{workload.PhaseWarmup, measureHeadroom, true},
		{workload.PhaseRun, measureHeadroom, false},
		{workload.PhaseVerify, serviceHeadroom, true},
		{workload.PhaseDone, serviceHeadroom, false},
	} {
		ev.Phase(step.p)
		kicked := false
		select {
		case <-g.kick:
			kicked = true
		default:
		}
		if got := g.headroom.Load(); got != step.want || kicked != step.kick {
			t.Errorf("%v: headroom %d MiB, kicked %v; want %d MiB, %v", step.p, got>>20, kicked, step.want>>20, step.kick)
		}
	}
	if len(seen) != 5 {
		t.Errorf("the wrapped hook saw %v, want all five phases", seen)
	}
	client := &gcTune{kick: make(chan struct{}, 1)}
	client.headroom.Store(clientHeadroom)
	if ev := client.measure(workload.Events{}); ev.Phase != nil {
		t.Error("a client's events gained a phase hook")
	}
	if measureHeadroom <= serviceHeadroom {
		t.Errorf("measureHeadroom %d MiB is not over serviceHeadroom %d MiB", measureHeadroom>>20, serviceHeadroom>>20)
	}
}
