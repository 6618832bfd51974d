package clock

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestQueueHandsToAWaitingReceiver: an item sent while a receiver waits
// goes to it and is never counted as queued (what the open loop reads to
// grow its pool), on both clocks.
func TestQueueHandsToAWaitingReceiver(t *testing.T) {
	v := NewVirtual(epoch)
	mustRun(t, v, func() {
		q := NewQueue[int](v, 4)
		got := make(chan int, 1)
		v.Go(func() {
			x, _ := q.Recv()
			got <- x
		})
		v.Sleep(context.Background(), time.Millisecond) // the receiver waits
		if !q.TrySend(7) {
			t.Fatal("TrySend refused with room")
		}
		if n := q.Len(); n != 0 {
			t.Fatalf("Len %d right after handing to a waiting receiver, want 0", n)
		}
		v.Sleep(context.Background(), time.Millisecond)
		if x := <-got; x != 7 {
			t.Fatalf("received %d", x)
		}
		q.Close()
	})
}

// TestQueueOrderAndBounds: FIFO, TrySend refuses when full, a blocked Send
// goes in when a receiver makes room, Recv sees the close after the
// items, and Send stops at its context.
func TestQueueOrderAndBounds(t *testing.T) {
	for _, c := range []Clock{Wall{}, NewVirtual(epoch)} {
		t.Run(fmt.Sprintf("%T", c), func(t *testing.T) {
			run := func(f func()) { f() }
			if v, ok := c.(*Virtual); ok {
				run = func(f func()) { mustRun(t, v, f) }
			}
			run(func() {
				q := NewQueue[int](c, 2)
				if !q.TrySend(1) || !q.TrySend(2) || q.TrySend(3) {
					t.Fatal("a queue of 2 took other than 2")
				}
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				if q.Send(ctx, 9) {
					t.Fatal("Send on a full queue with its context done went in")
				}
				g := NewGroup(c)
				g.Go(func() {
					if !q.Send(context.Background(), 3) {
						t.Error("a blocked Send did not go in")
					}
					q.Close()
				})
				var got []int
				for {
					x, ok := q.Recv()
					if !ok {
						break
					}
					got = append(got, x)
				}
				g.Wait()
				if !slices.Equal(got, []int{1, 2, 3}) {
					t.Fatalf("received %v, want [1 2 3]", got)
				}
			})
		})
	}
}

// TestWallUntil: the wall clock's Until ends at its time or at the first
// channel closed, whatever their number.
func TestWallUntil(t *testing.T) {
	for n := range 5 {
		chans := make([]<-chan struct{}, n)
		closed := make(chan struct{})
		close(closed)
		if !(Wall{}).Until(time.Now().Add(time.Millisecond), chans...) {
			t.Fatalf("%d open channels: Until did not reach its time", n)
		}
		if n > 0 {
			chans[n-1] = closed
			if (Wall{}).Until(time.Now().Add(time.Hour), chans...) {
				t.Fatalf("%d channels, the last closed: Until reported its time", n)
			}
		}
	}
}
