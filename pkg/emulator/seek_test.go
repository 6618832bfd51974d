package emulator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablestress/tablestress/pkg/emulator/filter"
	"github.com/tablestress/tablestress/pkg/emulator/internal/store"
)

// rangeTable is a small table for checking that key-range seeks return
// exactly what a full scan with the filter returns.
func rangeTable() *store.Table {
	t := store.NewTable("fuzz")
	for p := 0; p < 6; p++ {
		for r := 0; r < 6; r++ {
			props := []store.Prop{{Name: "I", Raw: []byte(fmt.Sprint(p*6 + r))}, {Name: "S", Raw: []byte(fmt.Sprintf(`"%c"`, 'a'+r))}}
			t.Put(store.NewEntity(fmt.Sprintf("p%d", p), fmt.Sprintf("r%d", r), props, time.Time{}, t.Names()))
		}
	}
	return t
}

// seekMatches returns the keys a query finds through the key-range seek,
// a page of limit at a time, following continuations.
func seekMatches(t *store.Table, f filter.Node, limit int) []string {
	rg := filter.RangeOf(f)
	var start keys
	start.pk, start.rk = rg.Start()
	var out []string
	for more := true; more; {
		start, more = scan(t, start, rg, f, newPage(limit), func(e *store.Entity) { out = append(out, e.PK()+"/"+e.RK()) })
	}
	return out
}

// scanMatches returns the keys that match the filter, by evaluating it on
// every entity.
func scanMatches(t *store.Table, f filter.Node) []string {
	var out []string
	t.Ascend("", "", func(e *store.Entity) bool {
		if f == nil || f.Eval(e) {
			out = append(out, e.PK()+"/"+e.RK())
		}
		return true
	})
	return out
}

func TestSeekEqualsScan(t *testing.T) {
	tb := rangeTable()
	for _, text := range []string{
		"PartitionKey eq 'p2'",
		"PartitionKey eq 'p2' and RowKey gt 'r1' and RowKey le 'r4'",
		"PartitionKey gt 'p1' and PartitionKey lt 'p4' and I ne 14",
		"PartitionKey ge 'p1' and RowKey eq 'r3'",
		"PartitionKey eq 'p9'",
		"PartitionKey lt 'p' or S eq 'c'",
		"PartitionKey eq 'p1' and PartitionKey eq 'p2'",
		"RowKey lt 'r2' and PartitionKey eq 'p5'",
		"PartitionKey gt 'p1' and PartitionKey le 'p3' and RowKey gt 'r4'",
		"PartitionKey ge 'p2' and PartitionKey le 'p2' and RowKey gt 'r1' and RowKey lt 'r3'",
		"PartitionKey eq 'p2' and RowKey lt 'r0'",
	} {
		f, err := filter.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(scanMatches(tb, f), " ")
		for _, limit := range []int{1, 2, 1000} {
			if got := strings.Join(seekMatches(tb, f, limit), " "); got != want {
				t.Errorf("%q in pages of %d: %s, want %s", text, limit, got, want)
			}
		}
	}
}

// FuzzFilter checks that the $filter parser never panics, that its errors
// say where, and that the key-range seek finds exactly what a full scan
// finds.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{
		"PartitionKey eq 'p2' and RowKey gt 'r1'", "not (I lt 8) or S eq 'a''b'", "L ge 5L and D lt 2.5",
		"T gt datetime'2025-01-17T00:00:00Z'", "G eq guid'00000004-0000-4000-8000-000000000000'", "X eq X'00ff'",
		"(((B)))", "PartitionKey ge 'p1' and PartitionKey le 'p3' and not RowKey eq 'r2'", "-1.5e3 lt I",
	} {
		f.Add(s)
	}
	tb := rangeTable()
	f.Fuzz(func(t *testing.T, s string) {
		n, err := filter.Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "$filter at ") {
				t.Fatalf("%q: error %q does not locate the problem", s, err)
			}
			return
		}
		want := strings.Join(scanMatches(tb, n), " ")
		if got := strings.Join(seekMatches(tb, n, 4), " "); got != want {
			t.Fatalf("%q: seek found %s, scan %s", s, got, want)
		}
	})
}
