package question

import (
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// A key with a lifetime is picked among the keys live when the question
// is asked, evenly: at any newest entity every picked order is one of
// the Live orders live then (none retired, none unborn), each as often;
// a law other than uniform is refused with what to write instead.
func TestPickOfKeyWithLifetime(t *testing.T) {
	pop, err := keygen.NewPopulation(keygen.PopulationSpec{Seed: 3, Interval: time.Second, Fields: []keygen.FieldSpec{
		{Name: "order", Kind: "id", Count: 50, Lifetime: &keygen.LifetimeSpec{Entities: 4}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := pop.Lifetime("order")
	q := question(t, pop, Spec{Name: "open", Known: []string{"order"}, Want: All, Pick: []Pick{{Field: "order", Law: "uniform"}}})
	st := keygen.NewStream(1, 2)
	var e keygen.Entity
	for _, newest := range []int64{0, 999, 123_456} {
		counts := make([]int, l.Live)
		for range 5000 {
			pop.Entity(newest/2, &e)
			q.ApplyPicks(&e, q.DrawPicks(&st, nil), newest)
			v, _ := pop.Value(&e, "order")
			off := v.Num - l.Oldest(newest)
			if off < 0 || off >= l.Live {
				t.Fatalf("at entity %d the pick is order %d, not one of the live [%d, %d)", newest, v.Num, l.Oldest(newest), l.Oldest(newest)+l.Live)
			}
			counts[off]++
		}
		for off, c := range counts {
			if c < 50 || c > 150 { // 100 each, binomial sd 9.9
				t.Errorf("at entity %d, live order %d picked %d times of 5000; want about 100", newest, off, c)
			}
		}
	}
	_, err = Compile(pop, Spec{Name: "recent", Known: []string{"order"}, Want: All, Pick: []Pick{{Field: "order", Law: "latest"}}})
	if err == nil || !strings.Contains(err.Error(), "write {order: uniform}") {
		t.Errorf("a latest pick of a key with a lifetime: %v", err)
	}
}
