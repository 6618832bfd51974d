package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTableOrdersByKeys stores entities whose keys share long prefixes in
// a random order and reads them back in key order, and finds each.
func TestTableOrdersByKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tb := NewTable("t")
	type key struct{ pk, rk string }
	var want []key
	for _, pk := range []string{"", "p", "partitio", "partition", "partition-1", "partition-10", "partition-2", "q\xc3\xa9"} {
		for _, rk := range []string{"", "r", "row-0000", "row-00001", "row-1"} {
			want = append(want, key{pk, rk})
		}
	}
	order := slices.Clone(want)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, k := range order {
		tb.Put(NewEntity(k.pk, k.rk, nil, instants[0], tb.Names()))
	}
	slices.SortFunc(want, func(a, b key) int {
		if a.pk != b.pk {
			return cmpString(a.pk, b.pk)
		}
		return cmpString(a.rk, b.rk)
	})
	var got []key
	tb.Ascend("", "", func(e *Entity) bool { got = append(got, key{e.pk, e.rk}); return true })
	if !slices.Equal(got, want) {
		t.Fatalf("ascending:\n got %q\nwant %q", got, want)
	}
	for _, k := range want {
		if e := tb.Get(k.pk, k.rk); e == nil || e.pk != k.pk || e.rk != k.rk {
			t.Errorf("get(%q, %q) = %v", k.pk, k.rk, e)
		}
	}
	if tb.Get("partition-1", "row-000") != nil || tb.Get("partitio", "row-1x") != nil {
		t.Error("get found keys that were never stored")
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
