package emulator

import (
	"fmt"
	"sync"
	"testing"
)

// TestCountersConcurrent counts from many goroutines at once, over
// partitions and outcome keys that appear while others count (run it with
// -race), with snapshots taken meanwhile, and checks every count is exact.
func TestCountersConcurrent(t *testing.T) {
	s := newCounters()
	keys := []string{"200", "404 ResourceNotFound", dropKey, "503 ServerBusy"}
	const workers, rounds, parts = 16, 500, 5
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				s.record("t", fmt.Sprint("p", (w+i)%parts), keys[(w*i)%len(keys)], 2, i%3 == 0)
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			s.snapshot()
		}
	})
	wg.Wait()
	want := map[string]map[string]int64{}
	var entities, dropped, discarded = map[string]int64{}, map[string]int64{}, map[string]int64{}
	for w := range workers {
		for i := range rounds {
			p, k := fmt.Sprint("p", (w+i)%parts), keys[(w*i)%len(keys)]
			if want[p] == nil {
				want[p] = map[string]int64{}
			}
			want[p][k]++
			entities[p] += 2
			if k == dropKey {
				dropped[p]++
			}
			if i%3 == 0 {
				discarded[p]++
			}
		}
	}
	got := s.snapshot()["t"].Partitions
	if len(got) != parts {
		t.Fatalf("%d partitions, want %d", len(got), parts)
	}
	for p, ps := range got {
		if fmt.Sprint(ps.Requests) != fmt.Sprint(want[p]) || ps.Entities != entities[p] || ps.Dropped != dropped[p] || ps.Discarded != discarded[p] {
			t.Errorf("%s: %v %d entities %d dropped %d discarded; want %v %d %d %d",
				p, ps.Requests, ps.Entities, ps.Dropped, ps.Discarded, want[p], entities[p], dropped[p], discarded[p])
		}
	}
}
