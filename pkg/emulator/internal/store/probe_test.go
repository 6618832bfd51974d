package store

import (
	"fmt"
	"sync"
	"testing"
)

// TestProbesConcurrent has many goroutines take, read and give back probe
// slots at once (run it with -race): each reads its own keys back, and
// the slots are reused rather than grown per search.
func TestProbesConcurrent(t *testing.T) {
	const goroutines, rounds = 16, 2000
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				pk, rk := fmt.Sprint("p", g), fmt.Sprint(i)
				it := acquireProbe(pk, rk, uint64(i))
				if k := probeAt(it.ref); it.ref&probeBit == 0 || it.prefix != uint64(i) || k.pk != pk || k.rk != rk {
					errs <- fmt.Sprintf("goroutine %d round %d: %+v", g, i, k)
					return
				}
				releaseProbe(it)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	slots := 0
	for i := range probes {
		if s := probes[i].slots.Load(); s != nil {
			slots += len(*s)
		}
	}
	if slots > goroutines*probeShards {
		t.Errorf("%d probe slots after %d searches by %d goroutines", slots, goroutines*rounds, goroutines)
	}
}
