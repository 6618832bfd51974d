package table

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// A request still in flight at its deadline is canceled with the cause
// DeadlineExceeded, exactly then (a fake clock); the next request of the
// same caller gets a live context again.
func TestDeadlineCancelsAtTheTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &deadlines{timeout: time.Second}
		defer d.close()
		ctx, end := d.begin(context.Background())
		time.Sleep(999 * time.Millisecond)
		synctest.Wait()
		if ctx.Err() != nil {
			t.Fatalf("canceled after 999 ms of a 1 s timeout: %v", ctx.Err())
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if ctx.Err() == nil || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Fatalf("at the timeout: err %v, cause %v; want canceled by DeadlineExceeded", ctx.Err(), context.Cause(ctx))
		}
		end()
		next, end := d.begin(context.Background())
		defer end()
		if next.Err() != nil {
			t.Errorf("the next request starts canceled: %v", next.Err())
		}
	})
}

// A request that ended is never canceled later, by its own timer or by
// the next request's: a slot's timer follows the request in flight.
func TestDeadlineFollowsTheRequestInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &deadlines{timeout: time.Second}
		defer d.close()
		ctx, end := d.begin(context.Background())
		time.Sleep(900 * time.Millisecond)
		end()
		// The same slot, 900 ms into the first request's second.
		ctx2, end2 := d.begin(context.Background())
		if ctx2 != ctx {
			t.Fatalf("the slot was not reused for the same caller")
		}
		time.Sleep(500 * time.Millisecond) // past the first request's deadline
		synctest.Wait()
		if ctx2.Err() != nil {
			t.Fatalf("canceled at the first request's deadline: %v", context.Cause(ctx2))
		}
		time.Sleep(500 * time.Millisecond) // past its own
		synctest.Wait()
		if ctx2.Err() == nil {
			t.Fatal("not canceled at its own deadline")
		}
		end2()
	})
}

// The caller's cancellation reaches the request; a different caller gets
// a context of its own.
func TestDeadlineFollowsTheCaller(t *testing.T) {
	d := &deadlines{timeout: time.Minute}
	defer d.close()
	parent, cancel := context.WithCancel(context.Background())
	ctx, end := d.begin(parent)
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) || errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		t.Errorf("caller canceled: err %v cause %v", ctx.Err(), context.Cause(ctx))
	}
	end()
	other, end := d.begin(context.Background())
	defer end()
	if other.Err() != nil {
		t.Errorf("another caller's request starts canceled: %v", other.Err())
	}
}

// Many goroutines, requests far shorter than the timeout: none canceled,
// and a slot per goroutine at most.
func TestDeadlineConcurrent(t *testing.T) {
	d := &deadlines{timeout: 200 * time.Millisecond}
	defer d.close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	canceled := 0
	for range 16 {
		wg.Go(func() {
			ctx := context.WithValue(context.Background(), callKey{}, 1)
			for range 2000 {
				c, end := d.begin(ctx)
				if c.Err() != nil {
					mu.Lock()
					canceled++
					mu.Unlock()
				}
				end()
			}
		})
	}
	wg.Wait()
	if canceled != 0 {
		t.Errorf("%d requests canceled well within their timeout", canceled)
	}
	if n := len(d.all); n > 16 {
		t.Errorf("%d slots for 16 goroutines", n)
	}
}

// A request costs no context or timer of its own: beginning and ending one
// allocates only the closure that ends it.
func TestDeadlineAllocations(t *testing.T) {
	d := &deadlines{timeout: time.Minute}
	defer d.close()
	ctx := context.Background()
	if n := testing.AllocsPerRun(1000, func() {
		_, end := d.begin(ctx)
		end()
	}); n > 1 {
		t.Errorf("%.0f allocations per request, want at most 1", n)
	}
}
