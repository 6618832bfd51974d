// Package clock is the time a run lives on: the wall clock, or a virtual
// clock on which the client's schedule, its workers, retries and timeouts,
// and the embedded service's model all advance together, deterministically
// and never short of CPU.
//
// A Clock tells the time, waits, and starts the goroutines that wait on
// it. Code that may run on a virtual clock must do all of its waiting
// through the clock: Sleep and Until instead of timers, WithDeadline
// instead of context.WithDeadline, Go and a Group instead of go statements
// and sync.WaitGroup, a Queue instead of a channel between goroutines.
// On the wall clock these are the standard library's primitives.
//
// # The virtual clock
//
// Virtual is a discrete-event scheduler. Its goroutines run one at a
// time, each until it waits on the clock; then the scheduler picks the
// next goroutine due, in order of (virtual time, the order in which it
// became due), and moves the time there. Time moves from one event to the
// next: work takes no virtual time at all, a Sleep takes exactly its
// duration, and a run's figures are a function of its inputs, whatever
// the machine does. A program that runs the same goroutines with the same
// inputs makes the same decisions in the same order, so its output is
// byte for byte the same. What a virtual run does not measure is this
// machine's CPU: the wall time it takes is the CPU its work needs, on one
// core.
//
// The rules for code on a Virtual clock:
//   - a goroutine that waits on the clock (Sleep, Until, Queue, Group,
//     a context of WithDeadline) must have been started by Virtual.Run or
//     Virtual.Go;
//   - such a goroutine must not block on anything else that another
//     goroutine of the clock must release (a channel, a sync.WaitGroup,
//     a mutex held across a wait), since only one runs at a time; a
//     goroutine that runs for a minute of wall time without waiting is
//     reported (ErrStuck);
//   - a context canceled by a goroutine of the clock, by a deadline of
//     the clock or from outside (Ctrl-C) wakes the goroutines waiting on
//     it at the virtual time it was seen canceled.
package clock
