package clock

import (
	"context"
	"reflect"
	"time"
)

// Wall is the machine's clock: the standard library's time, timers,
// goroutines and contexts.
type Wall struct{}

var _ Clock = Wall{}

// Now implements Clock.
func (Wall) Now() time.Time { return time.Now() }

// Sleep implements Clock.
func (Wall) Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Until implements Clock.
func (Wall) Until(at time.Time, done ...<-chan struct{}) bool {
	for _, ch := range done {
		select {
		case <-ch:
			return false
		default:
		}
	}
	var timeUp <-chan time.Time // nil: never (a zero at)
	if !at.IsZero() {
		d := time.Until(at)
		if d <= 0 {
			return true
		}
		t := time.NewTimer(d)
		defer t.Stop()
		timeUp = t.C
	}
	switch len(done) {
	case 0:
		<-timeUp
		return true
	case 1:
		select {
		case <-timeUp:
			return true
		case <-done[0]:
			return false
		}
	case 2:
		select {
		case <-timeUp:
			return true
		case <-done[0]:
			return false
		case <-done[1]:
			return false
		}
	}
	cases := make([]reflect.SelectCase, 0, len(done)+1)
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(timeUp)})
	for _, ch := range done {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)})
	}
	i, _, _ := reflect.Select(cases)
	return i == 0
}

// Go implements Clock.
func (Wall) Go(f func()) { go f() }

// WithDeadline implements Clock.
func (Wall) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(parent, d)
}
