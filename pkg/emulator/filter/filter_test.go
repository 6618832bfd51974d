package filter

import (
	"strings"
	"testing"
	"time"
)

// testRow is a row of typed values for filter evaluation.
type testRow map[string]Value

func (r testRow) Get(name string) (Value, bool) { v, ok := r[name]; return v, ok }

var sampleRow = testRow{
	"PartitionKey": {Kind: String, S: "p1"},
	"RowKey":       {Kind: String, S: "r'5"},
	"I":            {Kind: Int32, I: 5},
	"L":            {Kind: Int64, I: 5_000_000_000},
	"M":            {Kind: Int64, I: 5},
	"D":            {Kind: Double, F: 2.5},
	"B":            {Kind: Bool, B: true},
	"F":            {Kind: Bool, B: false},
	"T":            {Kind: Time, T: time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)},
	"G":            {Kind: GUID, S: "0000000a-0000-4000-8000-000000000000"},
	"X":            {Kind: Binary, S: "\x01\xff"},
	"S":            {Kind: String, S: "hello"},
}

func TestFilterEval(t *testing.T) {
	tests := []struct {
		filter string
		want   bool
	}{
		{"I eq 5", true},                                      // Int32 literal
		{"I ne 5", false},                                     // ne
		{"I gt 4 and I lt 6", true},                           // gt, lt, and
		{"I ge 5 and I le 5", true},                           // ge, le
		{"I gt 5 or I lt 5", false},                           // or, both false
		{"not (I eq 5)", false},                               // not with parentheses
		{"not I eq 4", true},                                  // not binds to the comparison
		{"5 eq I", true},                                      // literal first
		{"4 lt I", true},                                      // literal first, operator flipped
		{"L eq 5000000000L", true},                            // Int64 literal
		{"L gt 4999999999l", true},                            // lower-case L
		{"I eq 5L", false},                                    // Int32 property against Int64 literal: types differ (R17)
		{"I ne 5L", false},                                    // whatever the operator
		{"M eq 5", false},                                     // Int64 property against Int32 literal
		{"M eq 5L", true},                                     // Int64 against Int64
		{"M lt 5.5", true},                                    // Int64 against Double, as numbers
		{"D eq 2.5", true},                                    // Double literal
		{"D lt 3", true},                                      // Double property against Int32 literal
		{"D gt 2.0e0", true},                                  // exponent
		{"D le 2.5d", true},                                   // d suffix
		{"I eq -5", false},                                    // negative literal
		{"B eq true", true},                                   // Boolean literal
		{"F eq false and B", true},                            // a Boolean property on its own
		{"not F", true},                                       // not of a Boolean property
		{"T eq datetime'2025-01-15T12:00:00Z'", true},         // datetime literal
		{"T eq datetime'2025-01-15T12:00:00'", true},          // without a zone: UTC (R3)
		{"T eq datetime'2025-01-15T13:00:00+01:00'", true},    // an offset
		{"T gt datetime'2025-01-15T11:59:59.9999999Z'", true}, // fractional seconds
		{"G eq guid'0000000A-0000-4000-8000-000000000000'", true}, // guid, case-insensitive
		{"G gt guid'00000009-FFFF-FFFF-FFFF-FFFFFFFFFFFF'", true}, // R28: Guids compare as values
		{"G lt guid'0000000a-0000-4000-8000-000000000001'", true},
		{"G gt guid'F0000000-0000-0000-0000-000000000000'", false},
		{"X eq X'01ff'", true},                                      // binary literal
		{"X eq binary'01FF'", true},                                 // binary'..' form
		{"S eq 'hello'", true},                                      // string
		{"S gt 'hell' and S lt 'help'", true},                       // string order
		{"RowKey eq 'r''5'", true},                                  // doubled quote in a string
		{"PartitionKey eq 'p1' AND RowKey ge 'r'", true},            // upper-case keywords
		{"(S eq 'x' or S eq 'hello') and (I eq 1 or I eq 5)", true}, // nesting
		{"Missing eq 1", false},                                     // missing property
		{"not (Missing eq 1)", true},                                // not of a missing property
		{"S eq 5", false},                                           // type mismatch never matches
		{"I eq '5'", false},                                         // type mismatch never matches
		{"T eq '2025-01-15T12:00:00Z'", false},                      // a string is not a datetime
		{"  I   eq\t5  ", true},                                     // white space
		{"I eq 5 and S eq 'hello' and B eq true and D gt 1 and L gt 0L", true}, // a long and chain
		{"true", true},                      // a Boolean literal on its own (R10)
		{"false", false},                    // the .NET health check's filter
		{"FALSE", false},                    // in any case
		{"not false", true},                 // not of a literal
		{"true and S eq 'hello'", true},     // a predicate builder's start
		{"false or (true)", true},           // in parentheses
		{"true and S eq 'bye'", false},      // the comparison still decides
		{"Missing eq 1 or true", true},      // or with a literal
		{"not (true and B eq true)", false}, // both inside not
	}
	for _, tt := range tests {
		n, err := Parse(tt.filter)
		if err != nil {
			t.Errorf("%q: %v", tt.filter, err)
			continue
		}
		if got := n.Eval(sampleRow); got != tt.want {
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
		{"L eq 1498179600055", "unrecognized Edm.Int32"},  // beyond 32 bits without L: Azure's 400
		{"T eq datetime'yesterday'", "not a datetime"},    // bad datetime
		{"G eq guid'1234'", "not a guid"},                 // bad guid
		{"X eq X'0g'", "not hex binary"},                  // bad binary
		{"T eq date'2025-01-01'", "unknown literal type"}, // unknown literal prefix
		{"I eq 5 eq 6", "unexpected"},                     // chained comparison
		{"I == 5", "unexpected character"},                // C operators
		{"1 eq 2", "one property and one literal"},        // no property
		{"I eq J", "one property and one literal"},        // no literal
		{"5", "expected eq"},                              // a literal alone
		{"'true'", "expected eq"},                         // a string is not a Boolean
		{"true false", "unexpected"},                      // two literals
		{"V eq null", "null is not a value"},              // R27: Azure refuses the null literal
		{"NULL ne V", "null is not a value"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.filter)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.filter, err, tt.want)
		}
	}
}

// TestRangeOf holds the bounds a filter sets on the keys, in Azure's key
// order (R21).
func TestRangeOf(t *testing.T) {
	pin := func(pk string) KeyRange { return KeyRange{pkLo: pk, pkHi: bound{true, pk, false}, pkEq: true} }
	withRK := func(r KeyRange, lo string, hi bound) KeyRange { r.rkLo, r.rkHi = lo, hi; return r }
	tests := []struct {
		filter string
		want   KeyRange
	}{
		{"", KeyRange{}},                  // no filter: the whole table
		{"PartitionKey eq 'a'", pin("a")}, // one partition
		{"PartitionKey eq 'a' and RowKey ge 'r1' and RowKey lt 'r9'", withRK(pin("a"), "r1", bound{true, "r9", true})},
		{"RowKey eq 'x' and PartitionKey eq 'a'", withRK(pin("a"), "x", bound{true, "x", false})},
		{"PartitionKey eq 'a' and RowKey gt 'x'", withRK(pin("a"), "x\x00", bound{})},                                                                          // gt: the least key above
		{"PartitionKey ge 'b' and PartitionKey lt 'd'", KeyRange{pkLo: "b", pkHi: bound{true, "d", true}}},                                                     // a partition range
		{"PartitionKey ge 'b' and PartitionKey le 'b'", pin("b")},                                                                                              // a range of one
		{"PartitionKey gt 'b' and PartitionKey gt 'c' and PartitionKey le 'x' and PartitionKey lt 'x'", KeyRange{pkLo: "c\x00", pkHi: bound{true, "x", true}}}, // the tightest bounds
		{"PartitionKey eq 'a' and PartitionKey eq 'b'", KeyRange{pkLo: "b", pkHi: bound{true, "a", false}}},                                                    // contradiction: an empty range
		{"'a' eq PartitionKey", pin("a")},                                      // literal first
		{"'b' le PartitionKey", KeyRange{pkLo: "b"}},                           // flipped: PartitionKey ge 'b'
		{"PartitionKey eq 'a' or PartitionKey eq 'b'", KeyRange{}},             // or: no bound
		{"not (PartitionKey eq 'a')", KeyRange{}},                              // not: no bound
		{"(PartitionKey eq 'a' and I eq 1) or I eq 2", KeyRange{}},             // bound under or
		{"PartitionKey eq 'a' and (RowKey eq 'x' or RowKey eq 'y')", pin("a")}, // or below and
		{"PartitionKey eq 1", KeyRange{}},                                      // not a string: no bound
		{"RowKey ge 'r'", KeyRange{rkLo: "r"}},                                 // RowKey alone (used only with a pinned PartitionKey)
		// R21: bounds in UTF-16 order, U+1F642 (a surrogate pair) before U+E000
		{"PartitionKey ge '\uE000' and PartitionKey ge '\U0001F642'", KeyRange{pkLo: "\uE000"}},
		{"PartitionKey eq 'p' and RowKey gt '\U0001F642' and RowKey gt '\uE000'", withRK(pin("p"), "\uE000\x00", bound{})},
		{"PartitionKey lt '\U0001F642' and PartitionKey lt '\uE000'", KeyRange{pkHi: bound{true, "\U0001F642", true}}},
	}
	for _, tt := range tests {
		n, err := Parse(tt.filter)
		if err != nil {
			t.Fatalf("%q: %v", tt.filter, err)
		}
		if got := RangeOf(n); got != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.filter, got, tt.want)
		}
	}
}

// FuzzParse checks that the parser never panics, that its errors say
// where, and that what it parses it evaluates without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"PartitionKey eq 'p2' and RowKey gt 'r1'", "not (I lt 8) or S eq 'a''b'", "L ge 5L and D lt 2.5",
		"T gt datetime'2025-01-17T00:00:00Z'", "G eq guid'00000004-0000-4000-8000-000000000000'", "X eq X'00ff'",
		"(((B)))", "-1.5e3 lt I", "true and not false",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "$filter at ") {
				t.Fatalf("%q: error %q does not locate the problem", s, err)
			}
			return
		}
		if n != nil {
			n.Eval(sampleRow)
			RangeOf(n)
		}
	})
}
