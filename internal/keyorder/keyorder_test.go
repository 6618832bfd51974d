package keyorder

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Compare is the order the package keeps, computed the slow way:
// String.CompareOrdinal of the strings' UTF-16 code units.
func utf16Compare(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// TestCompareExamples holds the cases the order is for, row by row.
func TestCompareExamples(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "", +1},
		{"ab", "abc", -1},
		{"\U0001F642", "\uFFEE", -1},     // outside the basic plane before U+E000–U+FFFF
		{"\U0001F642", "\uE000", -1},     // the first of them
		{"\U0001F642", "\uD7FF", +1},     // after everything below the surrogates
		{"\U00010437", "\U00024B62", -1}, // code point order between two pairs
		{"P\U00010437", "P\uFFFF", -1},   // inside `PartitionKey lt 'P\uffff'`
		{"x\uFF21", "x\U0001D400", +1},   // fullwidth A after mathematical bold A
		{"é", "z", +1},                   // two-byte characters after ASCII, as in both
		{"0123456789abcdef\uFFEE", "0123456789abcdef\U0001F642", +1}, // past the 8-byte words
	} {
		if got := Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%+q, %+q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Compare(tt.b, tt.a); got != -tt.want {
			t.Errorf("Compare(%+q, %+q) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
		if got := utf16Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("the UTF-16 order of %+q, %+q is %d, the row says %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// randomKey is a string of characters from every UTF-8 length, often
// sharing a prefix with the others.
func randomKey(r *rand.Rand) string {
	pool := []rune{'a', 'b', 'é', '中', '\uD7FF', '\uE000', '\uFFEE', '\uFFFF', '\U00010000', '\U0001F642', '\U0010FFFF'}
	var b strings.Builder
	b.WriteString("prefix-0123456789"[:r.IntN(18)])
	for range r.IntN(12) {
		b.WriteRune(pool[r.IntN(len(pool))])
	}
	return b.String()
}

// TestCompareIsUTF16Order checks Compare against the UTF-16 order on
// random valid strings, and Less and Max with it.
func TestCompareIsUTF16Order(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		a, b := randomKey(r), randomKey(r)
		want := utf16Compare(a, b)
		if got := Compare(a, b); got != want {
			t.Fatalf("Compare(%+q, %+q) = %d, want %d", a, b, got, want)
		}
		if Less(a, b) != (want < 0) {
			t.Fatalf("Less(%+q, %+q) = %v", a, b, Less(a, b))
		}
		if m := Max(a, b); utf16Compare(m, a) < 0 || utf16Compare(m, b) < 0 {
			t.Fatalf("Max(%+q, %+q) = %+q", a, b, m)
		}
	}
}

// TestWeightIsAnOrder holds what the store's summaries rely on: Weight is
// a one-to-one map of the bytes, 0 stays least, and the byte order
// changes only for 0xEE and 0xEF, which go above all.
func TestWeightIsAnOrder(t *testing.T) {
	seen := map[byte]bool{}
	for b := range 256 {
		seen[Weight(byte(b))] = true
	}
	if len(seen) != 256 || Weight(0) != 0 || Weight(0xEE) != 0xFE || Weight(0xEF) != 0xFF || Weight(0xF0) != 0xEE || Weight(0xED) != 0xED {
		t.Errorf("Weight is not the map it says: %d values, 0→%#x EE→%#x EF→%#x F0→%#x", len(seen), Weight(0), Weight(0xEE), Weight(0xEF), Weight(0xF0))
	}
}

// FuzzCompare checks on any two strings that Compare is antisymmetric,
// 0 only for equal strings, and the UTF-16 order on valid ones.
func FuzzCompare(f *testing.F) {
	f.Add("\U0001F642", "\uFFEE")
	f.Add("abc", "ab\xff")
	f.Fuzz(func(t *testing.T, a, b string) {
		c := Compare(a, b)
		if c != -Compare(b, a) || (c == 0) != (a == b) {
			t.Fatalf("Compare(%+q, %+q) = %d, reversed %d", a, b, c, Compare(b, a))
		}
		if utf8.ValidString(a) && utf8.ValidString(b) && c != utf16Compare(a, b) {
			t.Fatalf("Compare(%+q, %+q) = %d, UTF-16 order %d", a, b, c, utf16Compare(a, b))
		}
	})
}

var sink int

// BenchmarkCompare compares keys that share a long prefix, as a table's
// do, against the standard library's byte order (ratio within one run).
func BenchmarkCompare(b *testing.B) {
	x, y := "device-0042_2026-01-02_9223370000000000001", "device-0042_2026-01-02_9223370000000000017"
	b.Run("keyorder", func(b *testing.B) {
		for range b.N {
			sink += Compare(x, y)
		}
	})
	b.Run("bytes", func(b *testing.B) {
		for range b.N {
			sink += strings.Compare(x, y)
		}
	})
}

// TestPrefixEnd holds PrefixEnd's contract on the characters where UTF-16
// order turns, and on random strings: every string beginning with s
// orders before PrefixEnd(s), every other string after s orders at or
// after it, and it is valid UTF-8 when s is.
func TestPrefixEnd(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"", ""},
		{"ab", "ac"},
		{"a\uD7FF", "a\U00010000"},
		{"a\U0001F642", "a\U0001F643"},
		{"a\U0010FFFF", "a\uE000"},
		{"a\uFFEE", "a\uFFEF"},
		{"a\uFFFF", "b"},
		{"\uFFFF\uFFFF", ""},
		{"a\xee", "a\xef"}, // not UTF-8: the next byte by weight
		{"a\xed", "a\xf0"},
	} {
		if got := PrefixEnd(tt.s); got != tt.want {
			t.Errorf("PrefixEnd(%+q) = %+q, want %+q", tt.s, got, tt.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		s, u := randomKey(r), randomKey(r)
		if r.IntN(2) == 0 {
			u = s + u // often a string that begins with s
		}
		end := PrefixEnd(s)
		if !utf8.ValidString(end) {
			t.Fatalf("PrefixEnd(%+q) = %+q, not UTF-8", s, end)
		}
		switch {
		case strings.HasPrefix(u, s):
			if end != "" && !Less(u, end) {
				t.Fatalf("%+q begins with %+q but is not before PrefixEnd %+q", u, s, end)
			}
		case Less(s, u):
			if end == "" || Less(u, end) {
				t.Fatalf("%+q does not begin with %+q, yet orders before PrefixEnd %+q", u, s, end)
			}
		}
	}
}
