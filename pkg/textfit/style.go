// Package textfit lays out tablestress's terminal text to a width: tables
// whose least important columns give way (and which become one block per
// row when even that is not enough), lines wrapped at spaces, colour only
// where the terminal wants it, and numbers with thousands separators and
// never in scientific notation.
//
// Everything here is pure: a Style says what the output can take, and the
// functions write to an io.Writer or return strings.
package textfit

import (
	"strings"
	"unicode/utf8"
)

// Style is what the output takes: a width in columns (0: unlimited, the
// --wide rendering and the one for files and pipes) and whether it shows
// colour (a terminal without NO_COLOR).
type Style struct {
	Width int
	Color bool
}

// MinWidth is the narrowest width layouts are made for; a smaller Width is
// treated as MinWidth.
const MinWidth = 40

// width returns the effective width, 0 for unlimited.
func (s Style) width() int {
	if s.Width <= 0 {
		return 0
	}
	return max(s.Width, MinWidth)
}

// Fits reports whether a line of n visible characters fits.
func (s Style) Fits(n int) bool { return s.width() == 0 || n <= s.width() }

// Color is a terminal colour for a cell or a word.
type Color uint8

// The colours: Red for failures and partitions over their target, Yellow
// for throttling and warnings, Green for passes.
const (
	NoColor Color = iota
	Red
	Yellow
	Green
)

var ansi = [...]string{"", "\x1b[1;31m", "\x1b[33m", "\x1b[32m"}

const reset = "\x1b[0m"

// Paint returns s in colour c when the style shows colour.
func (s Style) Paint(text string, c Color) string {
	if !s.Color || c == NoColor || text == "" {
		return text
	}
	return ansi[c] + text + reset
}

// Len is the visible width of s: its runes, without ANSI colour sequences.
func Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			if j := strings.IndexByte(s[i:], 'm'); j > 0 {
				i += j + 1
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// Truncate shortens s to at most n visible characters, ending in "…" when
// it cut something.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// TruncateMiddle shortens s to at most n visible characters by cutting its
// middle ("PostsByCat…name-a"): keys that share a prefix stay apart.
func TruncateMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 3 {
		return Truncate(s, n)
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
