package emulator

import (
	"strconv"
	"sync"
	"testing"
)

// TestReadMapConcurrent adds and reads keys from many goroutines at once
// (run it with -race), listing them meanwhile: a key has one value, made
// once, whatever merges happened, and each lists every key once.
func TestReadMapConcurrent(t *testing.T) {
	var m readMap[int]
	const workers, keys = 8, 5000
	var made sync.Map // key → the value made for it
	create := func(k string) func() *int {
		return func() *int {
			v := new(int)
			if _, dup := made.LoadOrStore(k, v); dup {
				t.Errorf("%s made twice", k)
			}
			return v
		}
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range 3 * keys {
				k := strconv.Itoa((i*7919 + w*104729) % keys)
				v := m.get(k, create(k))
				if first, _ := made.Load(k); first != v {
					t.Errorf("%s: another value", k)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			m.each(func(string, *int) {})
		}
	})
	wg.Wait()
	seen := map[string]int{}
	m.each(func(k string, v *int) {
		seen[k]++
		if first, _ := made.Load(k); first != v {
			t.Errorf("each: %s has another value", k)
		}
	})
	if len(seen) != keys {
		t.Errorf("each listed %d keys, want %d", len(seen), keys)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("each listed %s %d times", k, n)
		}
	}
	// A key outside the read map costs a locked lookup, counted: once
	// they reach an eighth of the read map (plus 8), the keys move in. A
	// pass over every key counts at least one while some are outside, so
	// within keys/8+8 passes all are in.
	for pass := 0; ; pass++ {
		if r := m.read.Load(); r != nil && len(*r) == keys {
			break
		}
		if pass > keys/8+8 {
			n := 0
			if r := m.read.Load(); r != nil {
				n = len(*r)
			}
			t.Fatalf("after %d passes over every key, the read map holds %d keys, want all %d", pass, n, keys)
		}
		for i := range keys {
			m.get(strconv.Itoa(i), nil)
		}
	}
}
