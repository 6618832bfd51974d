package question

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// The share law: ⌈n/b⌉ plus three standard deviations of a
// binomial(n, 1/b) count, at most n; one bucket or no limit asks for n.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		n    int
		b    int64
		want int
	}{
		{100, 15, 7 + 8},  // sd √(100·1/15·14/15) = 2.49: 7.47 rounds up to 8
		{100, 4, 25 + 13}, // sd 4.33: 12.99 rounds up to 13
		{20, 8, 3 + 5},    // sd 1.48
		{10, 2, 10},       // 5 + 5 reaches n
		{100, 1, 100},
		{0, 8, 0},
	} {
		if got := Share(tc.n, tc.b); got != tc.want {
			t.Errorf("Share(%d, %d) = %d; want %d", tc.n, tc.b, got, tc.want)
		}
	}
}

// topsOf records the $top of every query a plan sends.
type topsOf struct {
	*counting
	tops []int
}

func (s *topsOf) Query(ctx context.Context, q Query) ([]Row, error) {
	s.tops = append(s.tops, q.Top)
	return s.counting.Query(ctx, q)
}

// A fan-out by shares answers exactly what the population model says,
// where a bucket holds far more of the answer than its share: three
// statuses hashed into 8 buckets fill at most three, each asked for 8 of
// the newest 20, so a bucket is asked again for the rows after its
// eighth that could still be in the answer (on one partition per bucket,
// on a day's buckets walked newest first, and on an index table's
// buckets, whose rows point at the main rows read after them).
func TestSharesAnswerExactlyWhenTheSplitIsSkewed(t *testing.T) {
	pop := testPop(t, time.Minute)
	ctx := context.Background()
	const n = 3000
	b := BoundsOf(pop, n)
	newest := question(t, pop, Spec{Name: "newest", Known: []string{"device"}, Want: Newest, Limit: 20})
	for _, spec := range []keygen.SchemeSpec{
		{Name: "statuses", PartitionKey: "{device}-{hash(status) % 8}", RowKey: "{inverted_ticks}"},
		{Name: "days", PartitionKey: "{device}_{time:yyyy-MM-dd}_{hash(status) % 8}", RowKey: "{inverted_ticks}"},
		{Name: "index", PartitionKey: "{guid}", RowKey: "{guid}", Indexes: []keygen.IndexSpec{
			{Name: "ByDevice", PartitionKey: "{device}-{hash(status) % 8}", RowKey: "{inverted_ticks}"}}},
	} {
		s, err := keygen.CompileScheme(pop, spec)
		if err != nil {
			t.Fatal(err)
		}
		p, kind := Derive(newest, s), FanOut
		if len(spec.Indexes) > 0 {
			kind = Index
		}
		if p.Kind != kind || p.ShareTop() != 8 {
			t.Fatalf("%s: %s with shares of %d; want %s asking 8 of each bucket", spec.Name, p.Kind, p.ShareTop(), kind)
		}
		m := NewModel(pop, s, n)
		again := 0
		for i := int64(0); i < n; i += 37 {
			var picked keygen.Entity
			pop.Entity(i, &picked)
			src := &topsOf{counting: &counting{m: m, parts: map[string]bool{}, upTo: keygen.Ticks(b.Last)}}
			rows, err := p.Execute(ctx, src, &picked, b)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]int64, len(rows))
			for k, r := range rows {
				got[k] = r.Seq
			}
			if want := newest.Expected(&picked, n); !slices.Equal(got, want) {
				t.Fatalf("%s, entity %d: %v; want %v", spec.Name, i, got, want)
			}
			if slices.ContainsFunc(src.tops, func(top int) bool { return top != 8 }) {
				again++
			}
		}
		if again == 0 {
			t.Errorf("%s: no question asked a bucket again; a skewed split must", spec.Name)
		}
	}
}
