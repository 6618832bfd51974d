package main

import (
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/table"
)

// The values of --clock.
const (
	clockVirtual = "virtual"
	clockWall    = "wall"
)

// clockHelp is --clock's help, for run, compare, find and advise.
const clockHelp = "the time the run lives on: virtual (the embedded service in process only: the client, its retries and timeouts, and the service's model advance on one virtual clock, deterministic and never short of CPU) or wall (this machine's clock); default: virtual on the embedded target in process with a model that takes time, else wall"

// chooseClock decides the session's clock from --clock (given says it was
// set) for target tg, reached in this process or not (inProcess), whose
// embedded service would run cfg: a virtual clock, or nil for the wall
// clock. A virtual clock asked for where it cannot serve is a usage error
// that says why.
func chooseClock(want string, given bool, tg table.Target, inProcess bool, cfg emulator.Config) (*clock.Virtual, error) {
	switch want {
	case "", clockVirtual, clockWall:
	default:
		return nil, usageError("--clock: %q is neither %s nor %s", want, clockVirtual, clockWall)
	}
	if want == clockWall {
		return nil, nil
	}
	why := ""
	switch {
	case tg.Kind != table.KindEmbedded:
		why = "the target is " + string(tg.Kind) + ", a service with a clock of its own: only the embedded service in this process can live on tablestress's virtual clock"
	case !inProcess:
		why = "the embedded service is reached over a connection (--embedded-transport socket), which lives on the wall clock"
	case !cfg.Model.Enabled || !cfg.Model.Latency.On:
		why = "the model " + cfg.Model.String() + " answers in no time, so a virtual clock would never move: use a model with latency (the default azure) or --clock wall"
	}
	if why == "" {
		return clock.NewVirtual(time.Now().UTC().Truncate(time.Second)), nil
	}
	if given && want == clockVirtual {
		return nil, usageError("--clock virtual: %s", why)
	}
	return nil, nil
}
