package emulator

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// testRow is a row of typed values for filter evaluation.
type testRow map[string]value

func (r testRow) get(name string) (value, bool) { v, ok := r[name]; return v, ok }

var sampleRow = testRow{
	"PartitionKey": {k: kString, s: "p1"},
	"RowKey":       {k: kString, s: "r'5"},
	"I":            {k: kInt, i: 5},
	"L":            {k: kInt, i: 5_000_000_000},
	"D":            {k: kDouble, f: 2.5},
	"B":            {k: kBool, b: true},
	"F":            {k: kBool, b: false},
	"T":            {k: kTime, t: time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)},
	"G":            {k: kGUID, s: "0000000a-0000-4000-8000-000000000000"},
	"X":            {k: kBinary, s: "\x01\xff"},
	"S":            {k: kString, s: "hello"},
}

func TestFilterEval(t *testing.T) {
	tests := []struct {
		filter string
		want   bool
	}{
		{"I eq 5", true},                              // Int32 literal
		{"I ne 5", false},                             // ne
		{"I gt 4 and I lt 6", true},                   // gt, lt, and
		{"I ge 5 and I le 5", true},                   // ge, le
		{"I gt 5 or I lt 5", false},                   // or, both false
		{"not (I eq 5)", false},                       // not with parentheses
		{"not I eq 4", true},                          // not binds to the comparison
		{"5 eq I", true},                              // literal first
		{"4 lt I", true},                              // literal first, operator flipped
		{"L eq 5000000000L", true},                    // Int64 literal
		{"L gt 4999999999l", true},                    // lower-case L
		{"I eq 5L", true},                             // Int32 property against Int64 literal
		{"D eq 2.5", true},                            // Double literal
		{"D lt 3", true},                              // Double property against Int32 literal
		{"D gt 2.0e0", true},                          // exponent
		{"D le 2.5d", true},                           // d suffix
		{"I eq -5", false},                            // negative literal
		{"B eq true", true},                           // Boolean literal
		{"F eq false and B", true},                    // a Boolean property on its own
		{"not F", true},                               // not of a Boolean property
		{"T eq datetime'2025-01-15T12:00:00Z'", true}, // datetime literal
		{"T gt datetime'2025-01-15T11:59:59.9999999Z'", true},                  // fractional seconds
		{"G eq guid'0000000A-0000-4000-8000-000000000000'", true},              // guid, case-insensitive
		{"X eq X'01ff'", true},                                                 // binary literal
		{"X eq binary'01FF'", true},                                            // binary'..' form
		{"S eq 'hello'", true},                                                 // string
		{"S gt 'hell' and S lt 'help'", true},                                  // string order
		{"RowKey eq 'r''5'", true},                                             // doubled quote in a string
		{"PartitionKey eq 'p1' AND RowKey ge 'r'", true},                       // upper-case keywords
		{"(S eq 'x' or S eq 'hello') and (I eq 1 or I eq 5)", true},            // nesting
		{"Missing eq 1", false},                                                // missing property
		{"not (Missing eq 1)", true},                                           // not of a missing property
		{"S eq 5", false},                                                      // type mismatch never matches
		{"I eq '5'", false},                                                    // type mismatch never matches
		{"T eq '2025-01-15T12:00:00Z'", false},                                 // a string is not a datetime
		{"  I   eq\t5  ", true},                                                // white space
		{"I eq 5 and S eq 'hello' and B eq true and D gt 1 and L gt 0L", true}, // a long and chain
	}
	for _, tt := range tests {
		n, err := parseFilter(tt.filter)
		if err != nil {
			t.Errorf("%q: %v", tt.filter, err)
			continue
		}
		if got := n.eval(sampleRow); got != tt.want {
			t.Errorf("%q = %v, want %v", tt.filter, got, tt.want)
		}
	}
}

func TestFilterErrors(t *testing.T) {
	tests := []struct {
		filter string
		want   string // in the error
	}{
		{"I eq", "one property and one literal"},          // missing operand
		{"I eq 5 and", "expected a property name"},        // dangling and
		{"(I eq 5", "missing ')'"},                        // unclosed parenthesis
		{"I eq 5)", `unexpected ")"`},                     // extra parenthesis
		{"S eq 'abc", "unterminated string"},              // unterminated string
		{"I eq 99999999999999999999L", "not an Int64"},    // Int64 overflow
		{"T eq datetime'yesterday'", "not a datetime"},    // bad datetime
		{"G eq guid'1234'", "not a guid"},                 // bad guid
		{"X eq X'0g'", "not hex binary"},                  // bad binary
		{"T eq date'2025-01-01'", "unknown literal type"}, // unknown literal prefix
		{"I eq 5 eq 6", "unexpected"},                     // chained comparison
		{"I == 5", "unexpected character"},                // C operators
		{"1 eq 2", "one property and one literal"},        // no property
		{"I eq J", "one property and one literal"},        // no literal
		{"5", "expected eq"},                              // a literal alone
	}
	for _, tt := range tests {
		_, err := parseFilter(tt.filter)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.filter, err, tt.want)
		}
	}
}

func TestRangeOf(t *testing.T) {
	pin := func(pk string) keyRange { return keyRange{pkLo: pk, pkHi: bound{true, pk, false}, pkEq: true} }
	withRK := func(r keyRange, lo string, hi bound) keyRange { r.rkLo, r.rkHi = lo, hi; return r }
	tests := []struct {
		filter string
		want   keyRange
	}{
		{"", keyRange{}},                  // no filter: the whole table
		{"PartitionKey eq 'a'", pin("a")}, // one partition
		{"PartitionKey eq 'a' and RowKey ge 'r1' and RowKey lt 'r9'", withRK(pin("a"), "r1", bound{true, "r9", true})},
		{"RowKey eq 'x' and PartitionKey eq 'a'", withRK(pin("a"), "x", bound{true, "x", false})},
		{"PartitionKey eq 'a' and RowKey gt 'x'", withRK(pin("a"), "x\x00", bound{})},                                                                          // gt: the least key above
		{"PartitionKey ge 'b' and PartitionKey lt 'd'", keyRange{pkLo: "b", pkHi: bound{true, "d", true}}},                                                     // a partition range
		{"PartitionKey ge 'b' and PartitionKey le 'b'", pin("b")},                                                                                              // a range of one
		{"PartitionKey gt 'b' and PartitionKey gt 'c' and PartitionKey le 'x' and PartitionKey lt 'x'", keyRange{pkLo: "c\x00", pkHi: bound{true, "x", true}}}, // the tightest bounds
		{"PartitionKey eq 'a' and PartitionKey eq 'b'", keyRange{pkLo: "b", pkHi: bound{true, "a", false}}},                                                    // contradiction: an empty range
		{"'a' eq PartitionKey", pin("a")},                                      // literal first
		{"'b' le PartitionKey", keyRange{pkLo: "b"}},                           // flipped: PartitionKey ge 'b'
		{"PartitionKey eq 'a' or PartitionKey eq 'b'", keyRange{}},             // or: no bound
		{"not (PartitionKey eq 'a')", keyRange{}},                              // not: no bound
		{"(PartitionKey eq 'a' and I eq 1) or I eq 2", keyRange{}},             // bound under or
		{"PartitionKey eq 'a' and (RowKey eq 'x' or RowKey eq 'y')", pin("a")}, // or below and
		{"PartitionKey eq 1", keyRange{}},                                      // not a string: no bound
		{"RowKey ge 'r'", keyRange{rkLo: "r"}},                                 // RowKey alone (used only with a pinned PartitionKey)
	}
	for _, tt := range tests {
		n, err := parseFilter(tt.filter)
		if err != nil {
			t.Fatalf("%q: %v", tt.filter, err)
		}
		if got := rangeOf(n); got != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.filter, got, tt.want)
		}
	}
}

// rangeTable is a small table for checking that key-range seeks return
// exactly what a full scan with the filter returns.
func rangeTable() *table {
	t := newTable("fuzz")
	for p := 0; p < 6; p++ {
		for r := 0; r < 6; r++ {
			props := fragment([]prop{{name: "I", raw: []byte(fmt.Sprint(p*6 + r))}, {name: "S", raw: []byte(fmt.Sprintf(`"%c"`, 'a'+r))}})
			t.tree.ReplaceOrInsert(newEntity(fmt.Sprintf("p%d", p), fmt.Sprintf("r%d", r), props, time.Time{}))
		}
	}
	return t
}

// seekMatches returns the keys a query finds through the key-range seek,
// a page of limit at a time, following continuations.
func seekMatches(t *table, f node, limit int) []string {
	rg := rangeOf(f)
	start := rg.start()
	var out []string
	for start != nil {
		next := t.scan(start, rg, f, newPage(limit), func(e *entity) { out = append(out, e.pk+"/"+e.rk) })
		start = next
	}
	return out
}

// scanMatches returns the keys that match the filter, by evaluating it on
// every entity.
func scanMatches(t *table, f node) []string {
	var out []string
	t.tree.Ascend(func(e *entity) bool {
		if f == nil || f.eval(entityRow{e: e}) {
			out = append(out, e.pk+"/"+e.rk)
		}
		return true
	})
	return out
}

func TestSeekEqualsScan(t *testing.T) {
	tb := rangeTable()
	for _, filter := range []string{
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
		f, err := parseFilter(filter)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(scanMatches(tb, f), " ")
		for _, limit := range []int{1, 2, 1000} {
			if got := strings.Join(seekMatches(tb, f, limit), " "); got != want {
				t.Errorf("%q in pages of %d: %s, want %s", filter, limit, got, want)
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
		n, err := parseFilter(s)
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
