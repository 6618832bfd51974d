package plan

import (
	"sync"
	"testing"

	"github.com/tablestress/tablestress/pkg/keygen"
)

func TestKeyspaceSeededAndChanges(t *testing.T) {
	k := NewKeyspace(130) // two full words and a partial one
	for i := int64(0); i < 140; i++ {
		if got, want := k.Exists(i), i < 130; got != want {
			t.Fatalf("Exists(%d) = %v, want %v", i, got, want)
		}
	}
	if i := k.Allocate(); i != 130 {
		t.Errorf("first new index = %d, want 130", i)
	}
	if k.Exists(130) {
		t.Error("an allocated index exists only once acknowledged")
	}
	if !k.Add(130) || k.Add(130) {
		t.Error("Add must report the first acknowledgement only")
	}
	if !k.Remove(5) || k.Remove(5) || k.Exists(5) {
		t.Error("Remove must claim an entity once")
	}
	if k.Live() != 130 {
		t.Errorf("Live = %d, want 130", k.Live())
	}
	if k.Exists(-1) || k.Exists(MaxEntities) || k.Remove(MaxEntities) {
		t.Error("out-of-range indices never exist")
	}
}

func TestKeyspacePickOnlyExisting(t *testing.T) {
	k := NewKeyspace(1000)
	for i := int64(0); i < 1000; i += 2 {
		k.Remove(i)
	}
	st := keygen.NewStream(1, 1)
	found := 0
	for n := 0; n < 10_000; n++ {
		i, ok := k.Pick(keygen.Uniform{}, &st)
		if ok {
			found++
			if i%2 == 0 {
				t.Fatalf("picked deleted entity %d", i)
			}
		}
	}
	if found < 9_990 { // each pick fails only if 16 draws in a row hit deleted ones: 2^-16
		t.Errorf("found %d of 10,000", found)
	}
	empty := NewKeyspace(0)
	if _, ok := empty.Pick(keygen.Uniform{}, &st); ok {
		t.Error("an empty keyspace has nothing to pick")
	}
}

// A keyspace hollowed out by deletes (the skewed hot set deleted first, as a
// zipfian delete mix does) still yields the entities that remain, and only
// those; it fails only when none remains.
func TestKeyspacePickSparse(t *testing.T) {
	k := NewKeyspace(200_000)
	keep := map[int64]bool{5: true, 70_000: true, 199_999: true}
	for i := int64(0); i < 200_000; i++ {
		if !keep[i] {
			k.Remove(i)
		}
	}
	st := keygen.NewStream(3, 1)
	zipf, err := keygen.ParseDistribution("zipf(0.99)")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	for n := 0; n < 3000; n++ {
		i, ok := k.Pick(zipf, &st)
		if !ok || !keep[i] {
			t.Fatalf("pick %d: %d, %v; want one of the 3 remaining entities", n, i, ok)
		}
		seen[i]++
	}
	if len(seen) < 2 {
		t.Errorf("picks reached only %v of the 3 remaining entities", seen)
	}
	for i := range keep {
		k.Remove(i)
	}
	if i, ok := k.Pick(zipf, &st); ok {
		t.Errorf("picked %d from a keyspace with no entity left", i)
	}
}

func TestKeyspaceConcurrentClaims(t *testing.T) {
	k := NewKeyspace(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int64]bool{}
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20_000; n++ {
				i := k.Allocate()
				k.Add(i)
				mu.Lock()
				if seen[i] {
					t.Errorf("index %d allocated twice", i)
				}
				seen[i] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if k.Live() != 160_000 || k.Bound() != 160_000 {
		t.Errorf("Live %d Bound %d, want 160,000", k.Live(), k.Bound())
	}
	// Concurrent deleters claim each entity exactly once.
	var claimed [8]int
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := int64(0); i < 160_000; i++ {
				if k.Remove(i) {
					claimed[w]++
				}
			}
		}(w)
	}
	wg.Wait()
	total := 0
	for _, c := range claimed {
		total += c
	}
	if total != 160_000 || k.Live() != 0 {
		t.Errorf("claimed %d, live %d", total, k.Live())
	}
}

func BenchmarkKeyspacePick(b *testing.B) {
	k := NewKeyspace(1_000_000)
	d := keygen.NewZipf(0.99)
	b.RunParallel(func(pb *testing.PB) {
		st := keygen.NewStream(1, 2)
		for pb.Next() {
			k.Pick(d, &st)
		}
	})
}
