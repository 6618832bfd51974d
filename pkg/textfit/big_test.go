package textfit

import "testing"

// Figures from a billion are said in words, to two significant digits;
// smaller ones as Rate writes them.
func TestBig(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{999_999_999, "999,999,999"},
		{12.34, "12.3"},
		{1e9, "1 billion"},
		{2_345_678_901, "2.3 billion"},
		{227_400_000_000, "227 billion"},
		{1_243_189_065_431, "1.2 trillion"},
		{100_940_266_368_346, "101 trillion"},
		{1_243_189_065_431_000, "1,243 trillion"},
	} {
		if got := Big(c.f); got != c.want {
			t.Errorf("Big(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
