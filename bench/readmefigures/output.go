package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// table prints the verdicts one line per figure as they come, in columns
// of fixed width, so that a long run shows its progress.
type table struct{ w io.Writer }

// widths of the columns ROW, WHAT, PAGE, NOW and RATIO; RESULT is last.
var widths = [...]int{4, 44, 24, 24, 6}

func newTable(w io.Writer) *table {
	t := &table{w}
	t.add("ROW", "WHAT", "PAGE", "NOW", "RATIO", "RESULT")
	return t
}

func (t *table) add(row, what, page, now, ratio, result string) {
	var b strings.Builder
	for k, cell := range []string{row, what, page, now, ratio} {
		cell = clip(cell, widths[k])
		b.WriteString(cell)
		b.WriteString(strings.Repeat(" ", widths[k]-utf8.RuneCountInString(cell)+2))
	}
	b.WriteString(result)
	fmt.Fprintln(t.w, b.String())
}

// clip shortens s to n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
