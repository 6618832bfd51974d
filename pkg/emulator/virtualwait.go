package emulator

import (
	"context"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/internal/httpfront"
)

// onCallerKey marks the context of a request served on its client's
// goroutine without the in-process front (Load).
type onCallerKey struct{}

// onCaller reports whether the request of ctx is served on its client's
// goroutine: through the in-process front's own conversion, or by Load.
func onCaller(ctx context.Context) bool {
	return httpfront.InProcessContext(ctx) || ctx.Value(onCallerKey{}) != nil
}

// waitOnClock waits on the service's virtual clock until until, or until
// the request's context or its client ends. Only a request served on its
// client's goroutine waits: one that the in-process front passes to the
// socket front (a shape it does not convert) is served on a goroutine of
// the front's, where the clock's rules allow no wait, and is answered at
// once.
func (s *Server) waitOnClock(ctx context.Context, until time.Time) {
	if onCaller(ctx) {
		s.clock.Until(until, ctx.Done(), clientGone(ctx))
	}
}
