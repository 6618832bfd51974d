package session

import (
	"fmt"
	"time"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/table"
)

// ClockError is a clock that cannot be: Want is neither ClockVirtual nor
// ClockWall (Why empty), or a virtual clock was asked for where it cannot
// serve (Why says why).
type ClockError struct {
	Want, Why string
}

func (e *ClockError) Error() string {
	if e.Why == "" {
		return fmt.Sprintf("clock: %q is neither %s nor %s", e.Want, ClockVirtual, ClockWall)
	}
	return "clock " + e.Want + ": " + e.Why
}

// ChooseClock decides a session's clock from want (given says it was
// asked for) for target tg, reached in this process or not (inProcess),
// whose embedded service would run cfg: a virtual clock, or nil for the
// wall clock. A virtual clock asked for where it cannot serve is a
// *ClockError that says why.
func ChooseClock(want string, given bool, tg table.Target, inProcess bool, cfg emulator.Config) (*clock.Virtual, error) {
	switch want {
	case "", ClockVirtual, ClockWall:
	default:
		return nil, &ClockError{Want: want}
	}
	if want == ClockWall {
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
	if given && want == ClockVirtual {
		return nil, &ClockError{Want: want, Why: why}
	}
	return nil, nil
}
