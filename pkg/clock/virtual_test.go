package clock

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// since is the virtual time elapsed on v since the epoch.
func since(v *Virtual) time.Duration { return v.Now().Sub(epoch) }

func mustRun(t *testing.T, v *Virtual, f func()) {
	t.Helper()
	if err := v.Run(f); err != nil {
		t.Fatal(err)
	}
}

// TestSleepTakesExactlyItsDuration: work takes no virtual time, a sleep
// exactly its own, and goroutines wake in order of time.
func TestSleepTakesExactlyItsDuration(t *testing.T) {
	v := NewVirtual(epoch)
	var trace []string
	mustRun(t, v, func() {
		g := NewGroup(v)
		for i, d := range []time.Duration{30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
			g.Go(func() {
				busy(5 * time.Millisecond) // wall time: no virtual time at all
				v.Sleep(context.Background(), d)
				trace = append(trace, fmt.Sprintf("%d@%v", i, since(v)))
			})
		}
		g.Wait()
	})
	want := []string{"1@10ms", "2@20ms", "0@30ms"}
	if !slices.Equal(trace, want) {
		t.Fatalf("trace %v, want %v", trace, want)
	}
	if got := since(v); got != 30*time.Millisecond {
		t.Fatalf("clock at %v after the run, want 30ms", got)
	}
}

// busy spins for d of wall time.
func busy(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

// TestSameInstantRunsInTheOrderItBecameDue: goroutines due at the same
// virtual instant run in the order they became due, one at a time.
func TestSameInstantRunsInTheOrderItBecameDue(t *testing.T) {
	v := NewVirtual(epoch)
	var trace []int
	mustRun(t, v, func() {
		g := NewGroup(v)
		for i := range 50 {
			g.Go(func() {
				v.Sleep(context.Background(), time.Second)
				trace = append(trace, i) // unguarded: they never run at once
			})
		}
		g.Wait()
	})
	for i, x := range trace {
		if x != i {
			t.Fatalf("trace %v: goroutine %d ran %dth", trace, x, i)
		}
	}
}

// simulate is a reference for TestDeterministicAgainstReference: n workers
// each sleeping the durations their seeded stream draws, the events
// sorted by time then by when each became due.
func simulate(n, steps int, seed uint64) []string {
	type ev struct {
		at      time.Duration
		seq, id int
	}
	var out []string
	rngs := make([]*rand.Rand, n)
	var due []ev
	seq := 0
	for i := range rngs {
		rngs[i] = rand.New(rand.NewPCG(seed, uint64(i)))
		seq++
		due = append(due, ev{time.Duration(rngs[i].IntN(1000)) * time.Microsecond, seq, i})
	}
	left := make([]int, n)
	for i := range left {
		left[i] = steps
	}
	for len(due) > 0 {
		slices.SortFunc(due, func(a, b ev) int {
			if a.at != b.at {
				return int(a.at - b.at)
			}
			return a.seq - b.seq
		})
		e := due[0]
		due = due[1:]
		out = append(out, fmt.Sprintf("%d@%v", e.id, e.at))
		if left[e.id]--; left[e.id] > 0 {
			seq++
			due = append(due, ev{e.at + time.Duration(rngs[e.id].IntN(1000))*time.Microsecond, seq, e.id})
		}
	}
	return out
}

// TestDeterministicAgainstReference: 40 goroutines sleeping random
// durations (many ties) wake exactly as a sorted event list says, with
// other goroutines on the machine and whatever GOMAXPROCS.
func TestDeterministicAgainstReference(t *testing.T) {
	const n, steps, seed = 40, 30, 7
	want := simulate(n, steps, seed)
	for _, procs := range []int{1, runtime.NumCPU()} {
		old := runtime.GOMAXPROCS(procs)
		v := NewVirtual(epoch)
		var got []string
		mustRun(t, v, func() {
			g := NewGroup(v)
			for i := range n {
				g.Go(func() {
					r := rand.New(rand.NewPCG(seed, uint64(i)))
					for range steps {
						v.Sleep(context.Background(), time.Duration(r.IntN(1000))*time.Microsecond)
						got = append(got, fmt.Sprintf("%d@%v", i, since(v)))
					}
				})
			}
			g.Wait()
		})
		runtime.GOMAXPROCS(old)
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("GOMAXPROCS %d: event %d is %s, want %s", procs, i, got[i], want[i])
				}
			}
			t.Fatalf("GOMAXPROCS %d: %d events, want %d", procs, len(got), len(want))
		}
	}
}

// TestCancelWakesSleepersAtTheVirtualTimeOfTheCancel: a context canceled
// by a goroutine of the clock wakes its sleepers at that instant, in the
// order they went to sleep.
func TestCancelWakesSleepersAtTheVirtualTimeOfTheCancel(t *testing.T) {
	v := NewVirtual(epoch)
	var trace []string
	mustRun(t, v, func() {
		ctx, cancel := context.WithCancel(context.Background())
		g := NewGroup(v)
		for i := range 3 {
			g.Go(func() {
				ok := v.Sleep(ctx, time.Hour)
				trace = append(trace, fmt.Sprintf("%d:%v@%v", i, ok, since(v)))
			})
		}
		g.Go(func() {
			v.Sleep(context.Background(), 7*time.Second)
			cancel()
		})
		g.Wait()
	})
	want := []string{"0:false@7s", "1:false@7s", "2:false@7s"}
	if !slices.Equal(trace, want) {
		t.Fatalf("trace %v, want %v", trace, want)
	}
}

// TestWithDeadline: the context ends at its virtual deadline with the
// cause DeadlineExceeded; canceled before, its deadline no longer moves
// the clock.
func TestWithDeadline(t *testing.T) {
	v := NewVirtual(epoch)
	mustRun(t, v, func() {
		ctx, cancel := v.WithDeadline(context.Background(), epoch.Add(3*time.Second))
		defer cancel()
		if v.Sleep(ctx, time.Minute) {
			t.Error("slept a minute through a 3 s deadline")
		}
		if got := since(v); got != 3*time.Second {
			t.Errorf("woke at %v, want 3s", got)
		}
		if !TimedOut(ctx) {
			t.Errorf("cause %v, want DeadlineExceeded", context.Cause(ctx))
		}
	})
	v = NewVirtual(epoch)
	mustRun(t, v, func() {
		ctx, cancel := v.WithDeadline(context.Background(), epoch.Add(time.Hour))
		v.Sleep(ctx, time.Second)
		cancel()
		if TimedOut(ctx) {
			t.Error("a canceled context said it timed out")
		}
	})
	if got := since(v); got != time.Second {
		t.Fatalf("the run ended at %v: a canceled deadline still moved the clock (want 1s)", got)
	}
}

// TestUntilWakesOnAChannelClosed: Until ends at the first of its time and
// its channels.
func TestUntilWakesOnAChannelClosed(t *testing.T) {
	v := NewVirtual(epoch)
	mustRun(t, v, func() {
		ch := make(chan struct{})
		v.Go(func() {
			v.Sleep(context.Background(), 2*time.Second)
			close(ch)
		})
		if v.Until(epoch.Add(time.Minute), nil, ch) {
			t.Error("Until reported its time, but the channel closed first")
		}
		if got := since(v); got != 2*time.Second {
			t.Errorf("woke at %v, want 2s", got)
		}
		if !v.Until(epoch.Add(5*time.Second), nil) {
			t.Error("Until with no channel to close did not reach its time")
		}
		if got := since(v); got != 5*time.Second {
			t.Errorf("woke at %v, want 5s", got)
		}
	})
}

// TestCancelFromOutside: a context canceled by a goroutine that is not
// the clock's (Ctrl-C) wakes its sleeper.
func TestCancelFromOutside(t *testing.T) {
	v := NewVirtual(epoch)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() {
		<-started
		cancel()
	}()
	mustRun(t, v, func() {
		close(started)
		// Many short sleeps: the cancel lands while the clock runs.
		for v.Sleep(ctx, time.Millisecond) {
			busy(10 * time.Microsecond)
		}
	})
	if ctx.Err() == nil {
		t.Fatal("the loop ended without the cancel")
	}
}

// TestDeadlockIsReported: goroutines waiting on what nothing of the clock
// will ever release end Run with ErrDeadlock, not a hang.
func TestDeadlockIsReported(t *testing.T) {
	v := NewVirtual(epoch)
	q := NewQueue[int](v, 1)
	err := v.Run(func() { q.Recv() })
	if !errors.Is(err, ErrDeadlock) {
		t.Fatalf("Run = %v, want ErrDeadlock", err)
	}
	// Release the goroutine left behind, so nothing leaks.
	v.mu.Lock()
	q.(*vqueue[int]).closed = true
	r := q.(*vqueue[int]).receivers[0].r
	v.mu.Unlock()
	r.wake <- struct{}{}
	<-v.yield
}

// TestStuckIsReported: a goroutine of the clock that blocks on a plain
// channel (breaking the package's rules) ends Run with ErrStuck.
func TestStuckIsReported(t *testing.T) {
	v := NewVirtual(epoch)
	v.StuckAfter = 200 * time.Millisecond
	release := make(chan struct{})
	err := v.Run(func() { <-release })
	if !errors.Is(err, ErrStuck) {
		t.Fatalf("Run = %v, want ErrStuck", err)
	}
	close(release)
	<-v.yield // the goroutine ends
}

// TestRunGoesOnFromWhereItLeft: a second Run starts at the time the first
// ended, and the clock's ratio counts both.
func TestRunGoesOnFromWhereItLeft(t *testing.T) {
	v := NewVirtual(epoch)
	for range 2 {
		mustRun(t, v, func() { v.Sleep(context.Background(), time.Hour) })
	}
	if got := since(v); got != 2*time.Hour {
		t.Fatalf("two runs of an hour ended at %v", got)
	}
	if vt, _ := v.Elapsed(); vt != 2*time.Hour {
		t.Fatalf("Elapsed virtual %v, want 2h", vt)
	}
	if r := v.Ratio(); !(r > 1000) {
		t.Fatalf("ratio %v for two virtual hours in well under a second", r)
	}
}

// TestWaitOutsideTheClockPanics: a wait by a goroutine the clock does not
// run is a programming error said at once.
func TestWaitOutsideTheClockPanics(t *testing.T) {
	v := NewVirtual(epoch)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "outside its goroutines") {
			t.Fatalf("recovered %v", r)
		}
	}()
	v.Sleep(context.Background(), time.Second)
}

// TestDeadlineContextWakesItsWaiters: a goroutine waiting on a context of
// WithDeadline wakes at its deadline, at its cancel, and at its parent's
// end, each at the virtual instant it happened.
func TestDeadlineContextWakesItsWaiters(t *testing.T) {
	v := NewVirtual(epoch)
	var trace []string
	mustRun(t, v, func() {
		parent, cancelParent := context.WithCancel(context.Background())
		byDeadline, c1 := v.WithDeadline(parent, epoch.Add(3*time.Second))
		byCancel, c2 := v.WithDeadline(parent, epoch.Add(time.Hour))
		byParent, c3 := v.WithDeadline(parent, epoch.Add(time.Hour))
		defer c1()
		defer c3()
		g := NewGroup(v)
		for name, ctx := range map[string]context.Context{"deadline": byDeadline, "cancel": byCancel, "parent": byParent} {
			g.Go(func() {
				v.Until(epoch.Add(24*time.Hour), ctx.Done())
				trace = append(trace, fmt.Sprintf("%s@%v", name, since(v)))
			})
		}
		g.Go(func() {
			v.Sleep(context.Background(), 5*time.Second)
			c2()
			v.Sleep(context.Background(), 2*time.Second)
			cancelParent()
		})
		g.Wait()
	})
	slices.Sort(trace)
	want := []string{"cancel@5s", "deadline@3s", "parent@7s"}
	if !slices.Equal(trace, want) {
		t.Fatalf("trace %v, want %v", trace, want)
	}
}

// BenchmarkWaitersOnDeadlines is the clock's cost per goroutine resumed
// with n other goroutines waiting, each on a deadline context of its own
// and one shared channel (the in-process service's requests in flight):
// the clock polls the shared channel once, not each waiter, so the cost
// does not grow with n.
func BenchmarkWaitersOnDeadlines(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			v := NewVirtual(epoch)
			shared := make(chan struct{})
			err := v.Run(func() {
				ctx, cancel := context.WithCancel(context.Background())
				g := NewGroup(v)
				for range n {
					g.Go(func() {
						dc, end := v.WithDeadline(ctx, v.Now().Add(time.Hour))
						defer end()
						v.Until(time.Time{}, dc.Done(), shared)
					})
				}
				v.Sleep(context.Background(), time.Millisecond) // all wait
				b.ResetTimer()
				for range b.N {
					v.Sleep(context.Background(), time.Microsecond)
				}
				b.StopTimer()
				cancel()
				g.Wait()
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
