package question

import (
	"context"
	"slices"
	"testing"
)

// TestModelKeepsTheServiceKeyOrder holds R21 for the model of a table: its
// rows and partitions are in UTF-16 order (a surrogate pair, U+1F642,
// before U+E000), and a RowKey range from a prefix to succ(prefix) holds
// exactly the rows that begin with it, in that order.
func TestModelKeepsTheServiceKeyOrder(t *testing.T) {
	tb := &modelTable{parts: map[string][]modelRow{}}
	for i, k := range []string{"k\uFFEE", "k\uE000", "k\U0001F642", "k\U0001F642x", "k\uD7FF", "kz", "j", "l"} {
		tb.add("\uE000", modelRow{rk: k, seq: int64(i)})
		tb.add(k, modelRow{rk: "r", seq: int64(i)})
	}
	tb.order()
	m := &Model{main: tb}
	var rks []string
	for _, r := range tb.parts["\uE000"] {
		rks = append(rks, r.rk)
	}
	want := []string{"j", "kz", "k\uD7FF", "k\U0001F642", "k\U0001F642x", "k\uE000", "k\uFFEE", "l"}
	if !slices.Equal(rks, want) {
		t.Errorf("rows:\n got %+q\nwant %+q", rks, want)
	}
	if want := append(slices.Clone(want), "\uE000"); !slices.Equal(tb.pks, want) {
		t.Errorf("partitions:\n got %+q\nwant %+q", tb.pks, want)
	}
	for _, tt := range []struct {
		prefix string
		want   []string
	}{
		{"k\U0001F642", []string{"k\U0001F642", "k\U0001F642x"}},
		{"k\uD7FF", []string{"k\uD7FF"}},
		{"k", want[1:7]},
	} {
		c := &counting{m: m, parts: map[string]bool{}, upTo: 1}
		rows, err := c.Query(context.Background(), Query{PK: "\uE000", RKFrom: tt.prefix, RKTo: succ(tt.prefix)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, tb.parts["\uE000"][slices.IndexFunc(tb.parts["\uE000"], func(m modelRow) bool { return m.seq == r.Seq })].rk)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("RowKey from %+q to succ: got %+q, want %+q", tt.prefix, got, tt.want)
		}
	}
}
