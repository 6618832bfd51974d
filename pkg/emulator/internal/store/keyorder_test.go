package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/internal/keyorder"
)

// orderKey is a pair of keys in the order the table keeps them.
type orderKey struct{ pk, rk string }

func cmpOrderKey(a, b orderKey) int {
	if c := keyorder.Compare(a.pk, b.pk); c != 0 {
		return c
	}
	return keyorder.Compare(a.rk, b.rk)
}

// randomOrderKey draws keys from a small alphabet (a 0x00 in probes'
// PartitionKeys, UTF-8 and a 0xff byte too) around the given prefixes, so
// that pairs share prefixes of every length, with and without them.
func randomOrderKey(rng *rand.Rand, pks, rks []string, zero bool) orderKey {
	alphabet := "\x01-0a~\x7f\xc3\xa9\xed\xee\xef\xf0\xf4\xff" // lead bytes around U+E000 and the surrogates
	if zero {
		alphabet += "\x00"
	}
	word := func(base []string) string {
		var b strings.Builder
		if rng.IntN(4) > 0 {
			s := base[rng.IntN(len(base))]
			b.WriteString(s[:rng.IntN(len(s)+1)])
		}
		for range rng.IntN(12) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	return orderKey{word(pks), word(rks)}
}

// TestKeySummaryOrder checks keyOrder.summary's contract for prefixes of
// several lengths and keys that have them or not, are shorter and longer
// than the 8 bytes a summary holds, and (as a query's probe may) hold a
// 0x00 in their PartitionKey: a smaller summary means smaller keys, and
// smaller keys never have a greater summary.
func TestKeySummaryOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pks := []string{"", "d", "dev-", "dev-0", "dev-0\xc3\xa9", "partition-", "\xff"}
	rks := []string{"", "2", "2516", "2516099", "25160999999", "row~"}
	for _, opk := range pks {
		for _, ork := range rks {
			o := keyOrder{pk: opk, rk: ork, set: true}
			keys := make([]orderKey, 600)
			for i := range keys {
				keys[i] = randomOrderKey(rng, pks, rks, true)
			}
			for i, a := range keys {
				sa := o.summary(a.pk, a.rk)
				for _, b := range keys[i+1:] {
					sb := o.summary(b.pk, b.rk)
					c := cmpOrderKey(a, b)
					if sa < sb && c >= 0 || sa > sb && c <= 0 {
						t.Fatalf("prefixes %q, %q: summary(%q) = %#x, summary(%q) = %#x: out of the keys' order",
							opk, ork, a, sa, b, sb)
					}
				}
			}
		}
	}
}

// TestKeySummaryDistinguishes checks that the summary is taken after the
// prefixes: keys that differ only past the shared bytes differ in it.
func TestKeySummaryDistinguishes(t *testing.T) {
	o := keyOrder{pk: "dev-", rk: "2516099999", set: true}
	a, b := o.summary("dev-042", "25160999990001-x"), o.summary("dev-042", "25160999990002-x")
	if a >= b {
		t.Errorf("RowKeys that differ in their 14th byte: summaries %#x, %#x", a, b)
	}
	if s := o.summary("dev-042", "0"); s != 0x3034320000000000 || o.summary("dev-042", "") != s {
		t.Errorf("RowKeys below the prefix: summary %#x, want the least of their partition", s)
	}
	if s := o.summary("dev-042", "9"); s != 0x30343200ffffffff {
		t.Errorf("a RowKey above the prefix: summary %#x, want the greatest of its partition", s)
	}
	if o.summary("abc", "") != 0 || o.summary("zzz", "") != ^uint64(0) {
		t.Error("PartitionKeys below and above the prefix are not clamped to the least and greatest summaries")
	}
}

// TestTableReorders stores keys whose common prefixes shrink as the table
// grows (a partition of another name, RowKeys whose leading digits roll
// over), deleting some as it goes, and checks after every phase that the
// tree holds every entry under the summary its keys have now, that
// ascending from any keys yields the model's order from there, and that
// the tree was built again with the prefixes all its keys share.
func TestTableReorders(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tb := NewTable("t")
	model := map[orderKey]bool{}
	put := func(k orderKey) {
		tb.Put(NewEntity(k.pk, k.rk, nil, instants[0], tb.Names()))
		model[k] = true
	}
	// The prefixes each phase's keys leave, where the phase builds the
	// tree again after its keys showed their range ("" where that is not
	// certain: any prefix of what every key shares and three quarters of
	// the tree's keys have is right).
	phases := []struct {
		pks            func(i int) string
		rks            func(i int) string
		wantPK, wantRK string
	}{
		{func(i int) string { return fmt.Sprintf("dev-%03d", 100+i%50) }, func(i int) string { return fmt.Sprintf("2516099999%09d", i*7919) }, "", ""},
		{func(i int) string { return fmt.Sprintf("dev-%03d", i%200) }, func(i int) string { return fmt.Sprintf("2516099999%09d", i*7919) }, "dev-", "25160999990"},
		{func(i int) string { return fmt.Sprintf("dev-%03d", i%200) }, func(i int) string { return fmt.Sprintf("2516098%012d", i*7919) }, "dev-", "251609"},
		{func(i int) string { return fmt.Sprintf("device-%d", i%7) }, func(i int) string { return fmt.Sprintf("r%d", i) }, "dev", ""},
	}
	n := 0
	var sharedPK, sharedRK string // what every key stored shares
	for p, ph := range phases {
		for i := range 3000 {
			k := orderKey{ph.pks(n), ph.rks(n)}
			if n == 0 {
				sharedPK, sharedRK = k.pk, k.rk
			}
			sharedPK, sharedRK = sharedPK[:commonPrefixLen(sharedPK, k.pk)], sharedRK[:commonPrefixLen(sharedRK, k.rk)]
			put(k)
			n++
			if i%5 == 0 { // delete a stored key now and then
				for k := range model {
					tb.Remove(k.pk, k.rk)
					delete(model, k)
					break
				}
			}
		}
		o := &tb.order
		if !strings.HasPrefix(o.pk, sharedPK) || !strings.HasPrefix(o.rk, sharedRK) {
			t.Errorf("phase %d: prefixes %q, %q, shorter than every key's %q, %q", p, o.pk, o.rk, sharedPK, sharedRK)
		}
		if p > 0 && (o.pk != ph.wantPK || o.rk != ph.wantRK) {
			t.Errorf("phase %d: prefixes %q, %q, want %q, %q", p, o.pk, o.rk, ph.wantPK, ph.wantRK)
		}
		without := 0
		for k := range model {
			if !strings.HasPrefix(k.pk, o.pk) || !strings.HasPrefix(k.rk, o.rk) {
				without++
			}
		}
		if 4*without > len(model) {
			t.Errorf("phase %d: %d of %d keys without the tree's prefixes %q, %q", p, without, len(model), o.pk, o.rk)
		}
		checkTreeOrder(t, tb, model, rng, p)
	}
	tb.clear()
	if tb.order.set || tb.order.pk != "" || tb.tree.Len() != 0 {
		t.Errorf("a cleared table keeps its prefixes %q, %q", tb.order.pk, tb.order.rk)
	}
}

// checkTreeOrder checks tb's tree against the model: every entry's
// summary is its keys' under the table's prefixes, the entries are in the
// keys' order, and ascending from random keys (some stored, some not,
// some without the prefixes) starts where the model says.
func checkTreeOrder(t *testing.T, tb *Table, model map[orderKey]bool, rng *rand.Rand, phase int) {
	t.Helper()
	want := make([]orderKey, 0, len(model))
	for k := range model {
		want = append(want, k)
	}
	slices.SortFunc(want, cmpOrderKey)
	var got []orderKey
	tb.tree.Ascend(func(it item) bool {
		pk, rk := keysAt(tb.slab.at(it.ref))
		if s := tb.order.summary(pk, rk); it.prefix != s {
			t.Fatalf("phase %d: (%q, %q) has prefix %#x in the tree, %#x under the table's prefixes", phase, pk, rk, it.prefix, s)
		}
		got = append(got, orderKey{strings.Clone(pk), strings.Clone(rk)})
		return true
	})
	if !slices.Equal(got, want) {
		t.Fatalf("phase %d: the tree holds %d entries out of the model's order (%d)", phase, len(got), len(want))
	}
	pks := []string{"dev-", "dev-1", "device-", "a", "z"}
	rks := []string{"2516099999", "251609", "r1"}
	for range 300 {
		from := randomOrderKey(rng, pks, rks, false)
		if rng.IntN(3) == 0 {
			from = want[rng.IntN(len(want))]
		}
		i, _ := slices.BinarySearchFunc(want, from, cmpOrderKey)
		var first []orderKey
		tb.Ascend(from.pk, from.rk, func(e *Entity) bool {
			first = append(first, orderKey{strings.Clone(e.pk), strings.Clone(e.rk)})
			return len(first) < 3
		})
		end := min(i+3, len(want))
		if !slices.Equal(first, want[i:end]) {
			t.Fatalf("phase %d: ascending from %q: %q, want %q", phase, from, first, want[i:end])
		}
	}
}

// TestKeyOrderStale checks when a tree is built again: once over a
// quarter of its entries were stored without its prefixes, and never
// when it holds more than reorderMax.
func TestKeyOrderStale(t *testing.T) {
	for _, tt := range []struct {
		clamped, n int
		want       bool
	}{
		{0, 0, false}, {1, 3, true}, {1, 4, false}, {25, 100, false}, {26, 100, true},
		{reorderMax/4 + 1, reorderMax, true}, {reorderMax, reorderMax + 1, false},
	} {
		o := keyOrder{clamped: tt.clamped}
		if got := o.stale(tt.n); got != tt.want {
			t.Errorf("%d clamped of %d: stale %v, want %v", tt.clamped, tt.n, got, tt.want)
		}
	}
}

// TestTableOrderPastSummaries checks the order of keys that tie in their
// summaries and differ after: Azure's (keyorder), a surrogate pair
// (U+1F642) before U+E000, for PartitionKeys and RowKeys.
func TestTableOrderPastSummaries(t *testing.T) {
	tb := NewTable("t")
	defer tb.clear()
	for _, k := range []orderKey{{"kz", "r"}, {"k12345678\uE000", "r"}, {"k12345678\U0001F642", "r"},
		{"k0", "r12345678\uE000"}, {"k0", "r12345678\U0001F642"}, {"k0", "rz"}} {
		tb.Insert(&Entity{pk: k.pk, rk: k.rk, names: tb.Names()})
	}
	var got []orderKey
	tb.Ascend("", "", func(e *Entity) bool {
		got = append(got, orderKey{strings.Clone(e.pk), strings.Clone(e.rk)})
		return true
	})
	want := []orderKey{{"k0", "r12345678\U0001F642"}, {"k0", "r12345678\uE000"}, {"k0", "rz"},
		{"k12345678\U0001F642", "r"}, {"k12345678\uE000", "r"}, {"kz", "r"}}
	if !slices.Equal(got, want) {
		t.Errorf("keys that tie in their summaries:\n got %+q\nwant %+q", got, want)
	}
}
